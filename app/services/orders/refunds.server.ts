// Refunds of a job's captured payment, full or partial (decision 040). A refund is reserved by one
// guarded insert that keeps the sum of the payment's refunds within what was captured (one per
// claim: refunds.claim_id is unique). A decision that promises money (a claim's outcome, a cancel of
// a captured order) reserves it in the decision's own transaction, so neither stands without the
// other. The reserved refund is then sent to the provider with the row's id as its idempotency key;
// a call that failed or a crash leaves the row pending, and the money reconciliation sends it again.
// When the owner was already paid, what the refund takes from their share is reversed from the transfer.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { payouts, printJobs, refunds } from "../../../db/schema";
import { ownerShareAfterRefunds } from "~/domain/claims";
import { AppError } from "~/domain/app-error";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { movePayment, paymentOfJob, type PaymentRow } from "~/services/payments/records.server";
import { faultPoint } from "~/utils/fault-points.server";
import { getDb, type Database } from "~/utils/db.server";
import { columnNames } from "./jobs.server";

export const NOTHING_TO_REFUND = "Nothing is left to refund on this order.";
export const OVER_REFUNDABLE = "A refund can't be more than what is left of the payment.";
export const CLAIM_ALREADY_REFUNDED = "This claim was already refunded.";

/** The database, or a transaction of it: a reservation joins the decision's own transaction. */
export type Writer = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface PendingRefund {
  id: number;
  jobId: number;
  providerPaymentId: string;
  amountCents: number;
}

/** What is still refundable on the job's captured payment, in cents (0 when it has none). */
export async function refundableCents(jobId: number): Promise<number> {
  return (await refundsOfJob(jobId)).refundableCents;
}

/** What was refunded on the job and what is still refundable, the sum read once (the order page shows both). */
export async function refundsOfJob(jobId: number): Promise<{ refundedCents: number; refundableCents: number }> {
  const [refundedCents, payment] = await Promise.all([refundedCentsOf(jobId), paymentOfJob(jobId, ["captured", "refunded"])]);
  return { refundedCents, refundableCents: payment ? Math.max(0, payment.amountCents - refundedCents) : 0 };
}

/** Every refund of the job, made or still on its way. */
export async function refundedCentsOf(jobId: number, db: Writer | null = null): Promise<number> {
  const [row] = await (db ?? (await getDb()))
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(eq(refunds.jobId, jobId));
  return row?.cents ?? 0;
}

type Reservation = { payment: PaymentRow; amountCents: number | "rest"; claimId?: number | null };

/**
 * The guarded insert of a pending refund of `amountCents`, or of all that is left ("rest"), on a captured
 * payment, when `also` holds. The amount is computed inside the insert, so two refunds at once can't
 * both fit in the same cents, and a claim has one refund at most.
 */
function reservation(input: Reservation, also: SQL = sql`1`): SQL {
  const { payment } = input;
  const taken = sql`(SELECT coalesce(sum(${refunds.amountCents}), 0) FROM ${refunds} WHERE ${refunds.providerPaymentId} = ${payment.providerPaymentId})`;
  const amount = input.amountCents === "rest" ? sql`(${payment.amountCents} - ${taken})` : sql`${Math.trunc(input.amountCents)}`;
  const columns = columnNames(
    refunds.jobId,
    refunds.claimId,
    refunds.providerPaymentId,
    refunds.provider,
    refunds.amountCents,
    refunds.status,
  );
  return sql`INSERT INTO ${refunds} (${columns})
    SELECT ${payment.jobId}, ${input.claimId ?? null}, ${payment.providerPaymentId}, ${payment.provider}, ${amount}, 'pending'
    WHERE ${amount} > 0 AND ${amount} + ${taken} <= ${payment.amountCents} AND ${also}
    ON CONFLICT (${columnNames(refunds.claimId)}) DO NOTHING
    RETURNING ${columnNames(refunds.id, refunds.amountCents)}`;
}

/** Reserves a refund as a pending row, inside the caller's transaction when it is part of a decision; null when nothing fits. */
export async function reserveRefund(db: Writer, input: Reservation): Promise<PendingRefund | null> {
  const [row] = await db.all<{ id: number; amount_cents: number }>(reservation(input));
  if (!row) return null;
  const { payment } = input;
  return { id: row.id, jobId: payment.jobId, providerPaymentId: payment.providerPaymentId, amountCents: row.amount_cents };
}

/**
 * The same reservation as one statement of a batch whose other statements make the decision: it is
 * reserved only when `also` (the decision's effect, read inside the batch's transaction) holds.
 */
export function reservationStatement(db: Database, input: Reservation, also: SQL) {
  return db.run(reservation(input, also));
}

/** Why a reservation found nothing to refund, as the AppError a decision is refused with. */
export async function refusedRefund(input: { amountCents: number | "rest"; claimId?: number | null }, db: Writer) {
  if (input.claimId != null) {
    const [found] = await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.claimId, input.claimId)).limit(1);
    if (found) return new AppError("conflict", CLAIM_ALREADY_REFUNDED);
  }
  return new AppError("conflict", input.amountCents === "rest" ? NOTHING_TO_REFUND : OVER_REFUNDABLE);
}

/**
 * Refunds the job's captured payment on its own (no decision with it): reserved, then sent. Once per
 * claim, never above what was captured minus earlier refunds, however many requests race. Returns the
 * refund's amount, or null when the order has no captured payment.
 */
