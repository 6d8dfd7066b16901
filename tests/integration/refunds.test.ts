// Refunds of captured payments on both providers (one contract): partial and full, capped by what is
// left, once under concurrent requests, and a transfer reversal when the owner was already paid.
import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import { payments, payouts, refunds } from "../../db/schema";
import { isAppError } from "../../app/domain/app-error";
import { confirmProviderPayment, payWithTestCard, startCardPayment } from "../../app/services/orders/payment-flows.server";
import { connectPayoutAccount, requestPayout } from "../../app/services/orders/payouts.server";
import { refundableCents, refundJob } from "../../app/services/orders/refunds.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getPaymentProvider } from "../../app/services/payments/provider.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { armFault, disarmFaults } from "../../app/utils/fault-points.server";
import { reconcileMoney, RECONCILE_GRACE_MS } from "../../app/services/orders/reconciliation.server";
import { confirmIntentForTests, finishConnectOnboardingForTests, STRIPE_API } from "../mocks/stripe";
import { server } from "../setup/msw";
import { placeTestOrder } from "../setup/orders";

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;
WRITE_LIMITS.order.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };

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
      const id = (await startCardPayment(customer, jobId))!.clientSecret.split("_secret_")[0]!;
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

/** One run of the money reconciliation, past the grace a step in flight gets. */
const repairLoop = () => reconcileMoney(Date.now() + RECONCILE_GRACE_MS + 1000);

async function refundRows(jobId: number) {
  const db = await getDb();
  return db.select().from(refunds).where(eq(refunds.jobId, jobId));
}
async function paymentOf(jobId: number) {
  const db = await getDb();
  return (await db.select().from(payments).where(eq(payments.jobId, jobId)))[0]!;
}

describe.each(Object.entries(PROVIDERS))("refunds: %s", (_name, provider) => {
  beforeEach(() => {
    if (provider.key) process.env.STRIPE_SECRET_KEY = provider.key;
    else delete process.env.STRIPE_SECRET_KEY;
  });

  /** A paid (captured) pickup order of 580 cents, picked up. */
  async function pickedUpOrder() {
    const order = await placeTestOrder();
    await provider.pay(order.customer, order.jobId);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
    }
    return order;
  }

  test("a partial refund, then the rest: never above what was captured, the payment refunded at the end", async () => {
    const { jobId } = await pickedUpOrder();
    expect(await refundableCents(jobId)).toBe(580);
    expect(await refundJob({ jobId, amountCents: 200 })).toMatchObject({ amountCents: 200 });
    expect((await paymentOf(jobId)).status).toBe("captured");
    const over = await refundJob({ jobId, amountCents: 381 }).catch((e: unknown) => e);
    expect(isAppError(over) && over.code).toBe("conflict");
    expect(await refundJob({ jobId, amountCents: "rest" })).toMatchObject({ amountCents: 380 });
    expect((await refundRows(jobId)).map((r) => [r.amountCents, r.status])).toEqual([
      [200, "succeeded"],
      [380, "succeeded"],
    ]);
    expect((await paymentOf(jobId)).status).toBe("refunded");
    expect((await (await getPaymentProvider()).getPayment((await paymentOf(jobId)).providerPaymentId)).state).toBe("refunded");
  });

  test("20 concurrent refunds of 300 cents on 580 captured: one is made", async () => {
    const { jobId } = await pickedUpOrder();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => refundJob({ jobId, amountCents: 300 })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await refundRows(jobId)).map((r) => r.amountCents)).toEqual([300]);
    expect(await refundableCents(jobId)).toBe(280);
  });

  test("the owner's payout is the remainder; a refund after the payout reverses the transfer by what the owner's share lost", async () => {
    const { owner, jobId } = await pickedUpOrder();
    await refundJob({ jobId, amountCents: 100 });
    const account = await connectPayoutAccount(owner, "http://localhost:3000");
    if (!account.ready) provider.finishOnboarding(account.accountId);
    expect(await requestPayout(owner, jobId)).toMatchObject({ amountCents: 380 });
    await refundJob({ jobId, amountCents: "rest" });
    const db = await getDb();
    const [payout] = await db.select().from(payouts).where(eq(payouts.jobId, jobId));
    expect([payout!.amountCents, payout!.reversedCents]).toEqual([380, 380]);
    expect((await refundRows(jobId)).map((r) => r.reversedCents)).toEqual([0, 380]);
  });
});

