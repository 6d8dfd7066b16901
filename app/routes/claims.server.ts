// What the claim pages and the claim API share at the HTTP edge: who may send photos (checked before a byte of
// the body is read), reading the claim form with its photos streamed to scratch files (5 MB each, never whole in
// memory, on the scratch budget) and the first message of a refused body.
import { openAsBlob } from "node:fs";
import type { z } from "zod";
import { AppError } from "~/domain/app-error";
import { CLAIM_PENDING, claimWindowEnd, MAX_CLAIM_PHOTOS } from "~/domain/claims";
import { FORM_UNREADABLE } from "~/domain/printer-form";
import { CLAIM_ALREADY_OPEN, CLAIM_WINDOW_CLOSED, claimPanelOf } from "~/services/orders/claims.server";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { MAX_PRINTER_IMAGE_BYTES } from "~/services/printers/images.server";
import { incomingUploadPath } from "~/services/storage.server";
import { scratchBudget } from "~/services/storage/scratch.server";
import { readStreamedForm } from "~/utils/streamed-form.server";

export const PHOTOS_TOO_LARGE = "Each photo must be 5 MB or smaller";

/**
 * How the user stands to the order before its claim body is read: null when it is not theirs (404); `photos`
 * true when they may report a problem now (the customer, within the window, no claim pending), else the
 * refusal an opened claim would meet.
 */
export async function claimPoster(
  jobId: number,
  userId: number,
  now = Date.now(),
): Promise<{ photos: true } | { photos: false; refusal: AppError } | null> {
  const view = await getOrderForViewer(jobId, userId);
  if (!view || view.job.status === "draft") return null;
  const panel = await claimPanelOf(view, userId, now);
  if (!panel) return null;
  if (view.job.customerId !== userId) {
    return { photos: false, refusal: new AppError("forbidden", "Only the order's customer can report a problem.") };
  }
  if (panel.claim && CLAIM_PENDING.includes(panel.claim.status)) {
    return { photos: false, refusal: new AppError("conflict", CLAIM_ALREADY_OPEN) };
  }
  const closes = claimWindowEnd(view.job);
  if (closes === null || now > closes) return { photos: false, refusal: new AppError("conflict", CLAIM_WINDOW_CLOSED) };
  // anything else the service finds (a refund in full) it says itself once the form is read
  return { photos: true };
}

export interface ClaimForm {
  /** the fields, and the photos as Files read from their scratch files */
  form: FormData;
  /** removes the scratch files and frees their place; call it once the claim is opened or refused */
  discard: () => Promise<void>;
}

/**
 * The claim form's fields and, when `photos` allows, up to four photos streamed to scratch files. A body that is
 * refused (too large, too many photos, unreadable, no scratch room) throws its AppError with nothing left on disk.
 */
export async function readClaimForm(request: Request, options: { photos: boolean }): Promise<ClaimForm> {
  const read = await readStreamedForm(request, {
    files: options.photos
      ? {
          photos: {
            maxBytes: MAX_PRINTER_IMAGE_BYTES,
            count: MAX_CLAIM_PHOTOS,
            tooLarge: new AppError("too_large", PHOTOS_TOO_LARGE, { field: "photos" }),
          },
        }
      : {},
    unreadable: new AppError("invalid", FORM_UNREADABLE),
    tooManyFiles: new AppError("invalid", `Add at most ${MAX_CLAIM_PHOTOS} photos.`, { field: "photos" }),
    // the answers to a claim carry no photos and may come url-encoded
    notMultipart: null,
    defaultName: "photo",
    incomingPath: incomingUploadPath,
    reserve: (bytes) => scratchBudget().reserve(bytes),
  });
  if (read.error) throw read.error;
  try {
    const form = new FormData();
    for (const [name, value] of read.fields) form.append(name, value);
    for (const photo of read.fileLists.get("photos") ?? []) {
      form.append("photos", new File([await openAsBlob(photo.path)], photo.name, { type: photo.type }));
    }
    return { form, discard: read.discard };
  } catch (error) {
    await read.discard();
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
