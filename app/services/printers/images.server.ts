// Printer photos: stored under our own random keys, served at /api/printer-images/{file}.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { AppError } from "~/domain/app-error";
import { PHOTO_TOO_LARGE, PHOTO_TOO_MANY_PIXELS, PHOTO_UNREADABLE } from "~/domain/printer-form";
import { CUSTOM_PRINTER_MODEL_NAME, findPrinterModel } from "~/domain/printer-models";
import { getStorage, newStorageKey } from "~/services/storage.server";
import { reencodeImage } from "./image-reencode.server";

export const DEFAULT_PRINTER_IMAGE_FILE = "default.jpg";
export const DEFAULT_PRINTER_IMAGE_URL = `/api/printer-images/${DEFAULT_PRINTER_IMAGE_FILE}`;
export const MAX_PRINTER_IMAGE_BYTES = 5 * 1024 * 1024;

const KEY_PATTERN = /^printer-images\/(\d{4})\/(\d{2})\/([0-9a-f]{32})\.(jpg|png|webp)$/;
const FILE_PATTERN = /^(\d{4})-(\d{2})-([0-9a-f]{32})\.(jpg|png|webp)$/;

export const IMAGE_TYPES = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

export type PrinterFamily = "corexy" | "bedslinger" | "generic";

/** Which drawing stands in for a printer without a photo: boxed CoreXY, open bed-slinger, or a generic frame. */
export function printerFamily(model: string | null | undefined): PrinterFamily {
  const name = (model ?? "").toLowerCase();
  if (/\ba1\b|a1 mini|prusa|mk[34]|ender|anycubic|kobra|elegoo|neptune/.test(name)) return "bedslinger";
  if (/bambu|qidi|voron|x1|p1[ps]|corexy|\bk1\b/.test(name)) return "corexy";
  return "generic";
}

const FAMILY_FILE_PATTERN = /^family-(corexy|bedslinger|generic)\.svg$/;

export function familyImageUrl(family: PrinterFamily): string {
  return `/api/printer-images/family-${family}.svg`;
}

const FRAME = '<rect width="240" height="180" fill="#f1f5f9"/>';
const FAMILY_DRAWINGS: Record<PrinterFamily, string> = {
  corexy:
    '<rect x="60" y="25" width="120" height="135" rx="8" fill="#e2e8f0" stroke="#334155" stroke-width="4"/>' +
    '<rect x="72" y="40" width="96" height="90" fill="#cbd5e1" stroke="#475569" stroke-width="2"/>' +
    '<rect x="96" y="52" width="48" height="10" fill="#334155"/><rect x="84" y="112" width="72" height="6" fill="#64748b"/>' +
    '<circle cx="160" cy="146" r="5" fill="#334155"/>',
  bedslinger:
    '<rect x="70" y="30" width="8" height="120" fill="#334155"/><rect x="162" y="30" width="8" height="120" fill="#334155"/>' +
    '<rect x="70" y="26" width="100" height="8" fill="#334155"/><rect x="74" y="70" width="92" height="6" fill="#475569"/>' +
    '<rect x="110" y="64" width="20" height="22" fill="#0f172a"/><rect x="50" y="132" width="140" height="10" fill="#64748b"/>' +
    '<rect x="40" y="146" width="160" height="10" rx="3" fill="#334155"/>',
  generic:
    '<rect x="65" y="30" width="110" height="125" rx="6" fill="none" stroke="#334155" stroke-width="6"/>' +
    '<rect x="78" y="66" width="84" height="6" fill="#475569"/><rect x="110" y="60" width="20" height="20" fill="#0f172a"/>' +
    '<rect x="80" y="128" width="80" height="8" fill="#64748b"/>',
};

/** The neutral drawing of a printer family, as SVG text; null for a name we never issued. */
export function familyImageSvg(file: string): string | null {
  const match = FAMILY_FILE_PATTERN.exec(file);
  if (!match) return null;
  const family = match[1] as PrinterFamily;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 180" role="img" aria-label="3D printer">${FRAME}${FAMILY_DRAWINGS[family]}</svg>`;
}

/**
 * The picture of a printer without a photo: its model's own drawing when the model is one of the
 * presets, otherwise the drawing of its family.
 */
export function placeholderImageUrl(model: string | null): string {
  const preset = findPrinterModel(model);
  if (preset && preset.name !== CUSTOM_PRINTER_MODEL_NAME) return preset.imagePath;
  return familyImageUrl(printerFamily(model));
}

/** The public URL of a stored photo (the URL carries year and month so it maps back to the key without a lookup), or the placeholder for the printer's model. */
export function printerImageUrl(imageKey: string | null | undefined, model?: string | null): string {
  const match = imageKey ? KEY_PATTERN.exec(imageKey) : null;
  if (!match) return model === undefined ? DEFAULT_PRINTER_IMAGE_URL : placeholderImageUrl(model);
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
export type PrinterPhotoBytes = { ext: ImageExtension; bytes: PhotoBytes };

/**
 * An uploaded photo is taken only as a real JPEG, PNG or WebP of at most 5 MB and 50 megapixels that decodes;
 * else AppError on its field ("image"). Answers it re-encoded without its metadata: these are the bytes stored.
 */
export async function readPrinterPhoto(file: File, field = "image"): Promise<PrinterPhotoBytes> {
  if (file.size > MAX_PRINTER_IMAGE_BYTES) throw new AppError("too_large", PHOTO_TOO_LARGE, { field });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const ext = sniffImage(bytes);
  if (!ext) throw new AppError("unsupported", "The photo must be a JPEG, PNG or WebP image", { field });
  const image = await reencodeImage(bytes, ext);
  if (image.ok) return { ext, bytes: image.bytes };
  if (image.problem === "too_many_pixels") throw new AppError("too_large", PHOTO_TOO_MANY_PIXELS, { field });
  throw new AppError("invalid", PHOTO_UNREADABLE, { field });
}

/** Stores a photo read by readPrinterPhoto under a new key of its area (claim photos share its checks and storage). */
export async function storePrinterPhoto(
  photo: { ext: ImageExtension; bytes: PhotoBytes },
  area: "printer-images" | "claim-photos" = "printer-images",
): Promise<string> {
  const key = newStorageKey(area, photo.ext);
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