describe("a refund the provider refused", () => {
  beforeEach(() => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
  });

  test("stays pending and the money reconciliation sends it again with the same key: refunded once", async () => {
    const order = await placeTestOrder();
    await PROVIDERS.stripe.pay(order.customer, order.jobId);
    await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action: "accept" });
    server.use(
      http.post(`${STRIPE_API}/v1/refunds`, () =>
        HttpResponse.json({ error: { type: "api_error", message: "An unknown error occurred" } }, { status: 500 }),
      ),
    );
    const refused = await refundJob({ jobId: order.jobId, amountCents: 250 }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("unavailable");
    expect((await refundRows(order.jobId)).map((r) => [r.amountCents, r.status])).toEqual([[250, "pending"]]);
    // the pending refund still counts against what is left
    expect(await refundableCents(order.jobId)).toBe(330);
    server.resetHandlers();
    expect((await repairLoop()).refund_sent ?? 0).toBe(1);
    expect((await refundRows(order.jobId)).map((r) => [r.amountCents, r.status])).toEqual([[250, "succeeded"]]);
    expect((await repairLoop()).refund_sent ?? 0).toBe(0);
  });
});

describe("a refund a crash cut short", () => {
  beforeEach(() => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
  });
  afterEach(() => disarmFaults());

  /** What Stripe itself refunded of the order's charge. */
  async function refundedAtStripe(jobId: number) {
    const intent = await fetch(`${STRIPE_API}/v1/payment_intents/${(await paymentOf(jobId)).providerPaymentId}`);
    return ((await intent.json()) as { latest_charge: { amount_refunded: number } }).latest_charge.amount_refunded;
  }

  test.each([
    ["refund:after-reserve", 0],
    ["refund:after-provider", 250],
  ])("at %s: the reconciliation finishes it with the same key, refunded once", async (point, refundedBeforeSweep) => {
    const order = await placeTestOrder();
    await PROVIDERS.stripe.pay(order.customer, order.jobId);
    await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action: "accept" });
    armFault(point);
    await expect(refundJob({ jobId: order.jobId, amountCents: 250 })).rejects.toThrow(`fault injected at ${point}`);
    expect((await refundRows(order.jobId)).map((r) => [r.amountCents, r.status])).toEqual([[250, "pending"]]);
    expect(await refundedAtStripe(order.jobId)).toBe(refundedBeforeSweep);
    expect((await repairLoop()).refund_sent ?? 0).toBe(1);
    expect((await refundRows(order.jobId)).map((r) => [r.amountCents, r.status])).toEqual([[250, "succeeded"]]);
    expect(await refundedAtStripe(order.jobId)).toBe(250);
    expect((await repairLoop()).refund_sent ?? 0).toBe(0);
    expect(await refundedAtStripe(order.jobId)).toBe(250);
  });

  test("at reversal:after-raise: the reconciliation reverses the owner's transfer once", async () => {
    const order = await placeTestOrder();
    await PROVIDERS.stripe.pay(order.customer, order.jobId);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
    }
    const account = await connectPayoutAccount(order.owner, "http://localhost:3000");
    if (!account.ready) PROVIDERS.stripe.finishOnboarding(account.accountId);
    const payout = (await requestPayout(order.owner, order.jobId))!;
    const transferId = "transferId" in payout ? payout.transferId : "";
    const reversedAtStripe = async () =>
      ((await (await fetch(`${STRIPE_API}/v1/transfers/${transferId}`)).json()) as { amount_reversed: number }).amount_reversed;
    armFault("reversal:after-raise");
    await expect(refundJob({ jobId: order.jobId, amountCents: "rest" })).rejects.toThrow(
      "fault injected at reversal:after-raise",
    );
    const db = await getDb();
    const payoutRow = async () => (await db.select().from(payouts).where(eq(payouts.jobId, order.jobId)))[0]!;
    const paid = (await payoutRow()).amountCents;
    expect((await payoutRow()).reversedCents).toBe(paid);
    // the refund the reversal is for says so too, before the reconciliation as after it
    expect((await refundRows(order.jobId)).map((r) => r.reversedCents)).toEqual([paid]);
    expect(await reversedAtStripe()).toBe(0);
    await repairLoop();
    expect(await reversedAtStripe()).toBe(paid);
    await repairLoop();
    expect(await reversedAtStripe()).toBe(paid);
    expect((await payoutRow()).reversedCents).toBe(paid);
    expect((await refundRows(order.jobId)).map((r) => r.reversedCents)).toEqual([paid]);
  });
});
