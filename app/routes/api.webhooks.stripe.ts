// POST /api/webhooks/stripe: Stripe's events, verified with STRIPE_WEBHOOK_SECRET; each event id is
// recorded so a delivery that arrives twice changes nothing twice.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook } from "~/services/orders/payment-flows.server";
import { apiError } from "~/utils/api.server";
import { withApiErrors } from "~/utils/app-error.server";

const MAX_BYTES = 512 * 1024;

async function readText(request: Request): Promise<string | null> {
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      void reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(400, "Use POST for this call.");
  const payload = await readText(request);
  if (payload === null) return apiError(413, "Request body too large.");
  return withApiErrors(async () => {
    const outcome = await handleStripeWebhook(payload, request.headers.get("stripe-signature"));
    return Response.json({ received: true, duplicate: outcome === "duplicate" });
  });
}
