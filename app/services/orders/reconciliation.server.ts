// The money reconciliation (decision 039), the one repair loop: a crash between an order's status write
// and its money write (or between a payout's claim, transfer and record, a refund's reservation and its
// call, a reversal's raise and its call) leaves a step half done; a payout asked for during a claim waits
// for its resolution and refund. This periodic task of the job runner
// compares each order's records with the provider's own state and finishes or undoes the step, with the
// provider's idempotency keys, logging each repair on the order.
import { and, eq, inArray, isNotNull, isNull, lte, ne, notInArray, or, sql } from "drizzle-orm";
import { payments, printJobs } from "../../../db/schema";
import { ENDED_UNCHARGED, OWNER_ACTIVE, OWNER_COMPLETED, AWAITING_PAYMENT } from "~/domain/job-status";
import type { MoneyRepairKind } from "~/domain/payments";
import { schedulePeriodic } from "~/services/jobs/enqueue.server";
import { registerTaskHandler } from "~/services/jobs/runner.server";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { movePayment } from "~/services/payments/records.server";
import type { PaymentProvider } from "~/services/payments/types";
import { getDb } from "~/utils/db.server";
import { releaseStrandedHolds } from "./authorization-sweep.server";
import { recordRepair } from "./money-repairs.server";
import {
  finishPendingRefunds,
  finishRaisedReversals,
  reserveMissingRefunds,
  reverseOwedTransfers,
} from "./refund-repairs.server";
import { releaseHold } from "./payment-holds.server";
import { finishPendingPayouts, sendWaitingPayouts } from "./payout-repairs.server";
import { transitionJob } from "./transitions.server";

/** A step younger than this may still be finishing in its own request: it is left alone. */
export const RECONCILE_GRACE_MS = 10 * 60 * 1000;
const PAGE = 200;

const CAPTURED_STATUSES = [...OWNER_ACTIVE, ...OWNER_COMPLETED];

type Repairs = Partial<Record<MoneyRepairKind, number>>;

async function repaired(repairs: Repairs, jobId: number, kind: MoneyRepairKind, detail: string | null) {
  await recordRepair(jobId, kind, detail);
  repairs[kind] = (repairs[kind] ?? 0) + 1;
}

/** A provider that can't answer now: the step stays as it is for the next run. */
function skipped(step: string, jobId: number, error: unknown) {
  console.warn(
    `money reconciliation: ${step} for job ${jobId} left for the next run`,
    error instanceof Error ? error.name : "error",
  );
}

/** Accepted orders whose payment is still only authorised: captured (or its capture at the provider recorded). */
async function captureAcceptedOrders(provider: PaymentProvider, before: number, now: number, repairs: Repairs) {
  const db = await getDb();
  const rows = await db
    .select({ jobId: printJobs.id, paymentId: payments.providerPaymentId })
    .from(printJobs)
    .innerJoin(
      payments,
      and(
        eq(payments.jobId, printJobs.id),
        eq(payments.status, "authorized"),
        or(isNull(printJobs.confirmedPaymentId), eq(printJobs.confirmedPaymentId, payments.providerPaymentId)),
      ),
    )
    .where(
      and(
        inArray(printJobs.status, CAPTURED_STATUSES),
        eq(payments.provider, provider.name),
        sql`coalesce(${printJobs.acceptedAt}, ${printJobs.updatedAt}) <= ${before}`,
      ),
    )
    .orderBy(printJobs.id)
    .limit(PAGE);
  for (const { jobId, paymentId } of rows) {
    try {
      const seen = await provider.getPayment(paymentId);
      if (seen.state === "captured") {
        if (await movePayment(paymentId, ["authorized"], "captured", { now }))
          await repaired(repairs, jobId, "capture_recorded", paymentId);
      } else if (seen.state === "authorized") {
        await provider.capture(paymentId);
        if (await movePayment(paymentId, ["authorized"], "captured", { now }))
          await repaired(repairs, jobId, "capture_sent", paymentId);
      } else if (seen.state === "released") {
        // the authorisation lapsed at the provider: nothing can be captured; the admin sees it on the order
        if (await movePayment(paymentId, ["authorized"], "released", { now }))
          await repaired(repairs, jobId, "capture_lapsed", paymentId);
      }
    } catch (error) {
      skipped("capture", jobId, error);
    }
  }
}

