// GET /api/print-jobs/{id}/claims: the order's claims, newest first, for its customer or printer owner.
// POST /api/print-jobs/{id}/claims (multipart: reason, description, photos): the customer reports a problem → {claimId}.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ClaimFormSchema } from "~/domain/claims";
import { claimJson, claimsOfJob, openClaim } from "~/services/orders/claims.server";
import { apiError, idParam, methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { apiErrorResponse, withApiErrors } from "~/utils/app-error.server";
import { claimPhotos, claimPoster, invalidBody, readClaimForm } from "./claims.server";
import { ORDER_NOT_FOUND } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const list = await claimsOfJob(idParam(params.id), user.id);
  if (!list) return apiError(404, ORDER_NOT_FOUND);
  return Response.json(list.map(claimJson));
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const user = await requireApiUser(request);
  const jobId = idParam(params.id);
  // the order is checked before a byte of the body is read: a refused post never fills the scratch disk
  const poster = await claimPoster(jobId, user.id);
  if (!poster) return apiError(404, ORDER_NOT_FOUND);
  if (!poster.photos) return apiErrorResponse(poster.refusal);
  return withApiErrors(async () => {
    const { form, discard } = await readClaimForm(request, { photos: true });
    try {
      const parsed = ClaimFormSchema.safeParse({
        reason: form.get("reason") ?? undefined,
        description: form.get("description") ?? undefined,
      });
      if (!parsed.success) throw invalidBody(parsed.error);
      const opened = await openClaim({ customerId: user.id, jobId, ...parsed.data, photos: claimPhotos(form) });
      return opened ? Response.json(opened, { status: 201 }) : apiError(404, ORDER_NOT_FOUND);
    } finally {
      await discard();
    }
  });
}
