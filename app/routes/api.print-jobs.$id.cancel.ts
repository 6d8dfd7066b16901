// PUT /api/print-jobs/{id}/cancel: the customer (while unaccepted) or the owner (accepted or printing) cancels.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, requireApiUser } from "~/utils/api.server";
import { parseId } from "~/utils/misc";
import { apiTransition } from "./orders.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  const user = await requireApiUser(request);
  return apiTransition(user.id, parseId(params.id), "cancel");
}
