// Printer photos: stored under our own random keys, served at /api/printer-images/{file}.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { getStorage, newStorageKey } from "./storage.server";

export const DEFAULT_PRINTER_IMAGE_FILE = "default.jpg";
export const DEFAULT_PRINTER_IMAGE_URL = `/api/printer-images/${DEFAULT_PRINTER_IMAGE_FILE}`;
export const MAX_PRINTER_IMAGE_BYTES = 5 * 1024 * 1024;

const KEY_PATTERN = /^printer-images\/(\d{4})\/(\d{2})\/([0-9a-f]{32})\.(jpg|png|webp)$/;
const FILE_PATTERN = /^(\d{4})-(\d{2})-([0-9a-f]{32})\.(jpg|png|webp)$/;

export const IMAGE_TYPES = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** The public URL of a stored photo; the URL carries year and month so it maps back to the key without a lookup. */
export function printerImageUrl(imageKey: string | null | undefined): string {
  const match = imageKey ? KEY_PATTERN.exec(imageKey) : null;
  if (!match) return DEFAULT_PRINTER_IMAGE_URL;
  const [, year, month, id, ext] = match;
  return `/api/printer-images/${year}-${month}-${id}.${ext}`;
}

/** The storage key behind a URL file name, or null for anything we did not issue (no path tricks get through). */
export function imageKeyFromFileName(file: string): { key: string; ext: ImageExtension } | null {
  const match = FILE_PATTERN.exec(file);
  if (!match) return null;
  const [, year, month, id, ext] = match;
  return { key: `printer-images/${year}/${month}/${id}.${ext}`, ext: ext as ImageExtension };
}

/** What the bytes are, whatever the browser claimed: JPEG, PNG or WebP, else null. */
export function sniffImage(bytes: Uint8Array): ImageExtension | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

export type PhotoBytes = Uint8Array<ArrayBuffer>;
export type PhotoCheck = { ok: true; ext: ImageExtension; bytes: PhotoBytes } | { ok: false; message: string };

/** An uploaded photo is accepted only as a real JPEG, PNG or WebP of at most 5 MB. */
export async function checkPrinterPhoto(file: File): Promise<PhotoCheck> {
  if (file.size > MAX_PRINTER_IMAGE_BYTES) return { ok: false, message: "The photo must be 5 MB or smaller" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const ext = sniffImage(bytes);
  if (!ext) return { ok: false, message: "The photo must be a JPEG, PNG or WebP image" };
  return { ok: true, ext, bytes };
}

export async function storePrinterPhoto(photo: { ext: ImageExtension; bytes: PhotoBytes }): Promise<string> {
  const key = newStorageKey("printer-images", photo.ext);
  await getStorage().set(key, new File([photo.bytes], `printer.${photo.ext}`, { type: IMAGE_TYPES[photo.ext] }));
  return key;
}

export async function removePrinterPhoto(key: string | null | undefined): Promise<void> {
  if (key && KEY_PATTERN.test(key)) await getStorage().remove(key);
}

let defaultImage: Promise<PhotoBytes> | undefined;

/** The stock photo shown for printers without one; read once from public/ (or the built client folder). */
export function readDefaultPrinterImage(): Promise<PhotoBytes> {
  defaultImage ??= (async () => {
    const candidates = [
      resolve("public/images/default-printer.jpg"),
      resolve(process.env.REMIX_BUILD_DIR || "build", "client/images/default-printer.jpg"),
    ];
    for (const path of candidates) {
      try {
        return new Uint8Array(await readFile(path));
      } catch {
        // try the next place
      }
    }
    throw new Error("public/images/default-printer.jpg is missing");
  })();
  defaultImage.catch(() => (defaultImage = undefined));
  return defaultImage;
}
