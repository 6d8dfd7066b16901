// Stripe: PaymentIntents with manual capture (authorised at checkout, captured when the printer
// accepts), hosted Checkout for browsers without JavaScript, Connect Express accounts and one
// transfer per job. Everything about Stripe stays in this folder.
import Stripe from "stripe";
import { AppError } from "~/domain/app-error";
import type { HostedCheckout, NewPayment, PaymentProvider, ProviderPaymentState, ProviderWebhooks } from "./types";

function stateOf(intent: Stripe.PaymentIntent): ProviderPaymentState {
  switch (intent.status) {
    case "requires_capture":
      return "authorized";
    case "succeeded":
      return intent.latest_charge && typeof intent.latest_charge === "object" && intent.latest_charge.refunded
        ? "refunded"
        : "captured";
    case "canceled":
      return "released";
    default:
      return intent.last_payment_error ? "failed" : "requires_payment";
  }
}

function unavailable(error: unknown): AppError {
  // the card provider's own message for card errors; a plain outage otherwise
  if (error instanceof Stripe.errors.StripeCardError) return new AppError("invalid", error.message, { cause: error });
  return new AppError("unavailable", "The payment service is unavailable right now. Please try again.", { cause: error });
}

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  readonly stripe: Stripe;

  constructor(secretKey: string) {
    this.stripe = new Stripe(secretKey, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 1 });
  }

  async createPayment(input: NewPayment) {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: "usd",
          capture_method: "manual",
          description: input.description,
          receipt_email: input.customerEmail ?? undefined,
          metadata: { jobId: String(input.jobId) },
          automatic_payment_methods: { enabled: true, allow_redirects: "never" },
        },
        { idempotencyKey: `job-${input.jobId}-amount-${input.amountCents}` },
      );
      return { providerPaymentId: intent.id, clientSecret: intent.client_secret ?? "" };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async getPayment(providerPaymentId: string) {
    try {
      const intent = await this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ["latest_charge"] });
      const jobId = Number(intent.metadata?.jobId);
      return { state: stateOf(intent), amountCents: intent.amount, jobId: Number.isSafeInteger(jobId) ? jobId : null };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async capture(providerPaymentId: string) {
    try {
      await this.stripe.paymentIntents.capture(providerPaymentId, {}, { idempotencyKey: `capture-${providerPaymentId}` });
    } catch (error) {
      throw unavailable(error);
    }
  }

  async release(providerPaymentId: string) {
    try {
      await this.stripe.paymentIntents.cancel(providerPaymentId, {}, { idempotencyKey: `release-${providerPaymentId}` });
    } catch (error) {
      throw unavailable(error);
    }
  }

  async refund(input: { providerPaymentId: string; amountCents: number; idempotencyKey: string }) {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.providerPaymentId, amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      return { refundId: refund.id };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async createConnectedAccount(input: { userId: number; email: string }) {
    try {
      const account = await this.stripe.accounts.create(
        {
          type: "express",
          email: input.email,
          capabilities: { transfers: { requested: true } },
          metadata: { userId: String(input.userId) },
        },
        { idempotencyKey: `connect-user-${input.userId}` },
      );
      return { accountId: account.id };
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Account links are single-use and expire within minutes: a fresh one for every visit. */
  async onboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }) {
    try {
      const link = await this.stripe.accountLinks.create({
        account: input.accountId,
        type: "account_onboarding",
        return_url: input.returnUrl,
        refresh_url: input.refreshUrl,
      });
      return link.url;
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Ready when Stripe has the owner's details and payouts to their bank are enabled. */
  async accountReady(accountId: string) {
    try {
      const account = await this.stripe.accounts.retrieve(accountId);
      return Boolean(account.details_submitted && account.payouts_enabled);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async transfer(input: { jobId: number; amountCents: number; destination: string }) {
    try {
      const transfer = await this.stripe.transfers.create(
        {
          amount: input.amountCents,
          currency: "usd",
          destination: input.destination,
          transfer_group: `job-${input.jobId}`,
          metadata: { jobId: String(input.jobId) },
        },
        { idempotencyKey: `payout-job-${input.jobId}` },
      );
      return { transferId: transfer.id };
    } catch (error) {
      // a refusal, not an outage: Stripe's own reason is kept on the failed payout for the owner
      if (error instanceof Stripe.errors.StripeInvalidRequestError)
        throw new AppError("unavailable", error.message, { cause: error });
      throw unavailable(error);
    }
  }

  /** The transfer made for the job (its transfer group), whoever's request made it. */
  async transferOf(jobId: number) {
    try {
      const found = await this.stripe.transfers.list({ transfer_group: `job-${jobId}`, limit: 1 });
      const transfer = found.data[0];
      return transfer ? { transferId: transfer.id } : null;
    } catch (error) {
      throw unavailable(error);
    }
  }

  async reversedCentsOf(transferId: string) {
    try {
      return (await this.stripe.transfers.retrieve(transferId)).amount_reversed;
    } catch (error) {
      throw unavailable(error);
    }
  }

  async reverseTransfer(input: { transferId: string; amountCents: number; idempotencyKey: string }) {
    try {
      const reversal = await this.stripe.transfers.createReversal(
        input.transferId,
        { amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      return { reversalId: reversal.id };
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Hosted checkout for browsers without JavaScript: card authorised, captured later. */
  readonly hostedCheckout: HostedCheckout = {
    start: async (input) => {
      try {
        const session = await this.stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                quantity: 1,
                price_data: { currency: "usd", unit_amount: input.amountCents, product_data: { name: input.description } },
              },
            ],
            payment_intent_data: { capture_method: "manual", metadata: { jobId: String(input.jobId) } },
            metadata: { jobId: String(input.jobId) },
            customer_email: input.customerEmail ?? undefined,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: `checkout-job-${input.jobId}-amount-${input.amountCents}` },
        );
        if (!session.url) throw new Error("checkout session without url");
        return session.url;
      } catch (error) {
        throw unavailable(error);
      }
    },

    /** The payment intent a completed checkout session made, or null while unpaid. */
    paymentOf: async (sessionId) => {
      try {
        const session = await this.stripe.checkout.sessions.retrieve(sessionId);
        const intent = session.payment_intent;
        return typeof intent === "string" ? intent : (intent?.id ?? null);
      } catch (error) {
        throw unavailable(error);
      }
    },
  };

  readonly webhooks: ProviderWebhooks = {
    /** A webhook event whose signature checks out, or AppError("invalid"). */
    verify: (payload, signature, secret) => {
      try {
        return this.stripe.webhooks.constructEvent(payload, signature ?? "", secret);
      } catch (error) {
        throw new AppError("invalid", "Invalid signature.", { cause: error });
      }
    },
  };
}
