// POST /api/print-jobs/{id}/respond {action: "accept" | "reject", message?}: the printer owner answers a paid order.
import type { ActionFunctionArgs } from "@remix-run/node";
import { parseId } from "~/utils/misc";
import { readJson, requireApiUser } from "~/utils/api.server";
import { apiTransition } from "./orders.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const body = await readJson(request, 16 * 1024);
  const action = body.action === "accept" ? "accept" : body.action === "reject" ? "reject" : null;
  return apiTransition(user.id, parseId(params.id), action, { message: typeof body.message === "string" ? body.message : null });
}
