// A decision that promises money writes the money's record in its own transaction (decision 040): a
// claim accepted or decided, and an owner's cancel of a charged order, reserve the pending refund with
// the status change or neither happens. A crash at any point, or a refund insert that fails, never
// leaves a decision saying "refunded" without its refund; the money reconciliation finishes every
// pending refund, and a payout waits while one is pending.
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { claims, filamentInventory, moneyRepairs, payments, payouts, printJobs, refunds, users } from "../../db/schema";
import { isAppError } from "../../app/domain/app-error";
import { PAYOUT_WAITS_FOR_REFUND } from "../../app/domain/payouts";
import {
  acceptClaimAnswer,
  CLAIM_NOTHING_LEFT,
  decideClaim,
  escalateClaim,
  openClaim,
  respondToClaim,
} from "../../app/services/orders/claims.server";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { sendWaitingPayouts } from "../../app/services/orders/payout-repairs.server";
import { requestPayout } from "../../app/services/orders/payouts.server";
import { reconcileMoney, RECONCILE_GRACE_MS } from "../../app/services/orders/reconciliation.server";
import { refundJob } from "../../app/services/orders/refunds.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getPaymentProvider } from "../../app/services/payments/provider.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { armFault, disarmFaults } from "../../app/utils/fault-points.server";
import { placeTestOrder } from "../setup/orders";
import { createTestUser } from "../setup/requests";

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;
WRITE_LIMITS.admin.limit = 10_000;
WRITE_LIMITS.claim.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };
/** A refund insert that fails as a full disk or an I/O error would fail it. */
const FAILING_INSERT = sql`CREATE TRIGGER refunds_fail BEFORE INSERT ON refunds BEGIN SELECT raise(ABORT, 'disk I/O error'); END`;

const repairLoop = () => reconcileMoney(Date.now() + RECONCILE_GRACE_MS + 1000);

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});
afterEach(async () => {
  disarmFaults();
  await (await getDb()).run(sql`DROP TRIGGER IF EXISTS refunds_fail`);
});

/** A paid 580-cent pickup order moved through `actions`, the owner's payout account ready. */
async function paidOrder(actions: readonly ("accept" | "start_printing" | "complete" | "ready_for_pickup" | "mark_picked_up")[]) {
  const order = await placeTestOrder();
  await payWithTestCard(order.customer.id, order.jobId, CARD);
  for (const action of actions) await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
  const db = await getDb();
  await db
    .update(users)
    .set({ stripeAccountId: `acct_test_${order.owner.id}` })
    .where(eq(users.id, order.owner.id));
  return order;
}
const pickedUp = () => paidOrder(["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"]);

/** A picked-up order with a claim the owner answered with a refund of 250 cents. */
async function answeredClaim() {
  const order = await pickedUp();
  const { claimId } = (await openClaim({
    customerId: order.customer.id,
    jobId: order.jobId,
    reason: "arrived_broken",
    description: "Snapped in two.",
    photos: [],
  }))!;
  await respondToClaim({ userId: order.owner.id, claimId, action: "refund_partial", amountCents: 250, message: "Sorry." });
  return { ...order, claimId };
}

