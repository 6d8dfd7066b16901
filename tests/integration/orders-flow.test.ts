// Orders end to end below the routes: placing, paying on both payment providers (one contract),
// accepting with filament reserved, races, payouts once, the authorisation sweep, webhooks twice.
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { http, HttpResponse } from "msw";
import { afterAll, beforeEach, describe, expect, test, vi } from "vitest";
import { filamentInventory, notifications, payments, payouts, webhookEvents } from "../../db/schema";
import { isAppError } from "../../app/domain/app-error";
import { AUTHORIZATION_MS } from "../../app/domain/job-lifecycle";
import { releaseStrandedHolds, sweepExpiringAuthorizations } from "../../app/services/orders/authorization-sweep.server";
import {
  confirmProviderPayment,
  handleStripeWebhook,
  payWithTestCard,
  startCardPayment,
  startHostedCheckout,
} from "../../app/services/orders/payment-flows.server";
import { connectPayoutAccount, payoutAccountState, requestPayout } from "../../app/services/orders/payouts.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { getPaymentProvider } from "../../app/services/payments/provider.server";
import {
  completeCheckoutSessionForTests,
  confirmIntentForTests,
  finishConnectOnboardingForTests,
  STRIPE_API,
} from "../mocks/stripe";
import { server } from "../setup/msw";
import { createOwnerWithPrinter, placeTestOrder } from "../setup/orders";
import { createTestUser } from "../setup/requests";
import { jobRow } from "../setup/jobs";

// races need more writes than one person makes in an hour
WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;
WRITE_LIMITS.order.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

async function stock(printerId: number, color = "Red") {
  const db = await getDb();
  const rows = await db.select().from(filamentInventory).where(eq(filamentInventory.printerId, printerId));
  return rows.find((r) => r.color === color)!.grams;
}
async function paymentsOf(jobId: number) {
  const db = await getDb();
  return db.select().from(payments).where(eq(payments.jobId, jobId));
}

/** Starts a Stripe card payment for the job: its PaymentIntent's id (the client secret's first part). */
async function startIntent(customer: { id: number; email: string }, jobId: number) {
  const started = await startCardPayment(customer, jobId);
  return started!.clientSecret.split("_secret_")[0]!;
}

const PROVIDERS = {
  test: {
    key: "",
    async pay(customer: { id: number; email: string }, jobId: number) {
      await payWithTestCard(customer.id, jobId, CARD);
    },
    finishOnboarding(_accountId: string) {},
  },
  stripe: {
    key: "sk_test_mock",
    async pay(customer: { id: number; email: string }, jobId: number) {
      const id = await startIntent(customer, jobId);
      confirmIntentForTests(id);
      await confirmProviderPayment(id);
    },
    finishOnboarding(accountId: string) {
      finishConnectOnboardingForTests(accountId);
    },
  },
} as const;