/**
 * Authorised holds the order never took up: the order's own claimed payment confirms it (the claim
 * was written, its status wasn't); any other hold on an order that stands is released. Holds on
 * ended orders are releaseStrandedHolds' work.
 */
async function settleUnclaimedHolds(provider: PaymentProvider, before: number, now: number, repairs: Repairs) {
  const db = await getDb();
  const claimedByOrder = eq(printJobs.confirmedPaymentId, payments.providerPaymentId);
  const rows = await db
    .select({
      jobId: payments.jobId,
      paymentId: payments.providerPaymentId,
      claimed: sql<boolean>`coalesce(${claimedByOrder}, 0)`.mapWith(Boolean),
    })
    .from(payments)
    .innerJoin(printJobs, eq(printJobs.id, payments.jobId))
    .where(
      and(
        eq(payments.status, "authorized"),
        eq(payments.provider, provider.name),
        lte(payments.authorizedAt, new Date(before)),
        notInArray(printJobs.status, [...ENDED_UNCHARGED]),
        or(
          and(eq(printJobs.status, AWAITING_PAYMENT), or(isNull(printJobs.confirmedPaymentId), claimedByOrder)),
          and(isNotNull(printJobs.confirmedPaymentId), ne(printJobs.confirmedPaymentId, payments.providerPaymentId)),
        ),
      ),
    )
    .orderBy(payments.id)
    .limit(PAGE);
  for (const { jobId, paymentId, claimed } of rows) {
    try {
      if (claimed) {
        if (await transitionJob({ jobId, by: "system", action: "pay", now }))
          await repaired(repairs, jobId, "order_confirmed", paymentId);
      } else if (await releaseHold(paymentId, now)) {
        await repaired(repairs, jobId, "hold_released", paymentId);
      }
    } catch (error) {
      skipped("hold", jobId, error);
    }
  }
}

/** One pass over every half-done money step; returns how many repairs of each kind it made. */
export async function reconcileMoney(now = Date.now()): Promise<Repairs & { waitingPayoutsSent?: number }> {
  const provider = await getPaymentProvider();
  const before = now - RECONCILE_GRACE_MS;
  const repairs: Repairs = {};
  await settleUnclaimedHolds(provider, before, now, repairs);
  await captureAcceptedOrders(provider, before, now, repairs);
  const repair = (jobId: number, kind: MoneyRepairKind, detail: string | null) => repaired(repairs, jobId, kind, detail);
  await reserveMissingRefunds(before, repair, skipped);
  await finishPendingRefunds(provider, before, now, repair, skipped);
  await reverseOwedTransfers(repair, skipped);
  await finishRaisedReversals(provider, before, repair, skipped);
  await finishPendingPayouts(provider, before, repair, skipped);
  const waitingPayoutsSent = await sendWaitingPayouts({ before });
  repairs.stranded_released = (await releaseStrandedHolds(now)).length || undefined;
  // a payout that waited for its claim is the claim's own step, not a repair: counted, not logged
  return waitingPayoutsSent > 0 ? { ...repairs, waitingPayoutsSent } : repairs;
}

export const MONEY_RECONCILIATION_TASK = "orders.money-reconciliation";
const RECONCILE_EVERY_MS = 5 * 60 * 1000;

// one row per 5-minute period: it survives restarts and runs once however many workers there are
registerTaskHandler(MONEY_RECONCILIATION_TASK, async () => reconcileMoney());
schedulePeriodic(MONEY_RECONCILIATION_TASK, RECONCILE_EVERY_MS);
