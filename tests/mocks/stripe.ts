// msw v2 handlers that stand in for Stripe's API (https://api.stripe.com/v1), shaped like its real
// answers (form-encoded requests, JSON objects with `object`, `id` prefixes, error envelopes).
//
// A PaymentIntent is confirmed by POST /v1/payment_intents/{id}/confirm with payment_method
// pm_card_visa (authorised: requires_capture) or pm_card_chargeDeclined (402 card_declined), as
// Stripe's test payment methods behave. Idempotency-Key replays return the first answer. Refunds and
// transfer reversals may be partial and never exceed what is left of the charge or the transfer.
import { http, HttpResponse, type HttpHandler } from "msw";

export const STRIPE_API = "https://api.stripe.com";

interface Intent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: "manual" | "automatic";
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  status: "requires_payment_method" | "requires_capture" | "succeeded" | "canceled";
  latest_charge: string | { id: string; object: "charge"; amount_refunded: number; refunded: boolean } | null;
  last_payment_error: { code: string; message: string; type: string } | null;
  created: number;
  livemode: false;
}

const intents = new Map<string, Intent>();
/** cents refunded per charge; a charge counts as refunded once all of it is */
const refundedCharges = new Map<string, number>();
const sessions = new Map<string, Record<string, unknown>>();
const accounts = new Map<string, Record<string, unknown> & { id: string }>();
const transfers = new Map<
  string,
  Record<string, unknown> & { id: string; transfer_group: string | null; amount: number; amount_reversed: number }
>();
const idempotent = new Map<string, unknown>();
let counter = 0;

