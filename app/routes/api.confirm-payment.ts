// POST /api/confirm-payment {orderId, cardNumber, expiry, cvc, name}: pays with the built-in test
// provider (only when no card provider is configured). Answers {orderId, status}.
import type { ActionFunctionArgs } from "@remix-run/node";
import { payWithTestCard } from "~/services/orders/payment-flows.server";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { ORDER_NOT_FOUND } from "./orders.server";

const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 100) : "");

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await readJson(request, 4 * 1024);
  const orderId = parseId(body.orderId);
  if (!orderId) return apiError(400, "Missing orderId.");
  return withApiErrors(async () => {
    const result = await payWithTestCard(user.id, orderId, {
      cardNumber: text(body.cardNumber),
      expiry: text(body.expiry),
      cvc: text(body.cvc),
      name: text(body.name),
    });
    return result ? Response.json({ orderId, status: result.status }) : apiError(404, ORDER_NOT_FOUND);
  });
}
