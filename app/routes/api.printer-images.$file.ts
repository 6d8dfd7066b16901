// GET /api/printer-images/{file}: an owner's photo, a family drawing (family-*.svg) for printers without one, or default.jpg.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/domain/app-error";
import {
  DEFAULT_PRINTER_IMAGE_FILE,
  IMAGE_TYPES,
  familyImageSvg,
  imageKeyFromFileName,
  readDefaultPrinterImage,
} from "~/services/printers/images.server";
import { getStorage } from "~/services/storage.server";
import { apiErrorResponse, withApiErrors } from "~/utils/app-error.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  if (file === DEFAULT_PRINTER_IMAGE_FILE) {
    const bytes = await readDefaultPrinterImage();
    return new Response(bytes, {
      headers: {
        "content-type": "image/jpeg",
        "content-length": String(bytes.byteLength),
        "cache-control": "public, max-age=86400",
      },
    });
  }
  const drawing = familyImageSvg(file);
  if (drawing) {
    return new Response(drawing, {
      headers: {
        "content-type": "image/svg+xml",
        "cache-control": "public, max-age=86400",
        "x-content-type-options": "nosniff",
      },
    });
  }
  return withApiErrors(() => storedPhoto(file));
}

async function storedPhoto(file: string) {
  const found = imageKeyFromFileName(file);
  const stored = found ? await getStorage().get(found.key) : null;
  if (!found || !stored) return apiErrorResponse(new AppError("not_found", "Image not found"));
  return new Response(stored.stream(), {
    headers: {
      "content-type": IMAGE_TYPES[found.ext],
      "content-length": String(stored.size),
      // Keys are random and never reused, so a photo at one URL never changes.
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    },
  });
}
