// POST /api/transfer-payment {jobId}: Request Payout for one picked-up or shipped job, paid once. Asked for
// while a claim about the order is open, it waits for the claim: 202 {jobId, amountCents, waiting, message}.
import type { ActionFunctionArgs } from "@remix-run/node";
import { PAYOUT_WAITS_FOR_CLAIM, requestPayout } from "~/services/orders/payouts.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { ORDER_NOT_FOUND } from "./orders.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, 4 * 1024);
  const jobId = parseId(body.jobId);
  if (!jobId) return apiError(400, "Missing jobId.");
  return withApiErrors(async () => {
    const payout = await requestPayout(user, jobId);
    if (!payout) return apiError(404, ORDER_NOT_FOUND);
    if ("waiting" in payout) return Response.json({ ...payout, message: PAYOUT_WAITS_FOR_CLAIM }, { status: 202 });
    return Response.json(payout);
  });
}
