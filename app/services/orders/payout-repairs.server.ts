// The money reconciliation's payout steps (decision 039): a payout a crash left pending is recorded,
// sent again or failed, and a payout asked for during a claim is sent once the claim is resolved and its
// refund made (decision 040). Both send through sendPayout, the one way a payout goes out.
import { and, eq, isNotNull, lte, notExists, sql } from "drizzle-orm";
import { claims, payments, payouts, printers, printJobs, refunds, users } from "../../../db/schema";
import { isAppError } from "~/domain/app-error";
import type { MoneyRepairKind } from "~/domain/payments";
import { NOT_CAPTURED } from "~/domain/payouts";
import type { PaymentProvider } from "~/services/payments/types";
import { getDb } from "~/utils/db.server";
import { CONNECT_FIRST, markPayoutFailed, markPayoutPaid, requestPayout, sendPayout } from "./payouts.server";

type Repaired = (jobId: number, kind: MoneyRepairKind, detail: string | null) => Promise<void>;
type Skipped = (step: string, jobId: number, error: unknown) => void;
const PAGE = 200;

/**
 * Pending payouts a crash cut short: recorded as paid when the provider made the transfer, sent
 * again (same idempotency key) when it didn't and the customer was charged, failed with the
 * provider's message otherwise, so the owner can ask again.
 */
export async function finishPendingPayouts(provider: PaymentProvider, before: number, repaired: Repaired, skipped: Skipped) {
  const db = await getDb();
  const pending = await db
    .select({
      ownerId: payouts.ownerId,
      job: { id: payouts.jobId, amountCents: payouts.amountCents, fileName: printJobs.fileName },
      destination: users.stripeAccountId,
      captured:
        sql<boolean>`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.jobId} = ${payouts.jobId} AND ${payments.status} = 'captured')`.mapWith(
          Boolean,
        ),
    })
    .from(payouts)
    .innerJoin(printJobs, eq(printJobs.id, payouts.jobId))
    .innerJoin(users, eq(users.id, payouts.ownerId))
    .where(
      and(
        eq(payouts.status, "pending"),
        eq(payouts.provider, provider.name),
        sql`coalesce(${payouts.claimedAt}, ${payouts.createdAt}) <= ${before}`,
      ),
    )
    .orderBy(payouts.jobId)
    .limit(PAGE);
  for (const { ownerId, job, destination, captured } of pending) {
    try {
      const made = provider.transferOf ? await provider.transferOf(job.id) : null;
      if (made) {
        if (await markPayoutPaid(ownerId, job, made.transferId)) await repaired(job.id, "payout_recorded", made.transferId);
        continue;
      }
      if (!captured || !destination) {
        const refusal = captured ? CONNECT_FIRST : NOT_CAPTURED;
        if (await markPayoutFailed(job.id, refusal)) await repaired(job.id, "payout_failed", refusal);
        continue;
      }
      try {
        const sent = await sendPayout({ ownerId, job, destination }, provider, { resume: true });
        if (sent.recorded) await repaired(job.id, "payout_sent", sent.transferId);
      } catch (error) {
        // sendPayout marked it failed with the provider's refusal
        if (!isAppError(error)) throw error;
        await repaired(job.id, "payout_failed", error.message);
      }
    } catch (error) {
      skipped("payout", job.id, error);
    }
  }
}

/**
 * Sends the payouts owners asked for while a claim was open, once the claim is resolved and no refund of
 * the order is pending (the amount left after its refund): the resolution sends its own (`jobId`), the
 * reconciliation those older than `before`. A provider that can't be reached leaves the request for the
 * next run; any other refusal ends the wait, and the order shows on /printer-tracking for the owner to ask again.
 */
export async function sendWaitingPayouts(which: { jobId: number } | { before: number }): Promise<number> {
  const db = await getDb();
  const waiting = await db
    .select({ jobId: claims.jobId, ownerId: printers.ownerId })
    .from(claims)
    .innerJoin(printJobs, eq(printJobs.id, claims.jobId))
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .where(
      and(
        eq(claims.status, "resolved"),
        isNotNull(claims.payoutRequestedAt),
        "jobId" in which ? eq(claims.jobId, which.jobId) : lte(claims.resolvedAt, new Date(which.before)),
        notExists(
          db
            .select({ one: sql`1` })
            .from(refunds)
            .where(and(eq(refunds.jobId, claims.jobId), eq(refunds.status, "pending"))),
        ),
      ),
    )
    .orderBy(claims.jobId)
    .limit(100);
  let sent = 0;
  for (const { jobId, ownerId } of waiting) {
    try {
      if (await requestPayout({ id: ownerId }, jobId)) sent++;
    } catch (error) {
      if (!isAppError(error)) throw error;
      if (error.code === "unavailable") continue;
    }
    await db
      .update(claims)
      .set({ payoutRequestedAt: null })
      .where(and(eq(claims.jobId, jobId), eq(claims.status, "resolved")));
  }
  return sent;
}
