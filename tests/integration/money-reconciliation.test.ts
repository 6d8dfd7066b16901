// The money reconciliation: a crash (an armed fault point) between each pair of money writes leaves a
// step half done; the next run of the periodic task finishes or undoes it once, on both providers.
import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import { moneyRepairs, payments, payouts } from "../../db/schema";
import { isAppError } from "../../app/domain/app-error";
import { NOT_CAPTURED } from "../../app/domain/payouts";
import { confirmProviderPayment, payWithTestCard, startCardPayment } from "../../app/services/orders/payment-flows.server";
import { connectPayoutAccount, requestPayout } from "../../app/services/orders/payouts.server";
import { MONEY_RECONCILIATION_TASK, RECONCILE_GRACE_MS } from "../../app/services/orders/reconciliation.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { enqueuePeriodicTasks } from "../../app/services/jobs/enqueue.server";
import { runDueTasks } from "../../app/services/jobs/runner.server";
import { testProviderLedger } from "../../app/services/payments/test-provider.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { armFault, disarmFaults } from "../../app/utils/fault-points.server";
import { confirmIntentForTests, finishConnectOnboardingForTests, STRIPE_API } from "../mocks/stripe";
import { atTime } from "../setup/clock";
import { jobRow } from "../setup/jobs";
import { server } from "../setup/msw";
import { placeTestOrder } from "../setup/orders";
import { args, createTestUser, getRequest, run, sessionCookieFor } from "../setup/requests";
import * as adminOrder from "../../app/routes/admin.orders.$id";

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };
type Customer = { id: number; email: string };

/** What each provider saw: Stripe's requests counted as msw receives them, the test provider's own ledger. */
const stripeCalls = { capture: 0, cancel: 0, transfer: 0 };
server.events.on("request:start", ({ request }) => {
  const url = new URL(request.url);
  if (url.origin !== STRIPE_API || request.method !== "POST") return;
  if (/\/v1\/payment_intents\/[^/]+\/capture$/.test(url.pathname)) stripeCalls.capture += 1;
  if (/\/v1\/payment_intents\/[^/]+\/cancel$/.test(url.pathname)) stripeCalls.cancel += 1;
  if (url.pathname === "/v1/transfers") stripeCalls.transfer += 1;
});

const PROVIDERS = {
  test: {
    key: "",
    async pay(customer: Customer, jobId: number) {
      await payWithTestCard(customer.id, jobId, CARD);
    },
    finishOnboarding(_accountId: string) {},
    seen: () => ({
      capture: testProviderLedger.captures.length,
      cancel: testProviderLedger.releases.length,
      transfer: testProviderLedger.transferRequests,
    }),
  },
  stripe: {
    key: "sk_test_mock",
    async pay(customer: Customer, jobId: number) {
      const started = await startCardPayment(customer, jobId);
      const id = started!.clientSecret.split("_secret_")[0]!;
      confirmIntentForTests(id);
      await confirmProviderPayment(id);
    },
    finishOnboarding(accountId: string) {
      finishConnectOnboardingForTests(accountId);
    },
    seen: () => ({ ...stripeCalls }),
  },
} as const;

let clock = Date.now();
/** One run of the periodic task, in a later period and past the grace a step in flight gets. */
async function runReconciliation() {
  clock += RECONCILE_GRACE_MS + 5 * 60 * 1000;
  return atTime(clock, async () => {
    await enqueuePeriodicTasks();
    return runDueTasks({ types: [MONEY_RECONCILIATION_TASK] });
  });
}

const crash = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("the armed fault did not fire");
    },
    (error: unknown) => expect(String(error)).toContain("fault injected"),
  );

async function paymentStatuses(jobId: number) {
  const db = await getDb();
  return (await db.select().from(payments).where(eq(payments.jobId, jobId))).map((p) => p.status);
}
async function payoutOf(jobId: number) {
  const db = await getDb();
  const [row] = await db.select().from(payouts).where(eq(payouts.jobId, jobId));
  return row;
}
async function repairsOf(jobId: number) {
  const db = await getDb();
  return (await db.select().from(moneyRepairs).where(eq(moneyRepairs.jobId, jobId))).map((r) => r.kind);
}

