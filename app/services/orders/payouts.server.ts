// Owners' earnings: a payout is owed per picked_up or shipped job, equal to its printer profit, and
// each job is paid out at most once (payouts.job_id is unique; the transfer's idempotency key is
// the job id).
import { and, eq, sql } from "drizzle-orm";
import { payouts, users } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { OWNER_COMPLETED } from "~/domain/job-status";
import { ownerShareAfterRefunds } from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { PAYOUTS_FOR_OWNERS_ONLY, receivesPayouts, type UserType } from "~/domain/users";
import { getPaymentProvider } from "~/services/payments/provider.server";
import type { PaymentProvider } from "~/services/payments/types";
import { limitWrite } from "~/services/write-limits.server";
import { getClient, getDb } from "~/utils/db.server";
import { notify } from "~/services/notifications.server";
import { loadJobParty, roleOf } from "./jobs.server";
import { payoutHeldByClaim, PAYOUT_HELD_BY_CLAIM } from "./claims.server";
import { refundedCentsOf } from "./refunds.server";

export const ALREADY_PAID_OUT = "This order has already been paid out.";
export const CONNECT_FIRST = "Connect a payout account first.";
export const FINISH_SETUP = "Finish setting up your Stripe account to receive payouts.";
export const NOTHING_TO_PAY_OUT = "This order was refunded: nothing is left to pay out.";
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

/** Request Payout for one job: one transfer, ever. */
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
  if (!OWNER_COMPLETED.includes(job.status)) {
    throw new AppError("conflict", "A payout can be requested once the order is picked up or shipped.");
  }
  // a claim about the order holds its payout until it is resolved (decision 040)
  if (await payoutHeldByClaim(job.id)) throw new AppError("conflict", PAYOUT_HELD_BY_CLAIM);
  const accountId = await savedAccountId(owner.id);
  if (!accountId) throw new AppError("invalid", CONNECT_FIRST);
  await limitWrite(owner.id, "payment");
  const provider = await getPaymentProvider();
  if (!(await accountReady(provider, accountId))) throw new AppError("invalid", FINISH_SETUP);
  // refunds come out of the owner's share first: what is paid out is the remainder
  const amountCents = ownerShareAfterRefunds(job.printerProfitCents, await refundedCentsOf(job.id));
  if (amountCents <= 0) throw new AppError("conflict", NOTHING_TO_PAY_OUT);
  const client = await getClient();
  // claim the job's payout row: a second request (or a retry of a failed one) finds it taken
  const claim = await client.execute({
    sql: `INSERT INTO payouts (job_id, owner_id, amount_cents, provider, status) VALUES (?, ?, ?, ?, 'pending')
          ON CONFLICT (job_id) DO UPDATE SET status = 'pending', amount_cents = excluded.amount_cents WHERE payouts.status = 'failed'`,
    args: [job.id, owner.id, amountCents, provider.name],
  });
  if (claim.rowsAffected !== 1) throw new AppError("conflict", ALREADY_PAID_OUT);
  const db = await getDb();
  let transferId: string;
  try {
    ({ transferId } = await provider.transfer({
      jobId: job.id,
      amountCents,
      destination: accountId,
    }));
    await db.update(payouts).set({ status: "paid", providerTransferId: transferId }).where(eq(payouts.jobId, job.id));
  } catch (error) {
    await db.update(payouts).set({ status: "failed" }).where(eq(payouts.jobId, job.id));
    throw error instanceof AppError
      ? error
      : new AppError("unavailable", "The payout could not be sent. Please try again.", { cause: error });
  }
  // the money has moved: the owner hears of it in the bell and by e-mail (kind payout)
  await notify(
    owner.id,
    "Payout Sent",
    `${formatCents(amountCents)} for ${job.fileName} is on its way to your payout account.`,
    "/printer-tracking",
    { kind: "payout" },
  );
  return { jobId: job.id, amountCents, transferId };
}

export async function payoutsOf(ownerId: number) {
  const db = await getDb();
  return db.select().from(payouts).where(eq(payouts.ownerId, ownerId));
}
