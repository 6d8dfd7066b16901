// POST /api/claims/{id}/escalate: the customer asks Printnear support to decide.
import type { ActionFunctionArgs } from "@remix-run/node";
import { CLAIM_NOT_FOUND, escalateClaim } from "~/services/orders/claims.server";
import { apiError, idParam, methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const claimId = idParam(params.id);
  return withApiErrors(async () => {
    const done = await escalateClaim({ userId: user.id, claimId });
    return done ? Response.json(done) : apiError(404, CLAIM_NOT_FOUND);
  });
}
