// Owners' earnings: a payout is owed per picked_up or shipped job whose customer was charged, equal
// to its printer profit, and each job is paid out at most once (payouts.job_id is unique; the
// transfer's idempotency key is the job id). Why a payout is held: domain/payouts.ts.
import { and, eq, inArray, sql } from "drizzle-orm";
import { claims, payments, payouts, printers, printJobs, refunds, users } from "../../../db/schema";
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
import { getDb } from "~/utils/db.server";
import { faultPoint } from "~/utils/fault-points.server";
import { notify } from "~/services/notifications.server";
import { columnNames, loadJobParty, quoted, reachedOwnerOf, refundedOf, roleOf } from "./jobs.server";

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

/** The facts payoutHoldReason weighs, as columns of a print_jobs select joined to its payout (left join). */
const payoutFactColumns = {
  payout: payouts.status,
  captured:
    sql<boolean>`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.jobId} = ${printJobs.id} AND ${payments.status} = 'captured')`.mapWith(
      Boolean,
    ),
  claimOpen:
    sql<boolean>`EXISTS (SELECT 1 FROM ${claims} WHERE ${claims.jobId} = ${printJobs.id} AND ${claims.status} IN (${sql.raw(quoted(CLAIM_PENDING))}))`.mapWith(
      Boolean,
    ),
  refunded: refundedOf(),
  refundPending:
    sql<boolean>`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.jobId} = ${printJobs.id} AND ${refunds.status} = 'pending')`.mapWith(
      Boolean,
    ),
};
type PayoutFactRow = {
  payout: PayoutStatus | null;
  captured: boolean;
  claimOpen: boolean;
  refunded: number;
  refundPending: boolean;
};

/** A row's payout facts; the owner's share left after refunds. */
function payoutFactsOfRow(row: PayoutFactRow | undefined, printerProfitCents: number): PayoutFacts & { leftCents: number } {
  const leftCents = ownerShareAfterRefunds(printerProfitCents, row?.refunded ?? 0);
  return {
    payout: row?.payout ?? null,
    paymentCaptured: row?.captured ?? false,
    claimOpen: row?.claimOpen ?? false,
    refundPending: row?.refundPending ?? false,
    nothingLeft: leftCents <= 0,
    leftCents,
  };
}

/** The facts payoutHoldReason weighs for one job. */
async function payoutFactsOf(job: { id: number; printerProfitCents: number }) {
  const db = await getDb();
  const [row] = await db
    .select(payoutFactColumns)
    .from(printJobs)
    .leftJoin(payouts, eq(payouts.jobId, printJobs.id))
    .where(eq(printJobs.id, job.id));
  return payoutFactsOfRow(row, job.printerProfitCents);
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
  const payout = {
    ownerId: owner.id,
    job: { id: job.id, fileName: job.fileName, amountCents: facts.leftCents },
    destination: accountId,
  };
  const { amountCents, transferId } = await sendPayout(payout, provider);
  return { jobId: job.id, amountCents, transferId };
}

/** Notes on the job's open claim that its owner asked for the payout (the first asking counts). */
async function markPayoutWaiting(jobId: number): Promise<boolean> {
  const db = await getDb();
  const marked = await db
    .update(claims)
    .set({ payoutRequestedAt: sql`coalesce(${claims.payoutRequestedAt}, ${Date.now()})` })
    .where(and(eq(claims.jobId, jobId), inArray(claims.status, [...CLAIM_PENDING])));
  return marked.rowsAffected > 0;
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
/** A payout and where it goes: the owner's job and their payout account. */
export interface PayoutToSend {
  ownerId: number;
  job: PayableJob;
  destination: string;
}

/**
 * Claims the job's payout row: it needs a captured payment and no pending refund in the same statement,
 * and a second request (or a retry of a failed one) finds the row taken.
 */
async function claimPayout({ ownerId, job }: PayoutToSend, provider: PaymentProvider): Promise<boolean> {
  const db = await getDb();
  const claim = await db.run(sql`INSERT INTO ${payouts}
      (${columnNames(payouts.jobId, payouts.ownerId, payouts.amountCents, payouts.provider, payouts.status, payouts.claimedAt)})
    SELECT ${job.id}, ${ownerId}, ${job.amountCents}, ${provider.name}, 'pending', ${Date.now()}
    WHERE EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.jobId} = ${job.id} AND ${payments.status} = 'captured')
      AND NOT EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.jobId} = ${job.id} AND ${refunds.status} = 'pending')
    ON CONFLICT (${columnNames(payouts.jobId)}) DO UPDATE SET ${columnNames(payouts.status)} = 'pending',
      ${columnNames(payouts.claimedAt)} = excluded.${columnNames(payouts.claimedAt)}, ${columnNames(payouts.failureMessage)} = NULL
    WHERE ${payouts.status} = 'failed'`);
  return claim.rowsAffected === 1;
}

/**
 * Sends a payout's one transfer and records it: the one way a payout is sent, by Request Payout, "Request
 * payout for all", a payout that waited for a claim and the money reconciliation. The payout row is claimed
 * first, unless `resume` finishes one a crash left pending. A refusal marks it failed with the provider's
 * message (the owner may ask again) and is thrown; `recorded` is false when someone else recorded it first.
 */
export async function sendPayout(payout: PayoutToSend, provider: PaymentProvider, options: { resume?: boolean } = {}) {
  const { ownerId, job } = payout;
  if (!options.resume) {
    if (!(await claimPayout(payout, provider))) throw new AppError("conflict", ALREADY_PAID_OUT);
    faultPoint("payout:after-claim");
  }
  let transferId: string;
  try {
    ({ transferId } = await provider.transfer({ jobId: job.id, amountCents: job.amountCents, destination: payout.destination }));
  } catch (error) {
    const refusal =
      error instanceof AppError
        ? error
        : new AppError("unavailable", "The payout could not be sent. Please try again.", { cause: error });
    await markPayoutFailed(job.id, refusal.message);
    throw refusal;
  }
  faultPoint("payout:after-transfer");
  const recorded = await markPayoutPaid(ownerId, job, transferId);
  return { jobId: job.id, amountCents: job.amountCents, transferId, recorded };
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
  const db = await getDb();
  const rows = await db
    .select({
      id: printJobs.id,
      fileName: printJobs.fileName,
      status: printJobs.status,
      printerProfitCents: printJobs.printerProfitCents,
      failureMessage: payouts.failureMessage,
      ...payoutFactColumns,
    })
    .from(printJobs)
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .leftJoin(payouts, eq(payouts.jobId, printJobs.id))
    .where(
      and(
        eq(printers.ownerId, ownerId),
        inArray(printJobs.status, [...TRACKED_FOR_PAYOUT]),
        sql`coalesce(${payouts.status}, '') <> 'paid'`,
        reachedOwnerOf(),
      ),
    )
    .orderBy(printJobs.id);
  const lines = rows.map((row) => {
    const facts = payoutFactsOfRow(row, row.printerProfitCents);
    return {
      jobId: row.id,
      fileName: row.fileName,
      amountCents: facts.leftCents,
      holdReason: payoutHoldReason({ status: row.status }, facts),
      failureMessage: row.failureMessage ?? null,
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
      const job = { id: line.jobId, amountCents: line.amountCents, fileName: line.fileName };
      const { jobId, amountCents, transferId } = await sendPayout({ ownerId: owner.id, job, destination: accountId }, provider);
      paid.push({ jobId, amountCents, transferId });
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
