// POST /api/orders/{id}/cancel: the same cancel as PUT /api/print-jobs/{id}/cancel.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { apiTransition } from "./orders.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  return apiTransition(user.id, parseId(params.id), "cancel");
}
