// Releasing a payment the order will never use: an authorisation is cancelled (the customer is
// never charged) and a payment still open at the provider is cancelled so it can't authorise later.
// Our record moves to "released" once the provider agrees; a repeat finds it released already.
import { OPEN_PAYMENT_STATES } from "~/domain/payments";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { movePayment, paymentsOfJob } from "~/services/payments/records.server";

/** Cancels one payment at the provider and records it; throws when the provider refused and it is still open. */
export async function releaseHold(providerPaymentId: string, now = Date.now()): Promise<boolean> {
  const provider = await getPaymentProvider();
  try {
    await provider.release(providerPaymentId);
  } catch (error) {
    // cancelled already (a repeat, or the provider's own expiry): record it; anything else stays open for a retry
    const seen = await provider.getPayment(providerPaymentId).catch(() => null);
    if (seen?.state !== "released") throw error;
  }
  return movePayment(providerPaymentId, [...OPEN_PAYMENT_STATES], "released", { now });
}

/** Releases every open payment of a job (a cancel or reject before capture). Returns the ids that failed. */
export async function releaseOpenPayments(jobId: number, now = Date.now()): Promise<string[]> {
  const failed: string[] = [];
  for (const payment of await paymentsOfJob(jobId, [...OPEN_PAYMENT_STATES])) {
    try {
      await releaseHold(payment.providerPaymentId, now);
    } catch {
      failed.push(payment.providerPaymentId);
    }
  }
  return failed;
}
