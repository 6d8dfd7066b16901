// Where uploaded files live: @remix-run/file-storage on a folder (UPLOADS_DIR, default data/uploads).
// Keys are ours (random), never the uploaded file's name.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { createFsFileStorage } from "@remix-run/file-storage/fs";

export type { FileStorage };

declare global {
  var __printnearStorage: FileStorage | undefined;
}

const uploadsDir = () => resolve(process.env.UPLOADS_DIR || "data/uploads");

export function getStorage(): FileStorage {
  globalThis.__printnearStorage ??= createFsFileStorage(uploadsDir());
  return globalThis.__printnearStorage;
}

/** A fresh path for an upload while it arrives, on the same disk as the storage (never in memory, never /tmp). */
export function incomingUploadPath(): string {
  const dir = join(uploadsDir(), ".incoming");
  mkdirSync(dir, { recursive: true });
  return join(dir, randomBytes(16).toString("hex"));
}

/** A fresh storage key such as "designs/2026/11/3f9c…a1.stl". */
export function newStorageKey(
  area: "designs" | "models" | "model-images" | "printer-images" | "previews",
  extension: string,
): string {
  const now = new Date();
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  const ext = extension
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase()
    .slice(0, 8);
  return `${area}/${now.getUTCFullYear()}/${month}/${randomBytes(16).toString("hex")}${ext ? `.${ext}` : ""}`;
}

export { MAX_DESIGN_BYTES } from "~/domain/upload-limits";
