// Picks the payment provider: the built-in test provider (the default, "Test mode: no real charge") or
// Stripe when STRIPE_SECRET_KEY is set; both implement the interface in types.ts. Our own records
// (payments, payouts) are kept by app/services/payments/records.server.ts the same way for both.
import type { PaymentProvider } from "./types";

let cached: { key: string; provider: PaymentProvider } | null = null;

/** The configured provider: Stripe with STRIPE_SECRET_KEY, the test provider otherwise. */
export async function getPaymentProvider(): Promise<PaymentProvider> {
  const key = process.env.STRIPE_SECRET_KEY ?? "";
  if (cached?.key === key) return cached.provider;
  const provider = key
    ? new (await import("./stripe-provider.server")).StripeProvider(key)
    : new (await import("./test-provider.server")).TestPaymentProvider();
  cached = { key, provider };
  return provider;
}

export function stripePublishableKey(): string | null {
  return process.env.STRIPE_SECRET_KEY ? process.env.STRIPE_PUBLISHABLE_KEY || null : null;
}