afterAll(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe.each(Object.entries(PROVIDERS))("payment provider contract: %s", (name, provider) => {
  beforeEach(() => {
    if (provider.key) process.env.STRIPE_SECRET_KEY = provider.key;
    else delete process.env.STRIPE_SECRET_KEY;
  });

  test("pay → confirmed (authorised), accept → captured, filament reserved, both parties told", async () => {
    const { owner, printer, customer, jobId } = await placeTestOrder();
    const placed = await jobRow(jobId);
    // 40 g at $0.12/g is 480 cents profit, 15% fee has a 100 cent minimum: 580, pickup adds nothing
    expect([placed.status, placed.amountDueCents, placed.printerProfitCents]).toEqual(["submitted", 580, 480]);
    await provider.pay(customer, jobId);
    expect((await jobRow(jobId)).status).toBe("confirmed");
    expect((await paymentsOf(jobId)).map((p) => [p.provider, p.status, p.amountCents])).toEqual([[name, "authorized", 580]]);
    const [payment] = await paymentsOf(jobId);
    expect(payment!.authorizationExpiresAt!.getTime() - payment!.authorizedAt!.getTime()).toBe(AUTHORIZATION_MS);

    await transitionJob({ jobId, by: { userId: owner.id }, action: "accept", message: "On it" });
    const accepted = await jobRow(jobId);
    expect([accepted.status, accepted.ownerMessage, accepted.acceptedAt !== null]).toEqual(["accepted", "On it", true]);
    expect((await paymentsOf(jobId))[0]!.status).toBe("captured");
    expect(await stock(printer.id)).toBe(960);
    const db = await getDb();
    const told = await db.select().from(notifications).where(eq(notifications.userId, customer.id));
    expect(told.map((n) => n.title)).toContain("Order Accepted");
  });

  test("reject releases the authorisation; an owner cancel refunds and returns the filament", async () => {
    const a = await placeTestOrder();
    await provider.pay(a.customer, a.jobId);
    await transitionJob({ jobId: a.jobId, by: { userId: a.owner.id }, action: "reject" });
    expect((await paymentsOf(a.jobId))[0]!.status).toBe("released");
    expect((await jobRow(a.jobId)).status).toBe("rejected");

    const b = await placeTestOrder();
    await provider.pay(b.customer, b.jobId);
    await transitionJob({ jobId: b.jobId, by: { userId: b.owner.id }, action: "accept" });
    await transitionJob({ jobId: b.jobId, by: { userId: b.owner.id }, action: "start_printing" });
    await transitionJob({ jobId: b.jobId, by: { userId: b.owner.id }, action: "cancel" });
    expect((await paymentsOf(b.jobId))[0]!.status).toBe("refunded");
    expect(await stock(b.printer.id)).toBe(1000);
  });

  test("a customer cancel before paying closes the open payment at the provider", async () => {
    const { customer, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["requires_payment"]);
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect((await jobRow(jobId)).status).toBe("cancelled");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
    expect((await (await getPaymentProvider()).getPayment(id)).state).toBe("released");
  });

  test("payout: connect an account, then one transfer per job however often it is asked", async () => {
    const { owner, customer, jobId } = await placeTestOrder();
    await provider.pay(customer, jobId);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId, by: { userId: owner.id }, action });
    }
    const missing = await errorOf(requestPayout(owner, jobId));
    expect(isAppError(missing) && missing.message).toBe("Connect a payout account first.");
    const account = await connectPayoutAccount(owner, "http://localhost:3000");
    expect(account.accountId).toMatch(/^acct_/);
    if (!account.ready) {
      // Stripe: payouts wait until the owner finishes onboarding
      const early = await errorOf(requestPayout(owner, jobId));
      expect(isAppError(early) && early.message).toBe("Finish setting up your Stripe account to receive payouts.");
      provider.finishOnboarding(account.accountId);
    }
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => requestPayout(owner, jobId)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(isAppError(r.reason) && r.reason.code).toBe("conflict");
    const db = await getDb();
    const rows = await db.select().from(payouts).where(eq(payouts.jobId, jobId));
    expect(rows.map((r) => [r.status, r.amountCents])).toEqual([["paid", 480]]);
  });
});

describe("test provider cards", () => {
  beforeEach(() => {
    delete process.env.STRIPE_SECRET_KEY;
  });
  test("declined and invalid numbers leave the order awaiting payment", async () => {
    const { customer, jobId } = await placeTestOrder();
    const declined = await errorOf(payWithTestCard(customer.id, jobId, { ...CARD, cardNumber: "4000 0000 0000 0002" }));
    expect(isAppError(declined) && declined.message).toBe("Your card was declined.");
    const invalid = await errorOf(payWithTestCard(customer.id, jobId, { ...CARD, cardNumber: "4242 4242 4242 4241" }));
    expect(isAppError(invalid) && invalid.message).toBe("Your card number is invalid.");
    expect((await jobRow(jobId)).status).toBe("submitted");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["failed", "failed"]);
    // another customer can't pay (or see) this order
    const stranger = (await createTestUser())!;
    expect(await payWithTestCard(stranger.id, jobId, CARD)).toBeNull();
  });
});

