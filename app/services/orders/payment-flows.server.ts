// Paying for an order. The amount is always the job's stored amount due (computed by the price
// engine when the order was placed); whatever a client sends is ignored. A paid order is
// "confirmed": the card is authorised and captured only when the printer accepts.
import { and, eq, isNull, or } from "drizzle-orm";
import { printJobs, webhookEvents } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { AWAITING_PAYMENT, ENDED_UNCHARGED } from "~/domain/job-status";
import { OPEN_PAYMENT_STATES } from "~/domain/payments";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { findPayment, movePayment, paymentOfJob, recordPayment } from "~/services/payments/records.server";
import type { CardDetails } from "~/services/payments/types";
import { limitWrite } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";
import { faultPoint } from "~/utils/fault-points.server";
import { loadJobParty } from "./jobs.server";
import { releaseHold } from "./payment-holds.server";
import { transitionJob } from "./transitions.server";

export const ALREADY_PAID = "This order has already been paid.";

/** The customer's own order awaiting payment; null when it isn't theirs. */
async function payableJob(customerId: number, jobId: number) {
  const party = await loadJobParty(jobId);
  if (!party || party.job.customerId !== customerId || party.job.status === "draft") return null;
  if (party.job.status !== AWAITING_PAYMENT) throw new AppError("conflict", ALREADY_PAID);
  if (party.job.amountDueCents <= 0) throw new AppError("invalid", "This order has nothing to pay.");
  return party.job;
}

function describe(job: { id: number; fileName: string }) {
  return `Printnear order #${job.id}: ${job.fileName}`.slice(0, 200);
}

/** POST /api/create-payment-intent: a payment for the stored amount (reused while the amount is unchanged). */
export async function startCardPayment(customer: { id: number; email: string }, jobId: number) {
  const job = await payableJob(customer.id, jobId);
  if (!job) return null;
  const provider = await getPaymentProvider();
  const open = await paymentOfJob(job.id, ["requires_payment"]);
  if (open && open.provider === provider.name && open.amountCents === job.amountDueCents && provider.clientSecretOf) {
    return { clientSecret: provider.clientSecretOf(open.providerPaymentId), amount: job.amountDueCents, provider: provider.name };
  }
  await limitWrite(customer.id, "payment");
  const created = await provider.createPayment({
    jobId: job.id,
    amountCents: job.amountDueCents,
    description: describe(job),
    customerEmail: customer.email,
  });
  await recordPayment({
    jobId: job.id,
    provider: provider.name,
    providerPaymentId: created.providerPaymentId,
    amountCents: job.amountDueCents,
  });
  return { clientSecret: created.clientSecret, amount: job.amountDueCents, provider: provider.name };
}

/** POST /api/confirm-payment and the test card form: authorise the card, then confirm the order once. */
export async function payWithTestCard(customerId: number, jobId: number, card: CardDetails) {
  const provider = await getPaymentProvider();
  const { testCard } = provider;
  if (!testCard) throw new AppError("invalid", "Card details are taken by the card provider's form, not here.");
  const job = await payableJob(customerId, jobId);
  if (!job) return null;
  await limitWrite(customerId, "payment");
  const { providerPaymentId } = await provider.createPayment({
    jobId: job.id,
    amountCents: job.amountDueCents,
    description: describe(job),
  });
  await recordPayment({ jobId: job.id, provider: provider.name, providerPaymentId, amountCents: job.amountDueCents });
  try {
    await testCard.authorize(providerPaymentId, card);
  } catch (error) {
    await movePayment(providerPaymentId, ["requires_payment"], "failed", {
      failureMessage: error instanceof Error ? error.message : "declined",
    });
    throw error;
  }
  await movePayment(providerPaymentId, ["requires_payment"], "authorized");
  faultPoint("pay:after-authorize");
  return confirmOrder(job.id, providerPaymentId, { userId: customerId });
}

