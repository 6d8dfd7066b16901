// POST /api/create-payment-intent {orderId}: a payment for the order's stored amount (an amount
// sent by the client is ignored). Answers {clientSecret, amount, provider}.
import type { ActionFunctionArgs } from "@remix-run/node";
import { startCardPayment } from "~/services/orders/payment-flows.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { ORDER_NOT_FOUND } from "./orders.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, 4 * 1024);
  const orderId = parseId(body.orderId);
  if (!orderId) return apiError(400, "Missing orderId.");
  return withApiErrors(async () => {
    const intent = await startCardPayment(user, orderId);
    return intent ? Response.json(intent) : apiError(404, ORDER_NOT_FOUND);
  });
}
