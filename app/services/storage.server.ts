// Where uploaded files live: @remix-run/file-storage on an S3-compatible bucket when one is configured (every
// machine then serves every file), else on a folder (UPLOADS_DIR, default data/uploads); storage/config.server.ts
// reads which. Keys are ours (random), never the uploaded file's name.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { createBucketStorage } from "./storage/bucket.server";
import { storageConfig, type StorageConfig } from "./storage/config.server";

export type { FileStorage };

declare global {
  var __printnearStorage: FileStorage | undefined;
}

/** The storage a configuration names: its bucket, or its folder. */
export function openStorage(config: StorageConfig): FileStorage {
  return config.bucket ? createBucketStorage(config.bucket) : createFsFileStorage(config.directory);
}

export function getStorage(): FileStorage {
  globalThis.__printnearStorage ??= openStorage(storageConfig());
  return globalThis.__printnearStorage;
}

/** A fresh path for an upload while it arrives and is analysed: on the machine's own disk (never in memory, never /tmp). */
export function incomingUploadPath(): string {
  const dir = storageConfig().scratchDirectory;
  mkdirSync(dir, { recursive: true });
  return join(dir, randomBytes(16).toString("hex"));
}

/** A fresh storage key such as "designs/2026/11/3f9c…a1.stl". */
export function newStorageKey(
  area: "designs" | "models" | "model-images" | "printer-images" | "claim-photos" | "previews",
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
