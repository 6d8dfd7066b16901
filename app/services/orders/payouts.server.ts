// Owners' earnings: a payout is owed per picked_up or shipped job whose customer was charged, equal
// to its printer profit, and each job is paid out at most once (payouts.job_id is unique; the
// transfer's idempotency key is the job id). Why a payout is held: domain/payouts.ts.
import { and, eq, inArray, sql } from "drizzle-orm";
import { payouts, users } from "../../../db/schema";
import { AppError, isAppError } from "~/domain/app-error";
import { OWNER_ACTIVE, OWNER_COMPLETED, type JobStatus } from "~/domain/job-status";
import {
  ALREADY_PAID_OUT,
  NOTHING_TO_PAY_OUT,
  PAYOUT_HELD_BY_CLAIM,
  PAYOUT_WAITS_FOR_CLAIM,
  payoutHoldReason,
  type PayoutFacts,
  type PayoutStatus,
} from "~/domain/payouts";
import { CLAIM_PENDING, ownerShareAfterRefunds } from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { PAYOUTS_FOR_OWNERS_ONLY, receivesPayouts, type UserType } from "~/domain/users";
import { getPaymentProvider } from "~/services/payments/provider.server";
import type { PaymentProvider } from "~/services/payments/types";
import { limitWrite } from "~/services/write-limits.server";
import { getClient, getDb } from "~/utils/db.server";
import { faultPoint } from "~/utils/fault-points.server";
import { notify } from "~/services/notifications.server";
import { loadJobParty, reachedOwnerSql, roleOf } from "./jobs.server";

export { ALREADY_PAID_OUT, NOTHING_TO_PAY_OUT, PAYOUT_WAITS_FOR_CLAIM };
export const CONNECT_FIRST = "Connect a payout account first.";
export const FINISH_SETUP = "Finish setting up your Stripe account to receive payouts.";
export const OWNER_ONLY_PAYOUT = "Only the printer's owner can request its payout.";

/** Accounts the provider has said are ready; setup is asked about only until it is finished. */
const readyAccounts = new Set<string>();

async function accountReady(provider: PaymentProvider, accountId: string): Promise<boolean> {
  if (readyAccounts.has(accountId)) return true;
  const ready = await provider.accountReady(accountId);
  if (ready) readyAccounts.add(accountId);
  return ready;
}

async function savedAccountId(userId: number): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ id: users.stripeAccountId }).from(users).where(eq(users.id, userId));
  return row?.id ?? null;
}

export type PayoutAccountState = "none" | "pending" | "ready";

/** Where the owner's payout account stands: none yet, setup unfinished (Continue Stripe setup), or ready. */
export async function payoutAccountState(userId: number): Promise<PayoutAccountState> {
  const accountId = await savedAccountId(userId);
  if (!accountId) return "none";
  const provider = await getPaymentProvider();
  // the provider unreachable: offer to continue, which asks again
  return (await accountReady(provider, accountId).catch(() => false)) ? "ready" : "pending";
}

/**
 * Connect Stripe, or continue its setup: the saved account is reused (one per owner), and an
 * unfinished one gets a fresh onboarding link. In test mode the account is ready at once. A
 * customer-only account is refused (AppError "forbidden").
 */
export async function connectPayoutAccount(
  user: { id: number; email: string; userType: UserType },
  origin: string,
): Promise<{ accountId: string; onboardingUrl: string; ready: boolean }> {
  if (!receivesPayouts(user.userType)) throw new AppError("forbidden", PAYOUTS_FOR_OWNERS_ONLY);
  await limitWrite(user.id, "payment");
  const provider = await getPaymentProvider();
  const returnUrl = `${origin}/printer-tracking?tab=payouts`;
  let accountId = await savedAccountId(user.id);
  if (!accountId) {
    const created = await provider.createConnectedAccount({ userId: user.id, email: user.email });
    const db = await getDb();
    // keep an account already saved (two tabs): the first one wins
    await db
      .update(users)
      .set({ stripeAccountId: created.accountId })
      .where(and(eq(users.id, user.id), sql`${users.stripeAccountId} IS NULL`));
    accountId = (await savedAccountId(user.id)) ?? created.accountId;
  }
  if (await accountReady(provider, accountId)) return { accountId, onboardingUrl: returnUrl, ready: true };
  const onboardingUrl = await provider.onboardingLink({ accountId, returnUrl, refreshUrl: returnUrl });
  return { accountId, onboardingUrl, ready: false };
}

