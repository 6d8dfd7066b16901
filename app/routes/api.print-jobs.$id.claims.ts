// GET /api/print-jobs/{id}/claims: the order's claims, newest first, for its customer or printer owner.
// POST /api/print-jobs/{id}/claims (multipart: reason, description, photos): the customer reports a problem → {claimId}.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { ClaimFormSchema } from "~/domain/claims";
import { claimJson, claimsOfJob, openClaim } from "~/services/orders/claims.server";
import { apiError, idParam, methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { claimPhotos, invalidBody, readClaimForm } from "./claims.server";
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
  return withApiErrors(async () => {
    const form = await readClaimForm(request);
    const parsed = ClaimFormSchema.safeParse({
      reason: form.get("reason") ?? undefined,
      description: form.get("description") ?? undefined,
    });
    if (!parsed.success) throw invalidBody(parsed.error);
    const opened = await openClaim({ customerId: user.id, jobId, ...parsed.data, photos: claimPhotos(form) });
    return opened ? Response.json(opened, { status: 201 }) : apiError(404, ORDER_NOT_FOUND);
  });
}
