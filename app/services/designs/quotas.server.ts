// Per-customer caps on analysis work and storage: design uploads, library-model uploads, drafts made from
// models, and how many drafts one account keeps. Tests lower them.
import { AppError } from "~/domain/app-error";
import { hitRateLimit, minutesText, type RateLimitResult } from "~/utils/rate-limit.server";

/** Uploads are analysed on the server, which costs CPU: a generous cap per customer. */
export const UPLOADS_PER_HOUR = 60;
const ONE_HOUR_MS = 60 * 60 * 1000;

export const LIMITS = {
  /** design files posted to /upload and the upload/draft API calls */
  designUploadsPerHour: UPLOADS_PER_HOUR,
  /** library models posted to /upload-model and POST /api/models */
  modelUploadsPerHour: 20,
  /** drafts made from library or catalogue models (each one copies or downloads and analyses a file) */
  modelDraftsPerHour: 30,
  /** drafts a customer may keep */
  draftsPerCustomer: 200,
};

/** Counts one design file of this customer; past the hourly cap, AppError "rate_limited" about the file. */
export async function limitDesignUpload(userId: number): Promise<void> {
  const limit = await hitRateLimit(`design-upload:${userId}`, LIMITS.designUploadsPerHour, ONE_HOUR_MS);
  if (!limit.allowed) {
    throw new AppError("rate_limited", "You have uploaded many designs in the last hour. Please try again later.", {
      field: "file",
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
}

/** Counts one library-model upload of this customer (/upload-model, POST /api/models). */
export function hitModelUploadLimit(userId: number): Promise<RateLimitResult> {
  return hitRateLimit(`model-upload:${userId}`, LIMITS.modelUploadsPerHour, ONE_HOUR_MS);
}

export function modelUploadLimitMessage(retryAfterSeconds: number): string {
  return `You have uploaded many models in the last hour. Please try again in ${minutesText(retryAfterSeconds)}.`;
}

/** Counts one draft made from a model by this customer. */
export function hitModelDraftLimit(userId: number): Promise<RateLimitResult> {
  return hitRateLimit(`model-draft:${userId}`, LIMITS.modelDraftsPerHour, ONE_HOUR_MS);
}

export function modelDraftLimitMessage(retryAfterSeconds: number): string {
  return `You have ordered many models in the last hour. Please try again in ${minutesText(retryAfterSeconds)}.`;
}
