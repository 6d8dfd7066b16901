// Refunds of a job's captured payment, full or partial (decision 040). A refund is claimed by one
// guarded insert that keeps the sum of the payment's refunds within what was captured (one per
// claim: refunds.claim_id is unique), then sent to the provider with the row's id as its
// idempotency key; a call that failed leaves the row pending and the claims sweep sends it again.
// When the owner was already paid, what the refund takes from their share is reversed from the transfer.
import { ownerShareAfterRefunds } from "~/domain/claims";
import { AppError } from "~/domain/app-error";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { movePayment, paymentOfJob } from "~/services/payments/records.server";
import { faultPoint } from "~/utils/fault-points.server";
import { getClient } from "~/utils/db.server";

export const NOTHING_TO_REFUND = "Nothing is left to refund on this order.";
export const OVER_REFUNDABLE = "A refund can't be more than what is left of the payment.";

interface RefundRow {
  id: number;
  jobId: number;
  providerPaymentId: string;
  amountCents: number;
}

/** What is still refundable on the job's captured payment, in cents (0 when it has none). */
export async function refundableCents(jobId: number): Promise<number> {
  const payment = await paymentOfJob(jobId, ["captured", "refunded"]);
  if (!payment) return 0;
  return Math.max(0, payment.amountCents - (await refundedCentsOf(jobId)));
}

/** What was refunded on the job and what is still refundable, the sum read once (the order page shows both). */
export async function refundsOfJob(jobId: number): Promise<{ refundedCents: number; refundableCents: number }> {
  const [refundedCents, payment] = await Promise.all([refundedCentsOf(jobId), paymentOfJob(jobId, ["captured", "refunded"])]);
  return { refundedCents, refundableCents: payment ? Math.max(0, payment.amountCents - refundedCents) : 0 };
}