/**
 * One payment pays an order: the first authorised payment to claim it while it awaits payment is
 * recorded as the order's payment (the hold it keeps and the one an accept captures). A repeat report of
 * that payment claims it again; any other payment is refused. One guarded UPDATE, so two cards
 * authorised at once (two tabs, a webhook racing the return) can't both stay held.
 */
async function claimOrderPayment(jobId: number, providerPaymentId: string): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .update(printJobs)
    .set({ confirmedPaymentId: providerPaymentId })
    .where(
      and(
        eq(printJobs.id, jobId),
        or(
          eq(printJobs.confirmedPaymentId, providerPaymentId),
          and(isNull(printJobs.confirmedPaymentId), eq(printJobs.status, AWAITING_PAYMENT)),
        ),
      ),
    );
  return result.rowsAffected > 0;
}

/** Gives the claim back when confirming failed for another reason, so the customer can pay again. */
async function unclaimOrderPayment(jobId: number, providerPaymentId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(printJobs)
    .set({ confirmedPaymentId: null })
    .where(
      and(eq(printJobs.id, jobId), eq(printJobs.confirmedPaymentId, providerPaymentId), eq(printJobs.status, AWAITING_PAYMENT)),
    );
}

/**
 * After an authorisation: the job becomes confirmed. When it can't (another payment paid it, or the
 * order was cancelled meanwhile), this payment is released unless it is the one that paid.
 */
async function confirmOrder(jobId: number, providerPaymentId: string, by: { userId: number } | "system") {
  if (!(await claimOrderPayment(jobId, providerPaymentId))) {
    await releaseHold(providerPaymentId);
    throw new AppError("conflict", ALREADY_PAID);
  }
  faultPoint("pay:after-claim");
  try {
    const result = await transitionJob({ jobId, by, action: "pay" });
    if (!result) throw new AppError("not_found", "Order not found.");
    return result;
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") {
      // a repeat of the payment that confirmed the order keeps its hold; after a cancel, nothing may
      const party = await loadJobParty(jobId);
      const paidByThis = party?.job.confirmedPaymentId === providerPaymentId && !ENDED_UNCHARGED.includes(party.job.status);
      if (!paidByThis) await releaseHold(providerPaymentId);
      throw new AppError("conflict", ALREADY_PAID);
    }
    await unclaimOrderPayment(jobId, providerPaymentId);
    throw error;
  }
}

/**
 * The card provider says a payment is authorised (webhook, or the customer's return from
 * checkout): record it and confirm the order. Repeats change nothing. An authorisation the order
 * can no longer use (cancelled, rejected, or already paid by another payment) is released at
 * once, so no hold is left on the customer's card. Returns the job id.
 */
export async function confirmProviderPayment(providerPaymentId: string): Promise<number | null> {
  const provider = await getPaymentProvider();
  const seen = await provider.getPayment(providerPaymentId);
  if (!seen.jobId) return null;
  const party = await loadJobParty(seen.jobId);
  if (!party) return null;
  let record = await findPayment(providerPaymentId);
  if (!record) {
    await recordPayment({ jobId: party.job.id, provider: provider.name, providerPaymentId, amountCents: seen.amountCents });
    record = await findPayment(providerPaymentId);
  }
  if (!record || record.jobId !== party.job.id) return null;
  if (seen.state === "failed") {
    await movePayment(providerPaymentId, ["requires_payment"], "failed");
    return party.job.id;
  }
  if (seen.state === "released" && record.status !== "released") {
    // cancelled at the provider (by us, or by its own expiry)
    await movePayment(providerPaymentId, [...OPEN_PAYMENT_STATES], "released");
    return party.job.id;
  }
  if (seen.state !== "authorized") return party.job.id;
  // a payment of another amount than the one due never confirms the order
  if (seen.amountCents !== party.job.amountDueCents) {
    await releaseHold(providerPaymentId);
    return party.job.id;
  }
  const fresh = await movePayment(providerPaymentId, ["requires_payment", "failed"], "authorized");
  faultPoint("pay:after-authorize");
  const { status } = party.job;
  if (status === AWAITING_PAYMENT) {
    await confirmOrder(party.job.id, providerPaymentId, "system").catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === "conflict")) throw error;
    });
  } else {
    // the order was paid by another payment (confirmed and on), or it ended unpaid (cancelled,
    // rejected): only the order's own payment, on an order that still stands, may stay authorised
    // (orders paid before their payment was recorded: the one already authorised on a confirmed order)
    const ordersPayment = party.job.confirmedPaymentId;
    const keeps = ordersPayment
      ? ordersPayment === providerPaymentId && !ENDED_UNCHARGED.includes(status)
      : !fresh && status === "confirmed";
    if (!keeps) await releaseHold(providerPaymentId);
  }
  return party.job.id;
}