async function state(jobId: number) {
  const db = await getDb();
  const [claim] = await db.select().from(claims).where(eq(claims.jobId, jobId));
  return {
    claim: claim ? [claim.status, claim.refundCents] : null,
    refunds: (await db.select().from(refunds).where(eq(refunds.jobId, jobId))).map((r) => [r.amountCents, r.status]),
    payment: (await db.select().from(payments).where(eq(payments.jobId, jobId))).map((p) => p.status),
  };
}
async function repairsOf(jobId: number) {
  const db = await getDb();
  return (await db.select().from(moneyRepairs).where(eq(moneyRepairs.jobId, jobId))).map((r) => r.kind);
}
/** What a call failed with, its causes included (drizzle wraps the database's error); null when it did not fail. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: unknown) => {
      const messages: string[] = [];
      for (let e = error; e; e = (e as { cause?: unknown }).cause) messages.push(String(e));
      return messages.join(" <- ");
    },
  );

describe("a claim's refund is reserved with its resolution", () => {
  test("a crash before the reservation leaves the claim answered and nothing refunded; accepting again refunds once", async () => {
    const o = await answeredClaim();
    armFault("claim:before-refund");
    expect(await failure(acceptClaimAnswer({ userId: o.customer.id, claimId: o.claimId }))).toContain("fault injected");
    expect(await state(o.jobId)).toEqual({ claim: ["answered", null], refunds: [], payment: ["captured"] });
    await acceptClaimAnswer({ userId: o.customer.id, claimId: o.claimId });
    expect(await state(o.jobId)).toEqual({ claim: ["resolved", 250], refunds: [[250, "succeeded"]], payment: ["captured"] });
  });

  test("a refund insert that fails refuses the customer's accept and the admin's decision: nothing is resolved", async () => {
    const o = await answeredClaim();
    const db = await getDb();
    await db.run(FAILING_INSERT);
    expect(await failure(acceptClaimAnswer({ userId: o.customer.id, claimId: o.claimId }))).toContain("disk I/O error");
    expect(await state(o.jobId)).toEqual({ claim: ["answered", null], refunds: [], payment: ["captured"] });

    await escalateClaim({ userId: o.customer.id, claimId: o.claimId });
    const admin = (await createTestUser({ isAdmin: true }))!;
    const decided = decideClaim({ adminId: admin.id, claimId: o.claimId, refundCents: 300, note: "Refunding part." });
    expect(await failure(decided)).toContain("disk I/O error");
    expect((await state(o.jobId)).claim).toEqual(["escalated", null]);

    await db.run(sql`DROP TRIGGER refunds_fail`);
    await decideClaim({ adminId: admin.id, claimId: o.claimId, refundCents: 300, note: "Refunding part." });
    expect(await state(o.jobId)).toEqual({ claim: ["resolved", 300], refunds: [[300, "succeeded"]], payment: ["captured"] });
  });

  test("a crash after the reservation: the refund stays pending, the payout waits for it, the reconciliation makes it once", async () => {
    const o = await answeredClaim();
    // asked for during the claim: sent once the claim is resolved and its refund made
    expect(await requestPayout(o.owner, o.jobId)).toMatchObject({ waiting: true });
    armFault("refund:after-reserve");
    expect(await failure(acceptClaimAnswer({ userId: o.customer.id, claimId: o.claimId }))).toContain("fault injected");
    expect(await state(o.jobId)).toEqual({ claim: ["resolved", 250], refunds: [[250, "pending"]], payment: ["captured"] });

    const held = await requestPayout(o.owner, o.jobId).catch((e: unknown) => e);
    expect(isAppError(held) && held.message).toBe(PAYOUT_WAITS_FOR_REFUND);
    expect(await sendWaitingPayouts({ jobId: o.jobId })).toBe(0);
    const db = await getDb();
    expect(await db.select().from(payouts).where(eq(payouts.jobId, o.jobId))).toEqual([]);

    // the one repair loop makes the refund, then sends the payout that waited for it (a step, not a repair)
    const repaired = await repairLoop();
    expect([repaired.refund_sent, repaired.waitingPayoutsSent]).toEqual([1, 1]);
    expect(await state(o.jobId)).toEqual({ claim: ["resolved", 250], refunds: [[250, "succeeded"]], payment: ["captured"] });
    expect(await repairsOf(o.jobId)).toEqual(["refund_sent"]);
    const again = await repairLoop();
    expect([again.refund_sent, again.waitingPayoutsSent]).toEqual([undefined, undefined]);
    // the owner's share after the refund: 480 - 250
    const [payout] = await db.select().from(payouts).where(eq(payouts.jobId, o.jobId));
    expect([payout!.status, payout!.amountCents]).toEqual(["paid", 230]);
  });

  test("a claim needs something left to refund", async () => {
    const o = await pickedUp();
    await refundJob({ jobId: o.jobId, amountCents: "rest" });
    const refused = await openClaim({
      customerId: o.customer.id,
      jobId: o.jobId,
      reason: "arrived_broken",
      description: "Snapped.",
      photos: [],
    }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.message).toBe(CLAIM_NOTHING_LEFT);
    expect((await state(o.jobId)).claim).toBeNull();
  });
});

describe("an owner's cancel of a charged order reserves its refund with the status", () => {
  async function stock(printerId: number) {
    const db = await getDb();
    const [row] = await db.select().from(filamentInventory).where(eq(filamentInventory.printerId, printerId));
    return row!.grams;
  }
  async function status(jobId: number) {
    const db = await getDb();
    return (await db.select({ status: printJobs.status }).from(printJobs).where(eq(printJobs.id, jobId)))[0]!.status;
  }

  test("a refund insert that fails refuses the cancel: the order stays accepted with its filament reserved", async () => {
    const o = await paidOrder(["accept"]);
    const reserved = await stock(o.printer.id);
    await (await getDb()).run(FAILING_INSERT);
    const cancel = transitionJob({ jobId: o.jobId, by: { userId: o.owner.id }, action: "cancel" });
    expect(await failure(cancel)).toContain("disk I/O error");
    expect(await status(o.jobId)).toBe("accepted");
    expect(await stock(o.printer.id)).toBe(reserved);
    expect(await state(o.jobId)).toMatchObject({ refunds: [], payment: ["captured"] });
  });

  test("a crash after the cancel: its refund is pending, and the reconciliation makes it once", async () => {
    const o = await paidOrder(["accept", "start_printing"]);
    armFault("refund:after-reserve");
    expect(await failure(transitionJob({ jobId: o.jobId, by: { userId: o.owner.id }, action: "cancel" }))).toContain(
      "fault injected",
    );
    expect(await status(o.jobId)).toBe("cancelled");
    expect(await state(o.jobId)).toMatchObject({ refunds: [[580, "pending"]], payment: ["captured"] });
    expect((await repairLoop()).refund_sent).toBe(1);
    expect(await state(o.jobId)).toMatchObject({ refunds: [[580, "succeeded"]], payment: ["refunded"] });
    const provider = await getPaymentProvider();
    const [payment] = await (await getDb()).select().from(payments).where(eq(payments.jobId, o.jobId));
    expect((await provider.getPayment(payment!.providerPaymentId)).state).toBe("refunded");
  });
});

describe("decisions written before their refund shared a transaction", () => {
  test("a resolved claim and a cancelled order left without their refund are refunded by the reconciliation, with repair records", async () => {
    const claimed = await pickedUp();
    const cancelled = await paidOrder(["accept"]);
    const db = await getDb();
    // what an older build could leave after a crash between the decision and the refund's insert
    const [claim] = await db
      .insert(claims)
      .values({
        jobId: claimed.jobId,
        customerId: claimed.customer.id,
        reason: "arrived_broken",
        description: "Snapped.",
        photoKeys: [],
        status: "resolved",
        refundCents: 139,
        resolvedAt: new Date(),
      })
      .returning();
    await db.update(printJobs).set({ status: "cancelled", cancelledAt: new Date() }).where(eq(printJobs.id, cancelled.jobId));

    const repairs = await repairLoop();
    expect([repairs.refund_reserved, repairs.refund_sent]).toEqual([2, 2]);
    expect(await state(claimed.jobId)).toMatchObject({ refunds: [[139, "succeeded"]] });
    expect(await state(cancelled.jobId)).toMatchObject({ refunds: [[580, "succeeded"]], payment: ["refunded"] });
    expect(await repairsOf(claimed.jobId)).toEqual(["refund_reserved", "refund_sent"]);
    const [row] = await db.select().from(refunds).where(eq(refunds.jobId, claimed.jobId));
    expect(row!.claimId).toBe(claim!.id);
    const again = await repairLoop();
    expect([again.refund_reserved, again.refund_sent]).toEqual([undefined, undefined]);
  });
});
