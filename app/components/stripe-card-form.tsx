// Stripe Elements for /checkout when JavaScript runs: Stripe.js is loaded from js.stripe.com on this
// page only, and only when a publishable key is configured. The payment intent (and its amount)
// comes from our server; on success Stripe returns the customer to /order-confirmation.
import { useEffect, useRef, useState } from "react";

interface StripeElement {
  mount(el: HTMLElement): void;
  destroy(): void;
}
interface StripeElements {
  create(type: "payment"): StripeElement;
}
interface StripeJs {
  elements(options: { clientSecret: string }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    confirmParams: { return_url: string };
  }): Promise<{ error?: { message?: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

const STRIPE_JS = "https://js.stripe.com/v3/";

function loadStripeJs(): Promise<NonNullable<Window["Stripe"]>> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = STRIPE_JS;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error("Stripe.js did not load")));
    script.onerror = () => reject(new Error("Stripe.js did not load"));
    document.head.appendChild(script);
  });
}

export default function StripeCardForm({ publishableKey, orderId }: { publishableKey: string; orderId: number }) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: StripeJs; elements: StripeElements } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let element: StripeElement | null = null;
    let cancelled = false;
    (async () => {
      const response = await fetch("/api/create-payment-intent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ orderId }),
      });
      const body = (await response.json()) as { clientSecret?: string; message?: string };
      if (!response.ok || !body.clientSecret) throw new Error(body.message ?? "Failed to initialize payment. Please try again.");
      const Stripe = await loadStripeJs();
      if (cancelled || !mountRef.current) return;
      const stripe = Stripe(publishableKey);
      const elements = stripe.elements({ clientSecret: body.clientSecret });
      element = elements.create("payment");
      element.mount(mountRef.current);
      setReady({ stripe, elements });
    })().catch(() => setError("Payment Error: Failed to initialize payment. Please try again."));
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [orderId, publishableKey]);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    const result = await ready.stripe.confirmPayment({
      elements: ready.elements,
      confirmParams: { return_url: `${window.location.origin}/order-confirmation?orderId=${orderId}` },
    });
    setBusy(false);
    if (result.error) setError(`Payment Failed: ${result.error.message ?? "Your card was not charged."}`);
  }

  return (
    <form onSubmit={pay} className="space-y-3">
      <div ref={mountRef} />
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={!ready || busy}>
        {busy ? "Processing…" : "Pay now"}
      </button>
    </form>
  );
}