export async function refundJob(input: { jobId: number; amountCents: number | "rest"; claimId?: number | null; now?: number }) {
  const payment = await paymentOfJob(input.jobId, ["captured", "refunded"]);
  if (!payment) return null;
  const db = await getDb();
  const refund = await reserveRefund(db, { ...input, payment });
  if (!refund) throw await refusedRefund(input, db);
  faultPoint("refund:after-reserve");
  await sendRefund(refund, input.now);
  return { refundId: refund.id, amountCents: refund.amountCents };
}

/**
 * After a decision reserved its refund: the job's pending refunds are sent. A provider that refuses or
 * can't be reached leaves them pending for the money reconciliation; the decision stands either way.
 */
export async function sendPendingRefunds(jobId: number, now = Date.now()): Promise<void> {
  faultPoint("refund:after-reserve");
  for (const refund of await pendingRefunds({ jobId })) {
    try {
      await sendRefund(refund, now);
    } catch (error) {
      console.warn(
        `refund ${refund.id} of job ${jobId} left for the reconciliation`,
        error instanceof Error ? error.name : "error",
      );
    }
  }
}

/** Pending refunds, oldest first: one job's, or every job's reserved before `before` with this provider. */
export async function pendingRefunds(filter: { jobId: number } | { provider: string; before: number }): Promise<PendingRefund[]> {
  const db = await getDb();
  return db
    .select({
      id: refunds.id,
      jobId: refunds.jobId,
      providerPaymentId: refunds.providerPaymentId,
      amountCents: refunds.amountCents,
    })
    .from(refunds)
    .where(
      and(
        eq(refunds.status, "pending"),
        "jobId" in filter
          ? eq(refunds.jobId, filter.jobId)
          : and(eq(refunds.provider, filter.provider as PaymentRow["provider"]), sql`${refunds.createdAt} < ${filter.before}`),
      ),
    )
    .orderBy(refunds.id)
    .limit(100);
}

/** Asks the provider for a reserved refund (again, after a failure: same key, so never twice), then takes it from the owner's payout. */
export async function sendRefund(refund: PendingRefund, now = Date.now()) {
  const provider = await getPaymentProvider();
  const { refundId } = await provider.refund({
    providerPaymentId: refund.providerPaymentId,
    amountCents: refund.amountCents,
    idempotencyKey: `refund-${refund.id}`,
  });
  faultPoint("refund:after-provider");
  const db = await getDb();
  await db
    .update(refunds)
    .set({ status: "succeeded", providerRefundId: refundId, refundedAt: new Date(now) })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
  const payment = await paymentOfJob(refund.jobId, ["captured"]);
  if (payment && (await refundedCentsOf(refund.jobId)) >= payment.amountCents) {
    await movePayment(payment.providerPaymentId, ["captured"], "refunded", { now });
  }
  await reversePayout(refund.jobId, refund.id);
}

/**
 * After a refund of a job whose owner was already paid: the transfer is reversed by what the owner's
 * share lost (their share after all refunds, less what they keep). The reversed total is raised on the
 * payout and on the refund it is for (the given one, or the job's newest) in one transaction, so the two
 * always agree and a reversal is asked for once however many refunds finish together.
 */
export async function reversePayout(jobId: number, refundId: number | null = null) {
  const db = await getDb();
  for (;;) {
    const [payout] = await db
      .select({
        paid: payouts.amountCents,
        reversed: payouts.reversedCents,
        transferId: payouts.providerTransferId,
        profit: printJobs.printerProfitCents,
      })
      .from(payouts)
      .innerJoin(printJobs, eq(printJobs.id, payouts.jobId))
      .where(and(eq(payouts.jobId, jobId), eq(payouts.status, "paid"), sql`${payouts.providerTransferId} IS NOT NULL`));
    if (!payout?.transferId) return 0;
    const keeps = Math.min(payout.paid, ownerShareAfterRefunds(payout.profit, await refundedCentsOf(jobId)));
    const more = payout.paid - keeps - payout.reversed;
    if (more <= 0) return 0;
    const raised = await moveReversal(jobId, refundId, { from: payout.reversed, by: more });
    if (!raised) continue;
    faultPoint("reversal:after-raise");
    const provider = await getPaymentProvider();
    try {
      await provider.reverseTransfer({
        transferId: payout.transferId,
        amountCents: more,
        idempotencyKey: `reversal-job-${jobId}-to-${payout.reversed + more}`,
      });
    } catch (error) {
      // given back on both rows, so the reconciliation asks again
      await moveReversal(jobId, raised.refundId, { from: payout.reversed + more, by: -more });
      throw error;
    }
    return more;
  }
}

/** Moves the payout's reversed total from `from` by `by` and the refund's share with it, in one transaction; null when it had moved. */
async function moveReversal(jobId: number, refundId: number | null, change: { from: number; by: number }) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(payouts)
      .set({ reversedCents: change.from + change.by })
      .where(and(eq(payouts.jobId, jobId), eq(payouts.reversedCents, change.from)));
    if (moved.rowsAffected !== 1) return null;
    const [target] = refundId
      ? [{ id: refundId }]
      : await tx
          .select({ id: refunds.id })
          .from(refunds)
          .where(eq(refunds.jobId, jobId))
          .orderBy(sql`${refunds.id} DESC`)
          .limit(1);
    if (target) {
      await tx
        .update(refunds)
        .set({ reversedCents: sql`max(0, ${refunds.reversedCents} + ${change.by})` })
        .where(eq(refunds.id, target.id));
    }
    return { refundId: target?.id ?? null };
  });
}