describe("races and rules", () => {
  beforeEach(() => {
    delete process.env.STRIPE_SECRET_KEY;
  });

  test("20 concurrent accepts change the job once and reserve the filament once", async () => {
    const { owner, printer, customer, jobId } = await placeTestOrder();
    await payWithTestCard(customer.id, jobId, CARD);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => transitionJob({ jobId, by: { userId: owner.id }, action: "accept" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(isAppError(r.reason) && r.reason.code).toBe("conflict");
    expect(await stock(printer.id)).toBe(960);
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["captured"]);
  });

  test("accepting with too little filament is refused and changes nothing", async () => {
    const { owner, printer, customer, jobId } = await placeTestOrder({ grams: 1000, weight: 40 });
    await payWithTestCard(customer.id, jobId, CARD);
    const db = await getDb();
    await db.update(filamentInventory).set({ grams: 30 }).where(eq(filamentInventory.printerId, printer.id));
    const refused = await errorOf(transitionJob({ jobId, by: { userId: owner.id }, action: "accept" }));
    expect(isAppError(refused) && refused.message).toBe("Not enough Red PLA in stock");
    expect((await jobRow(jobId)).status).toBe("confirmed");
    expect(await stock(printer.id)).toBe(30);
  });

  test("roles: the customer can't accept, a stranger sees nothing, shipping needs a tracking number", async () => {
    const { owner, customer, jobId } = await placeTestOrder();
    await payWithTestCard(customer.id, jobId, CARD);
    const byCustomer = await errorOf(transitionJob({ jobId, by: { userId: customer.id }, action: "accept" }));
    expect(isAppError(byCustomer) && byCustomer.code).toBe("forbidden");
    const stranger = (await createTestUser())!;
    expect(await transitionJob({ jobId, by: { userId: stranger.id }, action: "cancel" })).toBeNull();
    // the customer may still cancel a paid, unaccepted order: the hold is released
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
    const late = await errorOf(transitionJob({ jobId, by: { userId: owner.id }, action: "accept" }));
    expect(isAppError(late) && late.code).toBe("conflict");
  });

  test("the sweep cancels paid orders whose authorisation would lapse, once", async () => {
    const { customer, jobId } = await placeTestOrder();
    await payWithTestCard(customer.id, jobId, CARD);
    const fresh = await placeTestOrder();
    await payWithTestCard(fresh.customer.id, fresh.jobId, CARD);
    const db = await getDb();
    await db
      .update(payments)
      .set({ authorizationExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(payments.jobId, jobId));
    const first = await sweepExpiringAuthorizations();
    expect(first).toContain(jobId);
    expect(first).not.toContain(fresh.jobId);
    expect(await sweepExpiringAuthorizations()).not.toContain(jobId);
    expect((await jobRow(jobId)).status).toBe("cancelled");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
    expect((await jobRow(fresh.jobId)).status).toBe("confirmed");
  });
});

describe("Stripe holds the order can't use", () => {
  beforeEach(() => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
  });

  test("an intent authorised just before the customer cancelled is cancelled, and its late report changes nothing", async () => {
    const { customer, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    // the card is authorised at Stripe, but its webhook hasn't arrived when the customer cancels
    confirmIntentForTests(id);
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    await confirmProviderPayment(id);
    expect((await jobRow(jobId)).status).toBe("cancelled");
    expect((await (await getPaymentProvider()).getPayment(id)).state).toBe("released");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
  });

  test("an authorisation reported for a cancelled order is released at once", async () => {
    const { customer, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    // the order ends while Stripe still holds the intent open (its cancel there failed)
    let refused = 0;
    server.use(
      http.post(`${STRIPE_API}/v1/payment_intents/:id/cancel`, () => {
        refused += 1;
        return HttpResponse.json({ error: { type: "api_error", message: "Try again later." } }, { status: 400 });
      }),
    );
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect(refused).toBeGreaterThan(0);
    expect(logged).toHaveBeenCalled();
    server.resetHandlers();
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["requires_payment"]);
    confirmIntentForTests(id);
    await confirmProviderPayment(id);
    expect((await (await getPaymentProvider()).getPayment(id)).state).toBe("released");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
  });

  test("a release refused when the order ended is retried by the sweep", async () => {
    const { customer, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    server.use(
      http.post(`${STRIPE_API}/v1/payment_intents/:id/cancel`, () =>
        HttpResponse.json({ error: { type: "api_error", message: "Try again later." } }, { status: 400 }),
      ),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect(await releaseStrandedHolds()).not.toContain(id);
    server.resetHandlers();
    expect(await releaseStrandedHolds()).toContain(id);
    expect((await (await getPaymentProvider()).getPayment(id)).state).toBe("released");
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
    expect(await releaseStrandedHolds()).not.toContain(id);
  });

  test("holds the provider keeps refusing never hide a newer stranded hold from the sweep", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // 200 stranded holds Stripe no longer knows (every release refused), on an order that ended
    const { customer: someone, jobId: ended } = await placeTestOrder();
    await transitionJob({ jobId: ended, by: { userId: someone.id }, action: "cancel" });
    const db = await getDb();
    await db.insert(payments).values(
      Array.from({ length: 200 }, (_, i) => ({
        jobId: ended,
        provider: "stripe" as const,
        providerPaymentId: `pi_gone_${ended}_${i}`,
        amountCents: 100,
        status: "authorized" as const,
      })),
    );
    // then a newer hold whose release was refused when its order ended, and which Stripe now accepts
    const { customer, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    server.use(
      http.post(`${STRIPE_API}/v1/payment_intents/:id/cancel`, () =>
        HttpResponse.json({ error: { type: "api_error", message: "Try again later." } }, { status: 400 }),
      ),
    );
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    server.resetHandlers();
    logged.mockClear();
    expect(await releaseStrandedHolds()).toContain(id);
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["released"]);
  });

  test("a second payment authorised after the order was paid is released; the first stays held", async () => {
    const { customer, jobId } = await placeTestOrder();
    // the no-JavaScript hosted checkout in one tab, Elements in another
    const url = await startHostedCheckout(customer, jobId, "http://localhost:3000");
    const sessionId = url!.split("/").pop()!;
    await PROVIDERS.stripe.pay(customer, jobId);
    expect((await jobRow(jobId)).status).toBe("confirmed");
    const session = completeCheckoutSessionForTests(sessionId);
    const second = session.payment_intent as string;
    await confirmProviderPayment(second);
    expect((await jobRow(jobId)).status).toBe("confirmed");
    const provider = await getPaymentProvider();
    expect((await provider.getPayment(second)).state).toBe("released");
    const rows = await paymentsOf(jobId);
    expect(rows.find((p) => p.providerPaymentId === second)!.status).toBe("released");
    expect(rows.filter((p) => p.status === "authorized")).toHaveLength(1);
  });
});

describe("two payments racing for one order", () => {
  test("two cards authorised at once (hosted checkout in one tab, the card form in another): one pays, the other hold is released", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const { owner, customer, jobId } = await placeTestOrder();
    const url = await startHostedCheckout(customer, jobId, "http://localhost:3000");
    const first = await startIntent(customer, jobId);
    confirmIntentForTests(first);
    const second = completeCheckoutSessionForTests(url!.split("/").pop()!).payment_intent as string;
    expect(second).not.toBe(first);
    // both reports arrive while the order still awaits payment
    await Promise.all([confirmProviderPayment(first), confirmProviderPayment(second)]);
    expect((await jobRow(jobId)).status).toBe("confirmed");
    const provider = await getPaymentProvider();
    const states = [(await provider.getPayment(first)).state, (await provider.getPayment(second)).state].sort();
    expect(states).toEqual(["authorized", "released"]);
    const rows = await paymentsOf(jobId);
    const held = rows.filter((p) => p.status === "authorized");
    expect(held).toHaveLength(1);
    // the order's own payment is the one held, and it is the one the accept captures
    expect((await jobRow(jobId)).confirmedPaymentId).toBe(held[0]!.providerPaymentId);
    await transitionJob({ jobId, by: { userId: owner.id }, action: "accept" });
    expect((await provider.getPayment(held[0]!.providerPaymentId)).state).toBe("captured");
    // a late repeat of either report changes nothing
    await confirmProviderPayment(first);
    await confirmProviderPayment(second);
    expect((await paymentsOf(jobId)).map((p) => p.status).sort()).toEqual(["captured", "released"]);
  });
});

describe("a capture the card provider refuses", () => {
  test("undoes the accept: confirmed again, no accept time, the filament back, the hold kept", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const { owner, printer, customer, jobId } = await placeTestOrder();
    await PROVIDERS.stripe.pay(customer, jobId);
    server.use(
      http.post(`${STRIPE_API}/v1/payment_intents/:id/capture`, () =>
        HttpResponse.json(
          { error: { type: "card_error", code: "expired_card", message: "Your card has expired." } },
          { status: 402 },
        ),
      ),
    );
    const refused = await errorOf(transitionJob({ jobId, by: { userId: owner.id }, action: "accept" }));
    expect(isAppError(refused) && refused.message).toBe("Your card has expired.");
    const row = await jobRow(jobId);
    expect([row.status, row.acceptedAt]).toEqual(["confirmed", null]);
    expect(await stock(printer.id)).toBe(1000);
    expect((await paymentsOf(jobId)).map((p) => p.status)).toEqual(["authorized"]);
    server.resetHandlers();
    await transitionJob({ jobId, by: { userId: owner.id }, action: "accept" });
    expect((await jobRow(jobId)).status).toBe("accepted");
    expect(await stock(printer.id)).toBe(960);
  });
});

describe("payout account setup", () => {
  test("Stripe: an unfinished account is reused with a fresh onboarding link until it is ready", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const { owner } = await createOwnerWithPrinter();
    const asked: string[] = [];
    const count = ({ request }: { request: Request }) => {
      asked.push(`${request.method} ${new URL(request.url).pathname}`);
    };
    server.events.on("request:start", count);
    const first = await connectPayoutAccount(owner, "http://localhost:3000");
    expect(first.ready).toBe(false);
    expect(first.onboardingUrl).toContain(first.accountId);
    expect(await payoutAccountState(owner.id)).toBe("pending");
    // the owner left onboarding half-way; coming back days later continues the same account
    const again = await connectPayoutAccount(owner, "http://localhost:3000");
    expect([again.accountId, again.ready]).toEqual([first.accountId, false]);
    finishConnectOnboardingForTests(first.accountId);
    expect(await payoutAccountState(owner.id)).toBe("ready");
    const done = await connectPayoutAccount(owner, "http://localhost:3000");
    expect([done.accountId, done.ready]).toEqual([first.accountId, true]);
    server.events.removeListener("request:start", count);
    // one account ever; a new onboarding link for each unfinished visit
    expect(asked.filter((r) => r === "POST /v1/accounts")).toHaveLength(1);
    expect(asked.filter((r) => r === "POST /v1/account_links")).toHaveLength(2);
  });

  test("test provider: the instant account is ready at once", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    const { owner } = await createOwnerWithPrinter();
    expect(await payoutAccountState(owner.id)).toBe("none");
    const account = await connectPayoutAccount(owner, "http://localhost:3000");
    expect(account.ready).toBe(true);
    expect(await payoutAccountState(owner.id)).toBe("ready");
  });
});

describe("Stripe webhooks", () => {
  beforeEach(() => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_test_secret";
  });

  test("a signed event delivered twice confirms the order once; a bad signature is refused", async () => {
    const { customer, owner, jobId } = await placeTestOrder();
    const id = await startIntent(customer, jobId);
    confirmIntentForTests(id);
    const payload = JSON.stringify({
      id: `evt_${id}`,
      object: "event",
      type: "payment_intent.amount_capturable_updated",
      data: { object: { id, object: "payment_intent" } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_test_secret" });
    const [first, second] = await Promise.all([handleStripeWebhook(payload, header), handleStripeWebhook(payload, header)]);
    expect([first, second].sort()).toEqual(["duplicate", "handled"]);
    expect(await handleStripeWebhook(payload, header)).toBe("duplicate");
    expect((await jobRow(jobId)).status).toBe("confirmed");
    const db = await getDb();
    const ownerNotices = await db.select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(ownerNotices.filter((n) => n.title === "New Order Request")).toHaveLength(1);
    expect(
      await db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, `evt_${id}`)),
    ).toHaveLength(1);
    const forged = await errorOf(handleStripeWebhook(payload, "t=1,v1=bad"));
    expect(isAppError(forged) && forged.code).toBe("invalid");
  });
});
