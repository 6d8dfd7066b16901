// Shared by the order pages and the order API routes: turning a lifecycle action into an HTTP
// answer (JSON for the API, a toast and redirect for a plain form post).
import { actionFailureTitle, actionToast, type JobAction } from "~/domain/job-lifecycle";
import { AppError } from "~/domain/app-error";
import { getOrderForViewer, type JobListItem } from "~/services/orders/jobs.server";
import { getStorage } from "~/services/storage.server";
import { transitionJob } from "~/services/orders/transitions.server";
import { isAppError, toastOf, withApiErrors } from "~/utils/app-error.server";
import { apiError } from "~/utils/api.server";
import { redirectWithToast } from "~/utils/toast.server";

export const ORDER_NOT_FOUND = "Order not found";
export const DOWNLOAD_FAILED = "Failed to download file";

/**
 * The job's design file as an attachment, for the owner of the job's printer only; refusals are
 * AppErrors (the JSON API answers them as {message}, the order page as a Download Failed toast).
 */
export async function designFileResponse(userId: number, jobId: number | null): Promise<Response> {
  const view = jobId ? await getOrderForViewer(jobId, userId) : null;
  if (!view) throw new AppError("not_found", ORDER_NOT_FOUND);
  if (view.viewerRole !== "owner") throw new AppError("forbidden", "Only the printer owner can download the design file.");
  const key = view.job.fileKey;
  const file = key ? await getStorage().get(key) : null;
  if (!file) throw new AppError("not_found", "The design file is no longer stored.");
  const safeName = view.job.fileName.replace(/[^\w.\- ]+/g, "_");
  return new Response(file.stream(), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${safeName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export interface ActionExtras {
  trackingNumber?: string | null;
  message?: string | null;
}

/** JSON API: the action on the job, answering {id, status, message} or {message} with 400/403/404/409/429. */
export function apiTransition(userId: number, jobId: number | null, action: JobAction | null, extras: ActionExtras = {}) {
  return withApiErrors(async () => {
    if (!jobId) return apiError(404, ORDER_NOT_FOUND);
    if (!action) return apiError(400, "Unknown status or action.");
    const result = await transitionJob({ jobId, by: { userId }, action, ...extras });
    if (!result) return apiError(404, ORDER_NOT_FOUND);
    const toast = actionToast(action, result.deliveryMethod);
    return Response.json({ id: result.jobId, status: result.status, message: toast.description ?? toast.title });
  });
}

/** Plain form post: the action, then back to the page with the success or failure toast. */
export async function pageTransition(
  userId: number,
  jobId: number,
  action: JobAction,
  redirectTo: string,
  extras: ActionExtras = {},
) {
  try {
    const result = await transitionJob({ jobId, by: { userId }, action, ...extras });
    if (!result)
      return redirectWithToast(redirectTo, {
        title: actionFailureTitle(action),
        description: ORDER_NOT_FOUND,
        variant: "destructive",
      });
    return redirectWithToast(redirectTo, actionToast(action, result.deliveryMethod));
  } catch (error) {
    if (isAppError(error)) return redirectWithToast(redirectTo, toastOf(error, actionFailureTitle(action)));
    throw error;
  }
}

/** A row of a job list as the API answers it. */
export function jobListJson(job: JobListItem) {
  return {
    id: job.id,
    fileName: job.fileName,
    status: job.status,
    material: job.material,
    filamentColor: job.filamentColor,
    quantity: job.quantity,
    deliveryMethod: job.deliveryMethod,
    totalCost: (job.amountDueCents / 100).toFixed(2),
    totalCostCents: job.amountDueCents,
    printerProfitCents: job.printerProfitCents,
    trackingNumber: job.trackingNumber,
    printerId: job.printerId,
    printerName: job.printerName,
    customer: { id: job.customerId, firstName: job.customerFirstName, lastName: job.customerLastName },
    submittedAt: job.submittedAt,
    createdAt: job.createdAt,
  };
}
