// The money reconciliation's refund steps (decision 039): refunds a decision promised but a crash or a
// refused call left unmade are made, with the keys the cut-short calls used, so none is made twice;
// transfers still owing a reversal are reversed. Each repair is logged on its order.
import { and, eq, isNull, sql } from "drizzle-orm";
import { claims, payments, payouts, printJobs, refunds } from "../../../db/schema";
import type { MoneyRepairKind } from "~/domain/payments";
import type { PaymentProvider } from "~/services/payments/types";
import { getDb } from "~/utils/db.server";
import { pendingRefunds, reserveRefund, reversePayout, sendRefund } from "./refunds.server";

type Repaired = (jobId: number, kind: MoneyRepairKind, detail: string | null) => Promise<void>;
type Skipped = (step: string, jobId: number, error: unknown) => void;
const PAGE = 100;

/**
 * Decisions that promised a refund without its row (written before a decision and its refund shared a
 * transaction): a resolved claim's refund, and the rest of a cancelled order's captured payment.
 */
export async function reserveMissingRefunds(before: number, repaired: Repaired, skipped: Skipped) {
  const db = await getDb();
  const claimsWithout = await db
    .select({ claimId: claims.id, cents: claims.refundCents, payment: payments })
    .from(claims)
    .innerJoin(payments, and(eq(payments.jobId, claims.jobId), sql`${payments.status} IN ('captured', 'refunded')`))
    .leftJoin(refunds, eq(refunds.claimId, claims.id))
    .where(
      and(
        eq(claims.status, "resolved"),
        sql`${claims.refundCents} > 0`,
        isNull(refunds.id),
        sql`${claims.resolvedAt} <= ${before}`,
      ),
    )
    .limit(PAGE);
  for (const row of claimsWithout) {
    try {
      const refund = await reserveRefund(db, { payment: row.payment, amountCents: row.cents ?? 0, claimId: row.claimId });
      if (refund) await repaired(refund.jobId, "refund_reserved", `claim ${row.claimId}`);
    } catch (error) {
      skipped("claim refund", row.payment.jobId, error);
    }
  }
  const cancelledCharged = await db
    .select({ payment: payments })
    .from(printJobs)
    .innerJoin(payments, and(eq(payments.jobId, printJobs.id), eq(payments.status, "captured")))
    .where(and(eq(printJobs.status, "cancelled"), sql`${printJobs.cancelledAt} <= ${before}`))
    .limit(PAGE);
  for (const { payment } of cancelledCharged) {
    try {
      const refund = await reserveRefund(db, { payment, amountCents: "rest" });
      if (refund) await repaired(refund.jobId, "refund_reserved", "cancelled order");
    } catch (error) {
      skipped("cancel refund", payment.jobId, error);
    }
  }
}

/** Pending refunds older than `before`: sent again with their own key, so a refund the provider made is not made twice. */
export async function finishPendingRefunds(
  provider: PaymentProvider,
  before: number,
  now: number,
  repaired: Repaired,
  skipped: Skipped,
) {
  for (const refund of await pendingRefunds({ provider: provider.name, before })) {
    try {
      await sendRefund(refund, now);
      await repaired(refund.jobId, "refund_sent", `refund ${refund.id}`);
    } catch (error) {
      skipped("refund", refund.jobId, error);
    }
  }
}

/** Paid-out orders whose transfer still owes what later refunds took from the owner's share. */
export async function reverseOwedTransfers(repaired: Repaired, skipped: Skipped) {
  const db = await getDb();
  const owing = await db
    .select({ jobId: payouts.jobId })
    .from(payouts)
    .innerJoin(printJobs, eq(printJobs.id, payouts.jobId))
    .where(
      and(
        eq(payouts.status, "paid"),
        sql`${payouts.amountCents} - ${payouts.reversedCents} >
          max(0, ${printJobs.printerProfitCents} - (SELECT coalesce(sum(${refunds.amountCents}), 0) FROM ${refunds} WHERE ${refunds.jobId} = ${payouts.jobId}))`,
      ),
    )
    .limit(PAGE);
  for (const { jobId } of owing) {
    try {
      const more = await reversePayout(jobId);
      if (more > 0) await repaired(jobId, "reversal_sent", `${more} cents`);
    } catch (error) {
      skipped("reversal", jobId, error);
    }
  }
}

/**
 * Reversals counted on our side but never made at the provider (a crash between the raise and the call):
 * asked for again under the key the cut-short call used, so one made after all is not made twice. Jobs
 * with a refund after `before` are left to the request still finishing it.
 */
export async function finishRaisedReversals(provider: PaymentProvider, before: number, repaired: Repaired, skipped: Skipped) {
  if (!provider.reversedCentsOf) return;
  const db = await getDb();
  const raised = await db
    .select({ jobId: payouts.jobId, reversed: payouts.reversedCents, transferId: payouts.providerTransferId })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, "paid"),
        sql`${payouts.reversedCents} > 0`,
        eq(payouts.provider, provider.name),
        sql`${payouts.providerTransferId} IS NOT NULL`,
        sql`NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.jobId} = ${payouts.jobId}
              AND coalesce(${refunds.refundedAt}, ${refunds.createdAt}) > ${before})`,
      ),
    )
    .orderBy(payouts.jobId)
    .limit(PAGE);
  for (const row of raised) {
    const transferId = row.transferId!;
    try {
      const made = await provider.reversedCentsOf(transferId);
      if (made >= row.reversed) continue;
      await provider.reverseTransfer({
        transferId,
        amountCents: row.reversed - made,
        idempotencyKey: `reversal-job-${row.jobId}-to-${row.reversed}`,
      });
      await repaired(row.jobId, "reversal_sent", `${row.reversed - made} cents`);
    } catch (error) {
      skipped("reversal", row.jobId, error);
    }
  }
}
