// GET /api/print-jobs/{id}: the order for its customer or printer owner (anyone else: 404), with what was
// refunded and its latest claim's state.
// PUT /api/print-jobs/{id} {status: printing | completed | cancelled}: the owner's quick steps.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { actionForStatus } from "~/domain/job-lifecycle";
import { claimsOfJob } from "~/services/orders/claims.server";
import { getOrderForViewer, orderJson } from "~/services/orders/jobs.server";
import { refundedCentsOf } from "~/services/orders/refunds.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { apiTransition, ORDER_NOT_FOUND } from "./orders.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseId(params.id);
  const view = id ? await getOrderForViewer(id, user.id) : null;
  if (!view) return apiError(404, ORDER_NOT_FOUND);
  const [refundedCents, claims] = await Promise.all([refundedCentsOf(view.job.id), claimsOfJob(view.job.id, user.id)]);
  const claim = claims?.[0];
  return Response.json({
    ...orderJson(view),
    refundedCents,
    claim: claim ? { id: claim.id, status: claim.status, refundCents: claim.refundCents } : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const user = await requireApiUser(request);
  const body = await readJson(request, 16 * 1024);
  const allowed = body.status === "printing" || body.status === "completed" || body.status === "cancelled";
  return apiTransition(user.id, parseId(params.id), allowed ? actionForStatus(body.status) : null);
}
