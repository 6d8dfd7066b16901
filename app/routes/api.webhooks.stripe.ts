// POST /api/webhooks/stripe: Stripe's events, verified with STRIPE_WEBHOOK_SECRET; each event id is
// recorded so a delivery that arrives twice changes nothing twice.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook } from "~/services/orders/payment-flows.server";
import { methodNotAllowed, readText } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

const MAX_BYTES = 512 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const payload = await readText(request, MAX_BYTES);
  return withApiErrors(async () => {
    const outcome = await handleStripeWebhook(payload, request.headers.get("stripe-signature"));
    return Response.json({ received: true, duplicate: outcome === "duplicate" });
  });
}