afterEach(() => disarmFaults());
afterAll(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe.each(Object.entries(PROVIDERS))("a crash between two money writes is repaired once: %s", (_name, provider) => {
  beforeEach(() => {
    if (provider.key) process.env.STRIPE_SECRET_KEY = provider.key;
    else delete process.env.STRIPE_SECRET_KEY;
  });

  /** An order picked up, its payment captured, the owner's payout account ready. */
  async function deliveredOrder() {
    const placed = await placeTestOrder();
    await provider.pay(placed.customer, placed.jobId);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId: placed.jobId, by: { userId: placed.owner.id }, action });
    }
    const account = await connectPayoutAccount(placed.owner, "http://localhost:3000");
    if (!account.ready) provider.finishOnboarding(account.accountId);
    return placed;
  }

  test.each(["payout:after-claim", "payout:after-transfer"])("payout claim → transfer → record, crashed at %s", async (point) => {
    const { owner, jobId } = await deliveredOrder();
    const before = provider.seen().transfer;
    armFault(point);
    await crash(requestPayout(owner, jobId));
    expect((await payoutOf(jobId))!.status).toBe("pending");
    // the owner asking again is told it is on its way, not sent twice
    const again = await requestPayout(owner, jobId).catch((e: unknown) => e);
    expect(isAppError(again) && again.code).toBe("conflict");

    expect(await runReconciliation()).toEqual(["done"]);
    const paid = await payoutOf(jobId);
    expect([paid!.status, paid!.providerTransferId]).toEqual(["paid", expect.stringMatching(/^tr_/)]);
    expect(provider.seen().transfer - before).toBe(1);
    expect(await repairsOf(jobId)).toEqual([point === "payout:after-claim" ? "payout_sent" : "payout_recorded"]);

    expect(await runReconciliation()).toEqual(["done"]);
    expect(provider.seen().transfer - before).toBe(1);
    expect(await repairsOf(jobId)).toHaveLength(1);
  });

  test.each(["accept:after-status", "accept:after-capture"])("accept status → capture → record, crashed at %s", async (point) => {
    const { owner, customer, jobId } = await placeTestOrder();
    await provider.pay(customer, jobId);
    const before = provider.seen().capture;
    armFault(point);
    await crash(transitionJob({ jobId, by: { userId: owner.id }, action: "accept" }));
    expect((await jobRow(jobId)).status).toBe("accepted");
    expect(await paymentStatuses(jobId)).toEqual(["authorized"]);

    // a step still in flight is left alone
    expect(await atTime(Date.now(), () => runDueTasks({ types: [MONEY_RECONCILIATION_TASK] }))).toEqual([]);
    expect(await runReconciliation()).toEqual(["done"]);
    expect(await paymentStatuses(jobId)).toEqual(["captured"]);
    expect(provider.seen().capture - before).toBe(1);
    expect(await repairsOf(jobId)).toEqual([point === "accept:after-status" ? "capture_sent" : "capture_recorded"]);

    await runReconciliation();
    expect(provider.seen().capture - before).toBe(1);
    expect(await repairsOf(jobId)).toHaveLength(1);
  });

  test("authorise → claimed by the order, crashed between: the hold no order claims is released", async () => {
    const { customer, jobId } = await placeTestOrder();
    const before = provider.seen().cancel;
    armFault("pay:after-authorize");
    await crash(provider.pay(customer, jobId));
    expect((await jobRow(jobId)).status).toBe("submitted");
    expect(await paymentStatuses(jobId)).toEqual(["authorized"]);

    await runReconciliation();
    expect(await paymentStatuses(jobId)).toEqual(["released"]);
    expect(provider.seen().cancel - before).toBe(1);
    expect(await repairsOf(jobId)).toEqual(["hold_released"]);
    await runReconciliation();
    expect(provider.seen().cancel - before).toBe(1);
    // the customer can still pay
    await provider.pay(customer, jobId);
    expect((await jobRow(jobId)).status).toBe("confirmed");
  });

  test("claimed by the order → confirmed, crashed between: the order is confirmed by its own payment", async () => {
    const { customer, jobId } = await placeTestOrder();
    const before = provider.seen().cancel;
    armFault("pay:after-claim");
    await crash(provider.pay(customer, jobId));
    expect([(await jobRow(jobId)).status, await paymentStatuses(jobId)]).toEqual(["submitted", ["authorized"]]);

    await runReconciliation();
    expect((await jobRow(jobId)).status).toBe("confirmed");
    expect(await paymentStatuses(jobId)).toEqual(["authorized"]);
    expect(await repairsOf(jobId)).toEqual(["order_confirmed"]);
    await runReconciliation();
    expect(await repairsOf(jobId)).toHaveLength(1);
    expect(provider.seen().cancel - before).toBe(0);
  });

  test("cancel status → release, crashed between: the hold is released", async () => {
    const { owner, customer, jobId } = await placeTestOrder();
    await provider.pay(customer, jobId);
    const before = provider.seen().cancel;
    armFault("cancel:after-status");
    await crash(transitionJob({ jobId, by: { userId: owner.id }, action: "reject" }));
    expect([(await jobRow(jobId)).status, await paymentStatuses(jobId)]).toEqual(["rejected", ["authorized"]]);

    await runReconciliation();
    expect(await paymentStatuses(jobId)).toEqual(["released"]);
    expect(provider.seen().cancel - before).toBe(1);
    expect(await repairsOf(jobId)).toEqual(["stranded_released"]);
    await runReconciliation();
    expect(provider.seen().cancel - before).toBe(1);
  });

  test("a payout requires a captured charge: refused when asked, and a pending one is failed with why", async () => {
    const { owner, jobId } = await deliveredOrder();
    const db = await getDb();
    // the charge isn't captured (as a crash between an accept and its capture would leave it)
    await db.update(payments).set({ status: "authorized" }).where(eq(payments.jobId, jobId));
    const refused = await requestPayout(owner, jobId).catch((e: unknown) => e);
    expect(isAppError(refused) && [refused.code, refused.message]).toEqual(["conflict", NOT_CAPTURED]);
    expect(await payoutOf(jobId)).toBeUndefined();

    await db.insert(payouts).values({ jobId, ownerId: owner.id, amountCents: 480, provider: provider.key ? "stripe" : "test" });
    await db.update(payments).set({ status: "released" }).where(eq(payments.jobId, jobId));
    const before = provider.seen().transfer;
    await runReconciliation();
    const failed = await payoutOf(jobId);
    expect([failed!.status, failed!.failureMessage]).toEqual(["failed", NOT_CAPTURED]);
    expect(provider.seen().transfer - before).toBe(0);
    expect(await repairsOf(jobId)).toEqual(["payout_failed"]);
  });
});

