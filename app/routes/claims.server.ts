// What the claim pages and the claim API share at the HTTP edge: reading the claim form with its
// photos (kept in memory, 5 MB each, until the form is valid) and the first message of a refused body.
import {
  FormDataParseError,
  MaxFilesExceededError,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import type { z } from "zod";
import { AppError } from "~/domain/app-error";
import { MAX_CLAIM_PHOTOS } from "~/domain/claims";
import { FORM_UNREADABLE } from "~/domain/printer-form";
import { MAX_PRINTER_IMAGE_BYTES } from "~/services/printers/images.server";

/** The claim form's fields and photos; a body parseFormData refuses is an AppError on the photos field. */
export async function readClaimForm(request: Request): Promise<FormData> {
  try {
    return await parseFormData(request, { maxFileSize: MAX_PRINTER_IMAGE_BYTES, maxFiles: MAX_CLAIM_PHOTOS }, (file) => file);
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      throw new AppError("too_large", "Each photo must be 5 MB or smaller", { field: "photos" });
    }
    if (error instanceof MaxFilesExceededError) {
      throw new AppError("invalid", `Add at most ${MAX_CLAIM_PHOTOS} photos.`, { field: "photos" });
    }
    if (error instanceof MultipartParseError || error instanceof FormDataParseError)
      throw new AppError("invalid", FORM_UNREADABLE);
    throw error;
  }
}

/** The photos a claim form carries (empty file inputs left out). */
export function claimPhotos(form: FormData): File[] {
  return form.getAll("photos").filter((value): value is File => value instanceof File && value.size > 0);
}

/** The first message of a body that failed its schema, as AppError("invalid") on its field. */
export function invalidBody(error: z.ZodError): AppError {
  const issue = error.issues[0];
  return new AppError("invalid", issue?.message ?? "Check the form.", { field: issue?.path[0]?.toString() });
}
