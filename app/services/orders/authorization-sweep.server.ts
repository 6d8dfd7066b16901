// Card authorisations lapse after 7 days. A paid order the printer hasn't answered a day before
// that is cancelled and its authorisation released, through the lifecycle like any other change.
// A release the provider refused when an order ended is tried again by the money reconciliation
// (reconciliation.server.ts). The sweep keeps no state of its own and runs as a periodic task of the job runner.
import { and, eq, gt, inArray, lte } from "drizzle-orm";
import { payments, printJobs } from "../../../db/schema";
import { AUTHORIZATION_SAFETY_MS } from "~/domain/job-lifecycle";
import { ENDED_UNCHARGED } from "~/domain/job-status";
import { OPEN_PAYMENT_STATES } from "~/domain/payments";
import { AppError } from "~/domain/app-error";
import { schedulePeriodic } from "~/services/jobs/enqueue.server";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { registerTaskHandler } from "~/services/jobs/runner.server";
import { getDb } from "~/utils/db.server";
import { recordRepair } from "./money-repairs.server";
import { releaseHold } from "./payment-holds.server";
import { transitionJob } from "./transitions.server";

export async function sweepExpiringAuthorizations(now = Date.now()): Promise<number[]> {
  const db = await getDb();
  const due = await db
    .selectDistinct({ jobId: printJobs.id })
    .from(printJobs)
    .innerJoin(payments, eq(payments.jobId, printJobs.id))
    .where(
      and(
        eq(printJobs.status, "confirmed"),
        eq(payments.status, "authorized"),
        lte(payments.authorizationExpiresAt, new Date(now + AUTHORIZATION_SAFETY_MS)),
      ),
    )
    .orderBy(printJobs.id)
    .limit(200);
  const cancelled: number[] = [];
  for (const { jobId } of due) {
    try {
      if (await transitionJob({ jobId, by: "system", action: "expire", now })) cancelled.push(jobId);
    } catch (error) {
      // accepted or cancelled meanwhile: nothing to do
      if (!(error instanceof AppError && error.code === "conflict")) throw error;
    }
  }
  return cancelled;
}

const STRANDED_PAGE = 200;
const STRANDED_PAGES_PER_SWEEP = 10;

/**
 * Payments left open or authorised on orders that ended without a capture (cancelled, rejected):
 * their release failed at the time, so it is tried again here until the provider agrees. Only the
 * active provider's payments (another provider's can't be released by this one), page after page,
 * so holds the provider keeps refusing never hide newer ones behind them.
 */
export async function releaseStrandedHolds(now = Date.now()): Promise<string[]> {
  const db = await getDb();
  const provider = (await getPaymentProvider()).name;
  const released: string[] = [];
  let after = 0;
  for (let page = 0; page < STRANDED_PAGES_PER_SWEEP; page++) {
    const stranded = await db
      .select({ rowId: payments.id, id: payments.providerPaymentId, jobId: payments.jobId })
      .from(payments)
      .innerJoin(printJobs, eq(printJobs.id, payments.jobId))
      .where(
        and(
          inArray(payments.status, [...OPEN_PAYMENT_STATES]),
          inArray(printJobs.status, [...ENDED_UNCHARGED]),
          eq(payments.provider, provider),
          gt(payments.id, after),
        ),
      )
      .orderBy(payments.id)
      .limit(STRANDED_PAGE);
    for (const row of stranded) {
      // still refused: left for the next sweep
      if (await releaseHold(row.id, now).catch(() => false)) {
        released.push(row.id);
        await recordRepair(row.jobId, "stranded_released", row.id);
      }
      after = row.rowId;
    }
    if (stranded.length < STRANDED_PAGE) break;
  }
  return released;
}

export const AUTHORIZATION_SWEEP_TASK = "orders.authorisation-sweep";
const SWEEP_EVERY_MS = 15 * 60 * 1000;

// a periodic task of the job runner: one row per 15-minute period, so it survives restarts and
// runs once however many workers there are
registerTaskHandler(AUTHORIZATION_SWEEP_TASK, async () => ({ cancelled: await sweepExpiringAuthorizations() }));
schedulePeriodic(AUTHORIZATION_SWEEP_TASK, SWEEP_EVERY_MS);