describe("a transfer the provider refuses on a retry", () => {
  test("Stripe: the payout is failed with Stripe's message, and the owner's next request sends it", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const { owner, customer, jobId } = await placeTestOrder();
    await PROVIDERS.stripe.pay(customer, jobId);
    for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
      await transitionJob({ jobId, by: { userId: owner.id }, action });
    }
    const account = await connectPayoutAccount(owner, "http://localhost:3000");
    finishConnectOnboardingForTests(account.accountId);
    armFault("payout:after-claim");
    await crash(requestPayout(owner, jobId));
    server.use(
      http.post(`${STRIPE_API}/v1/transfers`, () =>
        HttpResponse.json(
          {
            error: {
              type: "invalid_request_error",
              code: "balance_insufficient",
              message: "Insufficient funds in Stripe account.",
            },
          },
          { status: 400 },
        ),
      ),
    );
    await runReconciliation();
    const failed = await payoutOf(jobId);
    expect([failed!.status, failed!.failureMessage]).toEqual(["failed", "Insufficient funds in Stripe account."]);
    expect(await repairsOf(jobId)).toEqual(["payout_failed"]);
    server.resetHandlers();
    expect(await requestPayout(owner, jobId)).toMatchObject({ jobId, transferId: expect.stringMatching(/^tr_/) });
    expect((await payoutOf(jobId))!.status).toBe("paid");
  });
});

describe("the admin order page", () => {
  test("lists the repairs made on the order", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    const { owner, customer, jobId } = await placeTestOrder();
    await PROVIDERS.test.pay(customer, jobId);
    armFault("accept:after-status");
    await crash(transitionJob({ jobId, by: { userId: owner.id }, action: "accept" }));
    const admin = (await createTestUser({ isAdmin: true }))!;
    const cookie = await sessionCookieFor(admin.id);
    const read = async () =>
      (await (
        await run(() => adminOrder.loader(args(getRequest(`/admin/orders/${jobId}`, cookie), { id: String(jobId) }) as never))
      ).json()) as {
        repairs: { kind: string; detail: string | null }[];
      };
    expect((await read()).repairs).toEqual([]);
    await runReconciliation();
    const [payment] = await getDb().then((db) => db.select().from(payments).where(eq(payments.jobId, jobId)));
    expect((await read()).repairs).toMatchObject([{ kind: "capture_sent", detail: payment!.providerPaymentId }]);
  });
});