/** Hosted checkout (no JavaScript): the URL to send the customer to. */
export async function startHostedCheckout(customer: { id: number; email: string }, jobId: number, origin: string) {
  const checkout = (await getPaymentProvider()).hostedCheckout;
  if (!checkout) throw new AppError("invalid", "Hosted checkout needs the card provider.");
  const job = await payableJob(customer.id, jobId);
  if (!job) return null;
  await limitWrite(customer.id, "payment");
  return checkout.start({
    jobId: job.id,
    amountCents: job.amountDueCents,
    description: describe(job),
    customerEmail: customer.email,
    successUrl: `${origin}/order-confirmation?orderId=${job.id}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}/checkout?orderId=${job.id}`,
  });
}

/** The customer came back from hosted checkout or Elements: confirm from the provider's word, not the URL's. */
export async function confirmReturnedPayment(
  customerId: number,
  jobId: number,
  ref: { sessionId?: string | null; paymentIntentId?: string | null },
) {
  // only a provider whose payments are confirmed off our pages sends the customer back with a reference
  const checkout = (await getPaymentProvider()).hostedCheckout;
  if (!checkout) return;
  let intentId = ref.paymentIntentId ?? null;
  if (!intentId && ref.sessionId) intentId = await checkout.paymentOf(ref.sessionId);
  if (!intentId) return;
  const party = await loadJobParty(jobId);
  if (!party || party.job.customerId !== customerId) return;
  await confirmProviderPayment(intentId);
}

/** Stripe webhooks: verified, recorded by event id (a repeat changes nothing), then applied. */
export async function handleStripeWebhook(
  payload: string,
  signature: string | null,
): Promise<"handled" | "duplicate" | "ignored"> {
  const secret = process.env.STRIPE_WEBHOOK_SECRET;
  const { webhooks } = await getPaymentProvider();
  if (!secret || !webhooks) throw new AppError("unavailable", "Webhooks are not configured.");
  const event = webhooks.verify(payload, signature, secret);
  const db = await getDb();
  const fresh = await db
    .insert(webhookEvents)
    .values({ id: event.id, provider: "stripe", type: event.type })
    .onConflictDoNothing({ target: webhookEvents.id });
  if (fresh.rowsAffected !== 1) return "duplicate";
  try {
    const object = event.data.object as { id?: string; object?: string; payment_intent?: string | { id: string } | null };
    if (event.type === "payment_intent.amount_capturable_updated" || event.type === "payment_intent.payment_failed") {
      if (object.id) await confirmProviderPayment(object.id);
      return "handled";
    }
    if (event.type === "checkout.session.completed") {
      const intent = typeof object.payment_intent === "string" ? object.payment_intent : object.payment_intent?.id;
      if (intent) await confirmProviderPayment(intent);
      return "handled";
    }
    return "ignored";
  } catch (error) {
    // not handled: forget the event id so the provider's retry is applied
    await db.delete(webhookEvents).where(eq(webhookEvents.id, event.id));
    throw error;
  }
}
