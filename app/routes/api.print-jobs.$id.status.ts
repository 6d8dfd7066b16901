// PUT /api/print-jobs/{id}/status {status, trackingNumber?}: a step of the lifecycle by the status it reaches.
import type { ActionFunctionArgs } from "@remix-run/node";
import { actionForStatus } from "~/domain/job-lifecycle";
import { methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { apiTransition } from "./orders.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  const user = await requireApiUser(request);
  const body = await readJson(request, 16 * 1024);
  const trackingNumber = typeof body.trackingNumber === "string" ? body.trackingNumber : null;
  return apiTransition(user.id, parseId(params.id), actionForStatus(body.status), { trackingNumber });
}
