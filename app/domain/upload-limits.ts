// Upload limits shared by the browser (early checks) and the server (the real ones).

/** The maximum size of a design upload: 50 MB (52428800 bytes). */
export const MAX_DESIGN_BYTES = 52_428_800;

/** The one message for a model or design file past MAX_DESIGN_BYTES. */
export const FILE_TOO_LARGE_MESSAGE = "File size exceeds 50MB limit";

/** An upload whose body could not be read as a form (cut off, malformed, too many files). */
export const UNREADABLE_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";

/** The longest side, in pixels, of a picture we decode (photos, library pictures); read from its header first. */
export const MAX_IMAGE_SIDE = 10_000;
/** The most pixels of a picture we decode: 50 megapixels, so a phone's full-resolution photo fits. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** How a picture past those sizes is refused, with the subject of its form ("The photo", "Image"). */
export function imageTooManyPixelsMessage(subject: string): string {
  return `${subject} must be ${MAX_IMAGE_PIXELS / 1_000_000} megapixels or smaller, at most ${MAX_IMAGE_SIDE} pixels on a side`;
}
