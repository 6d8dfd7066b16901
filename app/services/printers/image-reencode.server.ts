// Every uploaded picture (printer photos, claim photos, library model pictures) is stored only as sharp
// re-encoded it: same format, upright, with no metadata (EXIF with its GPS block, XMP, ICC, PNG text).
// Its declared size is read from the header and checked before a pixel is decoded (decision 017).
import sharp from "sharp";
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "~/domain/upload-limits";
import type { ImageExtension } from "./images.server";

// each picture is seen once; libvips' operation cache would only hold memory
sharp.cache(false);

const FORMAT_OF: Record<ImageExtension, string> = { jpg: "jpeg", png: "png", webp: "webp" };

export type ReencodedImage =
  | { ok: true; bytes: Uint8Array<ArrayBuffer>; width: number; height: number }
  | { ok: false; problem: "too_many_pixels" | "unreadable" };

/** Whether a declared size is one we decode: at most MAX_IMAGE_SIDE a side and MAX_IMAGE_PIXELS in all. */
export function acceptableImageSize(width: number, height: number): boolean {
  return width > 0 && height > 0 && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;
}

// sharp works on libuv's threads (4 by default); two pictures at a time leave the rest to files and crypto
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * The picture re-encoded in its own format without metadata, turned upright by its EXIF orientation;
 * refused as "too_many_pixels" when its header declares too large a size (nothing decoded), or as
 * "unreadable" when it is not a picture of the format its bytes announce or does not decode.
 */
export function reencodeImage(input: Uint8Array | string, ext: ImageExtension): Promise<ReencodedImage> {
  return inTurn(async () => {
    let width: number;
    let height: number;
    try {
      // the header only: no limit here, so a huge declared size is told apart from a broken file
      const header = await sharp(input, { limitInputPixels: false }).metadata();
      if (header.format !== FORMAT_OF[ext]) return { ok: false, problem: "unreadable" };
      ({ width, height } = header);
    } catch {
      return { ok: false, problem: "unreadable" };
    }
    if (!acceptableImageSize(width, height)) return { ok: false, problem: "too_many_pixels" };
    try {
      // truncated or broken pixel data fails; libjpeg's warnings about harmless quirks of cameras do not
      const image = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).autoOrient();
      const encoded = ext === "jpg" ? image.jpeg({ quality: 90 }) : ext === "png" ? image.png() : image.webp({ quality: 90 });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      return {
        ok: true,
        bytes: new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength),
        width: info.width,
        height: info.height,
      };
    } catch {
      return { ok: false, problem: "unreadable" };
    }
  });
}