function newId(prefix: string) {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36).padStart(6, "0")}`;
}

/** Stripe's form encoding (`metadata[jobId]=7`, `line_items[0][price_data][unit_amount]=100`) as nested objects. */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

function stripeError(status: number, type: string, message: string, code?: string) {
  return HttpResponse.json({ error: { type, message, code } }, { status });
}

function withCharge(intent: Intent) {
  if (typeof intent.latest_charge === "string") {
    return {
      ...intent,
      latest_charge: {
        id: intent.latest_charge,
        object: "charge",
        amount_refunded: refundedCharges.get(intent.latest_charge) ?? 0,
        refunded: (refundedCharges.get(intent.latest_charge) ?? 0) >= intent.amount_received,
      },
    };
  }
  return intent;
}

async function once(request: Request, answer: (body: Record<string, unknown>) => Response | Promise<Response>) {
  const key = request.headers.get("idempotency-key");
  const body = parseForm(await request.text());
  if (key && idempotent.has(`${new URL(request.url).pathname}:${key}`)) {
    return HttpResponse.json(idempotent.get(`${new URL(request.url).pathname}:${key}`) as Record<string, unknown>);
  }
  const response = await answer(body);
  if (key && response.ok) idempotent.set(`${new URL(request.url).pathname}:${key}`, await response.clone().json());
  return response;
}

function createIntent(body: Record<string, unknown>): Intent {
  const id = newId("pi");
  const intent: Intent = {
    id,
    object: "payment_intent",
    amount: Number(body.amount),
    amount_capturable: 0,
    amount_received: 0,
    currency: String(body.currency ?? "usd"),
    capture_method: body.capture_method === "manual" ? "manual" : "automatic",
    client_secret: `${id}_secret_${counter}`,
    description: (body.description as string) ?? null,
    metadata: (body.metadata as Record<string, string>) ?? {},
    status: "requires_payment_method",
    latest_charge: null,
    last_payment_error: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  };
  intents.set(id, intent);
  return intent;
}

/** Tests and mock mode: what Stripe.js would do when the customer submits the card in Elements. */
export function confirmIntentForTests(id: string, paymentMethod: "pm_card_visa" | "pm_card_chargeDeclined" = "pm_card_visa") {
  const intent = intents.get(id);
  if (!intent) throw new Error(`no such intent ${id}`);
  if (paymentMethod === "pm_card_chargeDeclined") {
    intent.last_payment_error = { code: "card_declined", message: "Your card was declined.", type: "card_error" };
    return intent;
  }
  intent.status = intent.capture_method === "manual" ? "requires_capture" : "succeeded";
  intent.amount_capturable = intent.capture_method === "manual" ? intent.amount : 0;
  intent.latest_charge = newId("ch");
  return intent;
}

/** Tests and mock mode: the owner finished Stripe's onboarding pages for this Connect account. */
export function finishConnectOnboardingForTests(accountId: string) {
  const account = accounts.get(accountId);
  if (!account) throw new Error(`no such account ${accountId}`);
  Object.assign(account, { details_submitted: true, payouts_enabled: true, charges_enabled: true });
  return account;
}

export function completeCheckoutSessionForTests(sessionId: string) {
  const session = sessions.get(sessionId);
  if (!session) throw new Error(`no such session ${sessionId}`);
  const intent = intents.get(session.payment_intent as string)!;
  confirmIntentForTests(intent.id);
  session.status = "complete";
  session.payment_status = "unpaid"; // manual capture: authorised, not yet paid
  return session;
}

export const stripeHandlers: HttpHandler[] = [
  http.post(`${STRIPE_API}/v1/payment_intents`, ({ request }) => once(request, (body) => HttpResponse.json(createIntent(body)))),
  http.get(`${STRIPE_API}/v1/payment_intents/:id`, ({ params }) => {
    const intent = intents.get(String(params.id));
    if (!intent)
      return stripeError(404, "invalid_request_error", `No such payment_intent: '${String(params.id)}'`, "resource_missing");
    return HttpResponse.json(withCharge(intent));
  }),
  http.post(`${STRIPE_API}/v1/payment_intents/:id/confirm`, ({ request, params }) =>
    once(request, (body) => {
      if (!intents.has(String(params.id)))
        return stripeError(404, "invalid_request_error", "No such payment_intent", "resource_missing");
      const intent = confirmIntentForTests(String(params.id), body.payment_method as "pm_card_visa");
      if (intent.last_payment_error) return stripeError(402, "card_error", intent.last_payment_error.message, "card_declined");
      return HttpResponse.json(intent);
    }),
  ),
  http.post(`${STRIPE_API}/v1/payment_intents/:id/capture`, ({ request, params }) =>
    once(request, () => {
      const intent = intents.get(String(params.id));
      if (!intent) return stripeError(404, "invalid_request_error", "No such payment_intent", "resource_missing");
      if (intent.status !== "requires_capture") {
        return stripeError(
          400,
          "invalid_request_error",
          `This PaymentIntent could not be captured because it has a status of ${intent.status}.`,
          "payment_intent_unexpected_state",
        );
      }
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      intent.amount_capturable = 0;
      return HttpResponse.json(intent);
    }),
  ),
  http.post(`${STRIPE_API}/v1/payment_intents/:id/cancel`, ({ request, params }) =>
    once(request, () => {
      const intent = intents.get(String(params.id));
      if (!intent) return stripeError(404, "invalid_request_error", "No such payment_intent", "resource_missing");
      if (intent.status === "succeeded" || intent.status === "canceled") {
        return stripeError(
          400,
          "invalid_request_error",
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          "payment_intent_unexpected_state",
        );
      }
      intent.status = "canceled";
      intent.amount_capturable = 0;
      return HttpResponse.json(intent);
    }),
  ),
  http.post(`${STRIPE_API}/v1/refunds`, ({ request }) =>
    once(request, (body) => {
      const intent = intents.get(String(body.payment_intent));
      if (!intent || intent.status !== "succeeded" || typeof intent.latest_charge !== "string") {
        return stripeError(
          400,
          "invalid_request_error",
          "This PaymentIntent does not have a successful charge to refund.",
          "charge_not_refundable",
        );
      }
      const refunded = refundedCharges.get(intent.latest_charge) ?? 0;
      const left = intent.amount_received - refunded;
      if (left <= 0) {
        return stripeError(
          400,
          "invalid_request_error",
          `Charge ${intent.latest_charge} has already been refunded.`,
          "charge_already_refunded",
        );
      }
      const amount = body.amount === undefined ? left : Number(body.amount);
      if (amount > left) {
        const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
        return stripeError(
          400,
          "invalid_request_error",
          `Refund amount (${usd(amount)}) is greater than unrefunded amount on charge (${usd(left)})`,
        );
      }
      refundedCharges.set(intent.latest_charge, refunded + amount);
      return HttpResponse.json({
        id: newId("re"),
        object: "refund",
        amount,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        status: "succeeded",
        currency: intent.currency,
      });
    }),
  ),
  http.post(`${STRIPE_API}/v1/accounts`, ({ request }) =>
    once(request, (body) => {
      const account = {
        id: newId("acct"),
        object: "account",
        type: "express",
        email: body.email ?? null,
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        metadata: body.metadata ?? {},
      };
      accounts.set(account.id, account);
      return HttpResponse.json(account);
    }),
  ),
  http.get(`${STRIPE_API}/v1/accounts/:id`, ({ params }) => {
    const account = accounts.get(String(params.id));
    if (!account) return stripeError(404, "invalid_request_error", `No such account: '${String(params.id)}'`, "resource_missing");
    return HttpResponse.json(account);
  }),
  http.post(`${STRIPE_API}/v1/account_links`, ({ request }) =>
    once(request, (body) =>
      HttpResponse.json({
        object: "account_link",
        created: Math.floor(Date.now() / 1000),
        expires_at: Math.floor(Date.now() / 1000) + 300,
        url: `https://connect.stripe.com/setup/e/${String(body.account)}/mock`,
      }),
    ),
  ),
  http.post(`${STRIPE_API}/v1/transfers`, ({ request }) =>
    once(request, (body) => {
      const transfer = {
        id: newId("tr"),
        amount: Number(body.amount),
        amount_reversed: 0,
        object: "transfer",
        currency: body.currency,
        destination: body.destination,
        transfer_group: (body.transfer_group as string | undefined) ?? null,
        metadata: body.metadata ?? {},
        reversed: false,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      transfers.set(transfer.id, transfer);
      return HttpResponse.json(transfer);
    }),
  ),
  http.post(`${STRIPE_API}/v1/transfers/:id/reversals`, ({ request, params }) =>
    once(request, (body) => {
      const transfer = transfers.get(String(params.id));
      if (!transfer) {
        return stripeError(404, "invalid_request_error", `No such transfer: '${String(params.id)}'`, "resource_missing");
      }
      const amount = body.amount === undefined ? transfer.amount - transfer.amount_reversed : Number(body.amount);
      if (amount > transfer.amount - transfer.amount_reversed) {
        return stripeError(400, "invalid_request_error", "Transfer reversal amount exceeds the amount not yet reversed.");
      }
      transfer.amount_reversed += amount;
      return HttpResponse.json({
        id: newId("trr"),
        object: "transfer_reversal",
        amount,
        currency: "usd",
        transfer: transfer.id,
        destination_payment_refund: null,
        metadata: {},
      });
    }),
  ),
  http.get(`${STRIPE_API}/v1/transfers/:id`, ({ params }) => {
    const transfer = transfers.get(String(params.id));
    if (!transfer)
      return stripeError(404, "invalid_request_error", `No such transfer: '${String(params.id)}'`, "resource_missing");
    return HttpResponse.json({ ...transfer, reversed: transfer.amount_reversed >= transfer.amount });
  }),
  // a list, newest first, filtered by transfer_group as Stripe does
  http.get(`${STRIPE_API}/v1/transfers`, ({ request }) => {
    const url = new URL(request.url);
    const group = url.searchParams.get("transfer_group");
    const limit = Number(url.searchParams.get("limit") ?? 10);
    const matching = [...transfers.values()].filter((t) => group === null || t.transfer_group === group).reverse();
    return HttpResponse.json({
      object: "list",
      url: "/v1/transfers",
      has_more: matching.length > limit,
      data: matching.slice(0, limit),
    });
  }),
  http.post(`${STRIPE_API}/v1/checkout/sessions`, ({ request }) =>
    once(request, (body) => {
      const lineItems = body.line_items as Record<string, { price_data: { unit_amount: string } }>;
      const paymentData = (body.payment_intent_data ?? {}) as { capture_method?: string; metadata?: Record<string, string> };
      const intent = createIntent({
        amount: lineItems["0"]!.price_data.unit_amount,
        currency: "usd",
        capture_method: paymentData.capture_method,
        metadata: paymentData.metadata,
      });
      const id = newId("cs_test");
      const session = {
        id,
        object: "checkout.session",
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_total: intent.amount,
        currency: "usd",
        payment_intent: intent.id,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `https://checkout.stripe.com/c/pay/${id}`,
      };
      sessions.set(id, session);
      return HttpResponse.json(session);
    }),
  ),
  http.get(`${STRIPE_API}/v1/checkout/sessions/:id`, ({ params }) => {
    const session = sessions.get(String(params.id));
    if (!session) return stripeError(404, "invalid_request_error", "No such checkout.session", "resource_missing");
    return HttpResponse.json(session);
  }),
];
