// The payment-provider interface: what every provider does, and the capabilities only some have (optional
// members, so a flow asks `provider.hostedCheckout` instead of the provider's name or class). The factory
// that picks the configured provider is provider.server.ts; the implementations are the test provider and Stripe.

export type ProviderName = "test" | "stripe";

/** Where a payment stands at the provider. */
export type ProviderPaymentState = "requires_payment" | "authorized" | "captured" | "released" | "refunded" | "failed";

export interface CardDetails {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
}

export interface NewPayment {
  jobId: number;
  amountCents: number;
  description: string;
  customerEmail?: string | null;
}

/** Card details typed into our own checkout form (the test provider: no card network behind it). */
export interface TestCardPayments {
  /** Authorises a payment made by createPayment with the typed card; AppError("invalid") with the card's refusal. */
  authorize(providerPaymentId: string, card: CardDetails): Promise<void>;
}

/** The provider's own checkout page, for browsers without JavaScript: the card is authorised there, captured later. */
export interface HostedCheckout {
  /** The URL of a checkout page for this payment. */
  start(input: NewPayment & { successUrl: string; cancelUrl: string }): Promise<string>;
  /** The provider's payment a completed checkout page made, or null while it is unpaid. */
  paymentOf(sessionId: string): Promise<string | null>;
}

/** An event the provider posted to us. */
export interface ProviderEvent {
  id: string;
  type: string;
  data: { object: unknown };
}

export interface ProviderWebhooks {
  /** The event, once its signature checks out; AppError("invalid") otherwise. */
  verify(payload: string, signature: string | null, secret: string): ProviderEvent;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** A payment held for manual capture; clientSecret lets the browser confirm it (Stripe Elements). */
  createPayment(input: NewPayment): Promise<{ providerPaymentId: string; clientSecret: string }>;
  /** The payment as the provider sees it now, with its amount and our job id. */
  getPayment(providerPaymentId: string): Promise<{ state: ProviderPaymentState; amountCents: number; jobId: number | null }>;
  capture(providerPaymentId: string): Promise<void>;
  /** Cancels an authorisation: the customer is never charged. */
  release(providerPaymentId: string): Promise<void>;
  /** Refunds part or all of a captured payment; a repeat with the same key makes no second refund. */
  refund(input: { providerPaymentId: string; amountCents: number; idempotencyKey: string }): Promise<{ refundId: string }>;
  /** A new account the owner's payouts go to (set up on the provider's onboarding pages). */
  createConnectedAccount(input: { userId: number; email: string }): Promise<{ accountId: string }>;
  /** Where the owner (re)starts or continues setting up this account; ready accounts need none. */
  onboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<string>;
  /** Whether the account can receive payouts now (its setup is finished). */
  accountReady(accountId: string): Promise<boolean>;
  /** One transfer per job: the job id is the idempotency key, so a repeat returns the same transfer. */
  transfer(input: { jobId: number; amountCents: number; destination: string }): Promise<{ transferId: string }>;
  /** Takes back part of a transfer from the owner's account (after a refund); the key makes a repeat change nothing. */
  reverseTransfer(input: { transferId: string; amountCents: number; idempotencyKey: string }): Promise<{ reversalId: string }>;

  /** The job's transfer as the provider has it, or null when none was made (what a crash after asking left unknown). */
  transferOf?(jobId: number): Promise<{ transferId: string } | null>;
  /** How much of a transfer the provider has reversed so far (what a crash before asking for a reversal left unknown). */
  reversedCentsOf?(transferId: string): Promise<number>;
  /** The client secret of a payment it made, when known without asking: an open payment of the amount due is handed out again. */
  clientSecretOf?(providerPaymentId: string): string;
  testCard?: TestCardPayments;
  hostedCheckout?: HostedCheckout;
  webhooks?: ProviderWebhooks;
}
