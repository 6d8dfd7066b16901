// One payment-provider interface with two implementations: the built-in test provider (the
// default, "Test mode: no real charge") and Stripe when STRIPE_SECRET_KEY is set. Our own records
// (payments, payouts) are kept by app/services/payments/records.server.ts the same way for both.

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

export interface PaymentProvider {
  readonly name: ProviderName;
  /** A payment held for manual capture; clientSecret lets the browser confirm it (Stripe Elements). */
  createPayment(input: NewPayment): Promise<{ providerPaymentId: string; clientSecret: string }>;
  /** The payment as the provider sees it now, with its amount and our job id. */
  getPayment(providerPaymentId: string): Promise<{ state: ProviderPaymentState; amountCents: number; jobId: number | null }>;
  capture(providerPaymentId: string): Promise<void>;
  /** Cancels an authorisation: the customer is never charged. */
  release(providerPaymentId: string): Promise<void>;
  refund(providerPaymentId: string): Promise<void>;
  /** A new account the owner's payouts go to (set up on the provider's onboarding pages). */
  createConnectedAccount(input: { userId: number; email: string }): Promise<{ accountId: string }>;
  /** Where the owner (re)starts or continues setting up this account; ready accounts need none. */
  onboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<string>;
  /** Whether the account can receive payouts now (its setup is finished). */
  accountReady(accountId: string): Promise<boolean>;
  /** One transfer per job: the job id is the idempotency key, so a repeat returns the same transfer. */
  transfer(input: { jobId: number; amountCents: number; destination: string }): Promise<{ transferId: string }>;
}

let override: PaymentProvider | null = null;
let cached: { key: string; provider: PaymentProvider } | null = null;

/** The configured provider: Stripe with STRIPE_SECRET_KEY, the test provider otherwise. */
export async function getPaymentProvider(): Promise<PaymentProvider> {
  if (override) return override;
  const key = process.env.STRIPE_SECRET_KEY ?? "";
  if (cached?.key === key) return cached.provider;
  const provider = key
    ? new (await import("./stripe-provider.server")).StripeProvider(key)
    : new (await import("./test-provider.server")).TestPaymentProvider();
  cached = { key, provider };
  return provider;
}

/** Tests run one flow against each provider. */
export function setPaymentProviderForTests(provider: PaymentProvider | null): void {
  override = provider;
}

export function stripePublishableKey(): string | null {
  return process.env.STRIPE_SECRET_KEY ? process.env.STRIPE_PUBLISHABLE_KEY || null : null;
}