// what each payout fact is, in SQL over the job `j`: the facts payoutHoldReason weighs
const PAYOUT_FACTS_SQL = `(SELECT status FROM payouts WHERE job_id = j.id) AS payout,
  EXISTS (SELECT 1 FROM payments p WHERE p.job_id = j.id AND p.status = 'captured') AS captured,
  EXISTS (SELECT 1 FROM claims c WHERE c.job_id = j.id AND c.status IN (${CLAIM_PENDING.map((s) => `'${s}'`).join(", ")})) AS claim_open,
  (SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r WHERE r.job_id = j.id) AS refunded,
  EXISTS (SELECT 1 FROM refunds r WHERE r.job_id = j.id AND r.status = 'pending') AS refund_pending`;

/** A row's payout facts; the owner's share left after refunds. */
function payoutFactsOfRow(row: Record<string, unknown>, printerProfitCents: number): PayoutFacts & { leftCents: number } {
  const leftCents = ownerShareAfterRefunds(printerProfitCents, Number(row.refunded));
  return {
    payout: (row.payout as PayoutStatus | null) ?? null,
    paymentCaptured: Number(row.captured) === 1,
    claimOpen: Number(row.claim_open) === 1,
    refundPending: Number(row.refund_pending) === 1,
    nothingLeft: leftCents <= 0,
    leftCents,
  };
}

/** The facts payoutHoldReason weighs for one job. */
async function payoutFactsOf(job: { id: number; printerProfitCents: number }) {
  const client = await getClient();
  const { rows } = await client.execute({
    sql: `SELECT ${PAYOUT_FACTS_SQL} FROM print_jobs j WHERE j.id = ?`,
    args: [job.id],
  });
  return payoutFactsOfRow(rows[0] ?? {}, job.printerProfitCents);
}

/** Request Payout for one job: one transfer, ever, and only for an order whose customer was charged. */
export async function requestPayout(owner: { id: number }, jobId: number) {
  const party = await loadJobParty(jobId);
  if (!party) return null;
  // the printer's owner only once the order was paid (decision 029): an unpaid order is not theirs to see
  const role = roleOf(party, owner.id);
  if (role !== "owner") {
    // the job's own customer may know it exists but has no payout to ask for; anyone else sees nothing
    if (role === "customer" && party.job.status !== "draft") throw new AppError("forbidden", OWNER_ONLY_PAYOUT);
    return null;
  }
  const { job } = party;
  const facts = await payoutFactsOf(job);
  const held = payoutHoldReason(job, facts);
  // asked for while a claim is open: the request waits for the claim, and is sent when it is resolved
  if (held === PAYOUT_HELD_BY_CLAIM && (await markPayoutWaiting(job.id))) {
    return { jobId: job.id, amountCents: facts.leftCents, waiting: true as const };
  }
  if (held) throw new AppError("conflict", held);
  const { provider, accountId } = await readyPayoutAccount(owner.id);
  return sendPayout(owner.id, { id: job.id, fileName: job.fileName, amountCents: facts.leftCents }, accountId, provider);
}

/** Notes on the job's open claim that its owner asked for the payout (the first asking counts). */
async function markPayoutWaiting(jobId: number): Promise<boolean> {
  const client = await getClient();
  const marked = await client.execute({
    sql: `UPDATE claims SET payout_requested_at = coalesce(payout_requested_at, ?)
          WHERE job_id = ? AND status IN (${CLAIM_PENDING.map(() => "?").join(", ")})`,
    args: [Date.now(), jobId, ...CLAIM_PENDING],
  });
  return marked.rowsAffected > 0;
}

/**
 * Sends the payouts owners asked for while a claim was open, once the claim is resolved (the amount left
 * after its refund). A provider that can't be reached leaves the request for the claims sweep; any other
 * refusal ends the wait, and the order shows on /printer-tracking for the owner to ask again.
 */