/** Every refund of the job, made or still on its way. */
export async function refundedCentsOf(jobId: number): Promise<number> {
  const client = await getClient();
  const result = await client.execute({
    sql: "SELECT coalesce(sum(amount_cents), 0) AS n FROM refunds WHERE job_id = ?",
    args: [jobId],
  });
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Refunds the job's captured payment: `amountCents`, or all that is left ("rest"). Once per claim,
 * never above what was captured minus earlier refunds, however many requests race. Returns the
 * refund's amount, or null when the order has no captured payment.
 */
export async function refundJob(input: { jobId: number; amountCents: number | "rest"; claimId?: number | null; now?: number }) {
  const payment = await paymentOfJob(input.jobId, ["captured", "refunded"]);
  if (!payment) return null;
  const client = await getClient();
  const taken = "(SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE provider_payment_id = ?3)";
  // the amount is computed inside the insert, so two refunds at once can't both fit in the same cents
  const amount = input.amountCents === "rest" ? `?4 - ${taken}` : "?5";
  const claimed = await client.execute({
    sql: `INSERT INTO refunds (job_id, claim_id, provider_payment_id, provider, amount_cents, status)
          SELECT ?1, ?2, ?3, ?6, ${amount}, 'pending'
          WHERE ${amount} > 0 AND ${amount} + ${taken} <= ?4
          ON CONFLICT (claim_id) DO NOTHING
          RETURNING id, amount_cents`,
    args: [
      input.jobId,
      input.claimId ?? null,
      payment.providerPaymentId,
      payment.amountCents,
      input.amountCents === "rest" ? 0 : Math.trunc(input.amountCents),
      payment.provider,
    ],
  });
  const row = claimed.rows[0];
  if (!row) {
    if (input.claimId != null && (await refundOfClaim(input.claimId)))
      throw new AppError("conflict", "This claim was already refunded.");
    throw new AppError("conflict", input.amountCents === "rest" ? NOTHING_TO_REFUND : OVER_REFUNDABLE);
  }
  const refund = {
    id: Number(row.id),
    jobId: input.jobId,
    providerPaymentId: payment.providerPaymentId,
    amountCents: Number(row.amount_cents),
  };
  faultPoint("refund:after-reserve");
  await sendRefund(refund, input.now);
  return { refundId: refund.id, amountCents: refund.amountCents };
}

async function refundOfClaim(claimId: number): Promise<boolean> {
  const client = await getClient();
  const result = await client.execute({ sql: "SELECT 1 FROM refunds WHERE claim_id = ?", args: [claimId] });
  return result.rows.length > 0;
}

/** Asks the provider for a claimed refund (again, after a failure: same key, so never twice), then takes it from the owner's payout. */
async function sendRefund(refund: RefundRow, now = Date.now()) {
  const provider = await getPaymentProvider();
  const { refundId } = await provider.refund({
    providerPaymentId: refund.providerPaymentId,
    amountCents: refund.amountCents,
    idempotencyKey: `refund-${refund.id}`,
  });
  faultPoint("refund:after-provider");
  const client = await getClient();
  await client.execute({
    sql: "UPDATE refunds SET status = 'succeeded', provider_refund_id = ?, refunded_at = ? WHERE id = ? AND status = 'pending'",
    args: [refundId, now, refund.id],
  });
  const payment = await paymentOfJob(refund.jobId, ["captured"]);
  if (payment && (await refundedCentsOf(refund.jobId)) >= payment.amountCents) {
    await movePayment(payment.providerPaymentId, ["captured"], "refunded", { now });
  }
  await reversePayout(refund.jobId, refund.id);
}

/**
 * After a refund of a job whose owner was already paid: the transfer is reversed by what the owner's
 * share lost (their share after all refunds, less what they keep). The reversed total is raised by one
 * guarded update, so a reversal is asked for once however many refunds finish together.
 */
export async function reversePayout(jobId: number, refundId: number | null = null) {
  const client = await getClient();
  for (;;) {
    const found = await client.execute({
      sql: `SELECT o.amount_cents, o.reversed_cents, o.provider_transfer_id, j.printer_profit_cents
            FROM payouts o JOIN print_jobs j ON j.id = o.job_id
            WHERE o.job_id = ? AND o.status = 'paid' AND o.provider_transfer_id IS NOT NULL`,
      args: [jobId],
    });
    const payout = found.rows[0];
    if (!payout) return 0;
    const paid = Number(payout.amount_cents);
    const reversed = Number(payout.reversed_cents);
    const keeps = Math.min(paid, ownerShareAfterRefunds(Number(payout.printer_profit_cents), await refundedCentsOf(jobId)));
    const more = paid - keeps - reversed;
    if (more <= 0) return 0;
    const raised = await client.execute({
      sql: "UPDATE payouts SET reversed_cents = ? WHERE job_id = ? AND reversed_cents = ?",
      args: [reversed + more, jobId, reversed],
    });
    if (raised.rowsAffected !== 1) continue;
    faultPoint("reversal:after-raise");
    const provider = await getPaymentProvider();
    try {
      await provider.reverseTransfer({
        transferId: String(payout.provider_transfer_id),
        amountCents: more,
        idempotencyKey: `reversal-job-${jobId}-to-${reversed + more}`,
      });
    } catch (error) {
      // given back, so the sweep asks again
      await client.execute({
        sql: "UPDATE payouts SET reversed_cents = reversed_cents - ? WHERE job_id = ?",
        args: [more, jobId],
      });
      throw error;
    }
    if (refundId) {
      await client.execute({
        sql: "UPDATE refunds SET reversed_cents = reversed_cents + ? WHERE id = ?",
        args: [more, refundId],
      });
    }
    return more;
  }
}

/** The sweep's part: refunds whose provider call failed are sent again; payouts still owing a reversal are reversed. */
export async function retryUnsettledRefunds(now = Date.now()): Promise<number> {
  const client = await getClient();
  const pending = await client.execute({
    sql: `SELECT id, job_id, provider_payment_id, amount_cents FROM refunds r
          WHERE status = 'pending' AND provider = ? AND created_at < ? ORDER BY id LIMIT 100`,
    args: [(await getPaymentProvider()).name, now - 60_000],
  });
  let sent = 0;
  for (const row of pending.rows) {
    const refund = {
      id: Number(row.id),
      jobId: Number(row.job_id),
      providerPaymentId: String(row.provider_payment_id),
      amountCents: Number(row.amount_cents),
    };
    if (
      await sendRefund(refund, now).then(
        () => true,
        () => false,
      )
    )
      sent++;
  }
  const owing = await client.execute({
    sql: `SELECT o.job_id FROM payouts o JOIN print_jobs j ON j.id = o.job_id
          WHERE o.status = 'paid' AND o.amount_cents - o.reversed_cents >
            max(0, j.printer_profit_cents - (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE job_id = o.job_id))
          LIMIT 100`,
    args: [],
  });
  for (const row of owing.rows) await reversePayout(Number(row.job_id)).catch(() => 0);
  await finishRaisedReversals(now);
  return sent;
}

/**
 * Reversals counted on our side but never made at the provider (a crash between the raise and the call):
 * asked for again under the key the cut-short call used, so one made after all is not made twice. Jobs
 * with a refund in the last minute are left to the request still finishing it.
 */
async function finishRaisedReversals(now: number) {
  const provider = await getPaymentProvider();
  if (!provider.reversedCentsOf) return;
  const client = await getClient();
  const raised = await client.execute({
    sql: `SELECT o.job_id, o.reversed_cents, o.provider_transfer_id FROM payouts o
          WHERE o.status = 'paid' AND o.reversed_cents > 0 AND o.provider = ? AND o.provider_transfer_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.job_id = o.job_id AND coalesce(r.refunded_at, r.created_at) > ?)
          ORDER BY o.job_id LIMIT 100`,
    args: [provider.name, now - 60_000],
  });
  for (const row of raised.rows) {
    const jobId = Number(row.job_id);
    const transferId = String(row.provider_transfer_id);
    const ours = Number(row.reversed_cents);
    try {
      const made = await provider.reversedCentsOf(transferId);
      if (made >= ours) continue;
      await provider.reverseTransfer({
        transferId,
        amountCents: ours - made,
        idempotencyKey: `reversal-job-${jobId}-to-${ours}`,
      });
    } catch (error) {
      console.warn(
        `refund sweep: reversal for job ${jobId} left for the next run`,
        error instanceof Error ? error.name : "error",
      );
    }
  }
}