export async function sendWaitingPayouts(jobId?: number): Promise<number> {
  const client = await getClient();
  const { rows } = await client.execute({
    sql: `SELECT c.job_id, pr.owner_id FROM claims c JOIN print_jobs j ON j.id = c.job_id JOIN printers pr ON pr.id = j.printer_id
          WHERE c.status = 'resolved' AND c.payout_requested_at IS NOT NULL ${jobId ? "AND c.job_id = ?" : ""}
            AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.job_id = c.job_id AND r.status = 'pending')
          ORDER BY c.job_id LIMIT 100`,
    args: jobId ? [jobId] : [],
  });
  let sent = 0;
  for (const row of rows) {
    const job = Number(row.job_id);
    try {
      if (await requestPayout({ id: Number(row.owner_id) }, job)) sent++;
    } catch (error) {
      if (!isAppError(error)) throw error;
      if (error.code === "unavailable") continue;
    }
    await client.execute({
      sql: "UPDATE claims SET payout_requested_at = NULL WHERE job_id = ? AND status = 'resolved'",
      args: [job],
    });
  }
  return sent;
}

/** The owner's saved account, once the provider says it can receive payouts; counts one payment write. */
async function readyPayoutAccount(ownerId: number) {
  const accountId = await savedAccountId(ownerId);
  if (!accountId) throw new AppError("invalid", CONNECT_FIRST);
  await limitWrite(ownerId, "payment");
  const provider = await getPaymentProvider();
  if (!(await accountReady(provider, accountId))) throw new AppError("invalid", FINISH_SETUP);
  return { provider, accountId };
}

/** A payout to send or record: its job and the amount, the owner's share left after refunds. */
type PayableJob = { id: number; amountCents: number; fileName: string };

/**
 * Claims the job's payout row and sends its one transfer. The claim needs a captured payment in the
 * same statement, and a second request (or a retry of a failed one) finds the row taken.
 */
async function sendPayout(ownerId: number, job: PayableJob, destination: string, provider: PaymentProvider) {
  const client = await getClient();
  const claim = await client.execute({
    sql: `INSERT INTO payouts (job_id, owner_id, amount_cents, provider, status, claimed_at)
          SELECT ?1, ?2, ?3, ?4, 'pending', ?5
          WHERE EXISTS (SELECT 1 FROM payments WHERE job_id = ?1 AND status = 'captured')
            AND NOT EXISTS (SELECT 1 FROM refunds WHERE job_id = ?1 AND status = 'pending')
          ON CONFLICT (job_id) DO UPDATE SET status = 'pending', claimed_at = excluded.claimed_at, failure_message = NULL
          WHERE payouts.status = 'failed'`,
    args: [job.id, ownerId, job.amountCents, provider.name, Date.now()],
  });
  if (claim.rowsAffected !== 1) throw new AppError("conflict", ALREADY_PAID_OUT);
  faultPoint("payout:after-claim");
  let transferId: string;
  try {
    ({ transferId } = await provider.transfer({ jobId: job.id, amountCents: job.amountCents, destination }));
  } catch (error) {
    const refusal =
      error instanceof AppError
        ? error
        : new AppError("unavailable", "The payout could not be sent. Please try again.", { cause: error });
    await markPayoutFailed(job.id, refusal.message);
    throw refusal;
  }
  faultPoint("payout:after-transfer");
  await markPayoutPaid(ownerId, job, transferId);
  return { jobId: job.id, amountCents: job.amountCents, transferId };
}

/** A pending payout's transfer went out: recorded once, and the owner told (the bell and e-mail kind payout). */
export async function markPayoutPaid(ownerId: number, job: PayableJob, transferId: string): Promise<boolean> {
  const db = await getDb();
  const moved = await db
    .update(payouts)
    .set({ status: "paid", providerTransferId: transferId, failureMessage: null })
    .where(and(eq(payouts.jobId, job.id), eq(payouts.status, "pending")));
  if (moved.rowsAffected !== 1) return false;
  await notify(
    ownerId,
    "Payout Sent",
    `${formatCents(job.amountCents)} for ${job.fileName} is on its way to your payout account.`,
    "/printer-tracking",
    { kind: "payout" },
  );
  return true;
}

/** A pending payout the provider refused: failed with its message, so the owner can ask again. */
export async function markPayoutFailed(jobId: number, message: string): Promise<boolean> {
  const db = await getDb();
  const moved = await db
    .update(payouts)
    .set({ status: "failed", failureMessage: message.slice(0, 300) })
    .where(and(eq(payouts.jobId, jobId), eq(payouts.status, "pending")));
  return moved.rowsAffected === 1;
}

const TRACKED_FOR_PAYOUT: readonly JobStatus[] = [...OWNER_ACTIVE, ...OWNER_COMPLETED].filter(
  (status) => status !== "accepted" && status !== "printing",
);

export interface PayoutLine {
  jobId: number;
  fileName: string;
  amountCents: number;
  /** why it can't be paid out now; null when it can */
  holdReason: string | null;
  /** the provider's refusal of its last attempt, if it failed */
  failureMessage: string | null;
}

/** The owner's finished orders not yet paid out: those a payout can be sent for, and those held, with why. */
export async function payoutOverview(ownerId: number): Promise<{ eligible: PayoutLine[]; held: PayoutLine[] }> {
  const client = await getClient();
  const { rows } = await client.execute({
    sql: `SELECT j.id, j.file_name, j.status, j.printer_profit_cents, po.failure_message, ${PAYOUT_FACTS_SQL}
          FROM print_jobs j JOIN printers pr ON pr.id = j.printer_id LEFT JOIN payouts po ON po.job_id = j.id
          WHERE pr.owner_id = ? AND j.status IN (${TRACKED_FOR_PAYOUT.map(() => "?").join(", ")})
            AND coalesce(po.status, '') <> 'paid' AND ${reachedOwnerSql("j")}
          ORDER BY j.id`,
    args: [ownerId, ...TRACKED_FOR_PAYOUT],
  });
  const lines = rows.map((row) => {
    const facts = payoutFactsOfRow(row, Number(row.printer_profit_cents));
    return {
      jobId: Number(row.id),
      fileName: String(row.file_name),
      amountCents: facts.leftCents,
      holdReason: payoutHoldReason({ status: row.status as JobStatus }, facts),
      failureMessage: (row.failure_message as string | null) ?? null,
    };
  });
  return { eligible: lines.filter((l) => !l.holdReason), held: lines.filter((l) => l.holdReason) };
}

/** The payout overview of an account that receives payouts (AppError "forbidden" for a customer-only account). */
export async function payoutOverviewFor(user: { id: number; userType: UserType }) {
  if (!receivesPayouts(user.userType)) throw new AppError("forbidden", PAYOUTS_FOR_OWNERS_ONLY);
  return payoutOverview(user.id);
}

/**
 * "Request payout for all": one transfer per eligible order, as Request Payout sends them, counted as
 * one payment write. Returns what was sent, what is held and why, and what the provider refused.
 */
export async function requestPayoutsForAll(owner: { id: number; userType: UserType }) {
  const { eligible, held } = await payoutOverviewFor(owner);
  const paid: { jobId: number; amountCents: number; transferId: string }[] = [];
  const failed: { jobId: number; message: string }[] = [];
  if (eligible.length === 0) return { paid, held, failed };
  const { provider, accountId } = await readyPayoutAccount(owner.id);
  for (const line of eligible) {
    try {
      paid.push(
        await sendPayout(
          owner.id,
          { id: line.jobId, amountCents: line.amountCents, fileName: line.fileName },
          accountId,
          provider,
        ),
      );
    } catch (error) {
      if (!isAppError(error)) throw error;
      failed.push({ jobId: line.jobId, message: error.message });
    }
  }
  return { paid, held, failed };
}

/** The owner's payouts of these jobs (a page of the tracking list). */
export async function payoutsOf(ownerId: number, jobIds: number[]) {
  if (jobIds.length === 0) return [];
  const db = await getDb();
  return db
    .select()
    .from(payouts)
    .where(and(eq(payouts.ownerId, ownerId), inArray(payouts.jobId, jobIds)));
}
