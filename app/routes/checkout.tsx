// /checkout?orderId=: the order summary on the left, the card form on the
// right. Without a card provider the built-in test provider takes the card ("Test mode: no real
// charge"); with Stripe, Elements when JavaScript runs, hosted Checkout when it doesn't. The amount
// is always the order's stored amount due.
import { copiesText } from "~/domain/design-scale";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { lazy, Suspense, useEffect, useState } from "react";
import { DELIVERY_METHOD_NAMES, shippingServiceName } from "~/domain/shipping";
import { addressLines } from "~/domain/address";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, type ListOfErrors } from "~/components/forms";
import { OrderSummary } from "~/components/order-summary";
import { isAppError } from "~/domain/app-error";
import { TEST_CARD, TEST_MODE_LABEL } from "~/domain/payments";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { payWithTestCard, startHostedCheckout } from "~/services/orders/payment-flows.server";
import { getPaymentProvider, stripePublishableKey } from "~/services/payments/provider.server";
import { replyWithError } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { useIsPending } from "~/utils/misc-react";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formatCents } from "~/domain/money";

const StripeCardForm = lazy(() => import("~/components/stripe-card-form"));

export const meta: MetaFunction = () => [{ title: "Checkout | Printnear" }];

/** ?card=test: the test card's fields come filled in (the hint's button), so it works without JavaScript too. */
const FILL_TEST_CARD = "test";
const INVALID_CHECKOUT = "Invalid Checkout";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const orderId = parseId(params.get("orderId"));
  const view = orderId ? await getOrderForViewer(orderId, user.id) : null;
  if (!view || view.viewerRole !== "customer") return { invalid: true as const };
  if (view.job.status !== "submitted") throw redirect(`/order/${view.job.id}`);
  const { job } = view;
  const provider = await getPaymentProvider();
  const customerName = [view.customer.firstName, view.customer.lastName].filter(Boolean).join(" ");
  return {
    invalid: false as const,
    provider: provider.name,
    testModeLabel: TEST_MODE_LABEL,
    testCard: TEST_CARD,
    // the fields start empty: a value shown as a placeholder looks filled in and is not sent
    filled: provider.name === "test" && params.get("card") === FILL_TEST_CARD ? { ...TEST_CARD, name: customerName } : null,
    publishableKey: provider.name === "stripe" ? stripePublishableKey() : null,
    order: {
      id: job.id,
      fileName: job.fileName,
      material: job.material,
      filamentColor: job.filamentColor,
      quantity: job.quantity,
      delivery: DELIVERY_METHOD_NAMES[job.deliveryMethod],
      shippingService: job.shippingService,
      printCost: job.printerProfitCents,
      platformFee: job.platformFeeCents,
      deliveryFee: job.deliveryFeeCents,
      total: job.amountDueCents,
      printerName: view.printer?.name ?? "",
      deliveryAddress: job.deliveryAddress ? addressLines(job.deliveryAddress, { phone: true }).join(", ") : null,
    },
  };
}

// the card provider judges the card; the schema only carries the post into conform's reply
const CheckoutSchema = z.object({ intent: z.string().optional() });
/** A card's fields are never sent back in a refusal's typed values. */
const CARD_FIELDS = ["cardNumber", "expiry", "cvc", "name"];

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const orderId = parseId(new URL(request.url).searchParams.get("orderId"));
  const form = await request.formData();
  const submission = parseWithZod(form, { schema: CheckoutSchema });
  const invalid = (status: number) =>
    data({ result: submission.reply({ formErrors: [INVALID_CHECKOUT], hideFields: CARD_FIELDS }) }, { status });
  if (!orderId) return invalid(400);
  const field = (name: string) => String(form.get(name) ?? "").slice(0, 100);
  try {
    if (form.get("intent") === "hosted") {
      const url = await startHostedCheckout(user, orderId, new URL(request.url).origin);
      if (!url) return invalid(404);
      return redirect(url);
    }
    const result = await payWithTestCard(user.id, orderId, {
      cardNumber: field("cardNumber"),
      expiry: field("expiry"),
      cvc: field("cvc"),
      name: field("name"),
    });
    if (!result) return invalid(404);
    return redirectWithToast(`/order-confirmation?orderId=${orderId}`, {
      title: "Payment Successful",
      description: "Your order has been confirmed!",
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "conflict") return redirect(`/order/${orderId}`);
    return replyWithError(submission, error, CARD_FIELDS);
  }
}

function CardField(props: {
  name: string;
  label: string;
  defaultValue?: string;
  autoComplete: string;
  errors?: ListOfErrors;
  inputMode?: "numeric";
}) {
  return (
    <Field
      labelProps={{ children: props.label }}
      inputProps={{
        id: props.name,
        name: props.name,
        required: true,
        defaultValue: props.defaultValue,
        autoComplete: props.autoComplete,
        inputMode: props.inputMode,
        maxLength: props.name === "name" ? 100 : 23,
      }}
      errors={props.errors}
    />
  );
}

export default function Checkout() {
  const d = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.result.error ?? {};
  const pending = useIsPending();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (d.invalid) {
    return (
      <div className="container-page py-16 text-center">
        <h1 className="text-2xl font-bold">Invalid Checkout</h1>
        <p className="mt-2 text-slate-600">We couldn't find an order of yours waiting for payment.</p>
        <Link to="/dashboard" className="btn-primary mt-6">
          Go to Dashboard
        </Link>
      </div>
    );
  }
  const o = d.order;
  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">Checkout</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section className="card space-y-3 p-4" aria-labelledby="summary">
          <h2 id="summary" className="font-semibold">
            Order summary
          </h2>
          <p className="text-sm text-slate-700">
            {o.fileName} at {o.printerName}
            <br />
            <span data-testid="order-copies">{copiesText(o.quantity)}</span> · {o.material} · {o.filamentColor} · {o.delivery}
            {o.shippingService ? ` (${shippingServiceName(o.shippingService)})` : ""}
            {o.deliveryAddress ? (
              <>
                <br />
                <span data-testid="checkout-address">To: {o.deliveryAddress}</span>
              </>
            ) : null}
          </p>
          <OrderSummary
            rows={[
              { label: "Print service", cents: o.printCost },
              { label: "Platform fee", cents: o.platformFee },
              { label: o.delivery, cents: o.deliveryFee },
            ]}
            totalCents={o.total}
          />
          <p className="text-xs text-slate-500">
            Your card is authorised now and charged only when the printer accepts the order.
          </p>
        </section>

        <section className="card space-y-4 p-4" aria-labelledby="payment">
          <h2 id="payment" className="font-semibold">
            Payment
          </h2>
          {errors[""]?.length ? (
            <p role="alert" className="text-sm text-red-700">
              Payment Failed: {errors[""].join(" ")}
            </p>
          ) : null}
          {d.provider === "test" ? (
            // a new key when the test card is filled in: the fields take their new starting values
            <Form method="post" className="space-y-3" key={d.filled ? "filled" : "empty"}>
              <p className="badge bg-amber-100 text-amber-900">{d.testModeLabel}</p>
              <div
                className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
                data-testid="test-card-hint"
              >
                <p>
                  Test card: <span className="font-mono">{d.testCard.cardNumber}</span> with any future expiry and any CVC.
                </p>
                <Link
                  to={`?${new URLSearchParams({ orderId: String(o.id), card: FILL_TEST_CARD })}`}
                  replace
                  preventScrollReset
                  className="btn-secondary mt-2"
                >
                  Fill in the test card
                </Link>
              </div>
              <input type="hidden" name="intent" value="pay" />
              <CardField
                name="cardNumber"
                label="Card number"
                defaultValue={d.filled?.cardNumber}
                autoComplete="cc-number"
                inputMode="numeric"
                errors={errors.cardNumber}
              />
              <div className="grid grid-cols-2 gap-3">
                <CardField
                  name="expiry"
                  label="Expiry (MM/YY)"
                  defaultValue={d.filled?.expiry}
                  autoComplete="cc-exp"
                  errors={errors.expiry}
                />
                <CardField
                  name="cvc"
                  label="CVC"
                  defaultValue={d.filled?.cvc}
                  autoComplete="cc-csc"
                  inputMode="numeric"
                  errors={errors.cvc}
                />
              </div>
              <CardField
                name="name"
                label="Name on card"
                defaultValue={d.filled?.name}
                autoComplete="cc-name"
                errors={errors.name}
              />
              <button type="submit" className="btn-primary w-full" disabled={pending}>
                {pending ? "Processing…" : `Pay ${formatCents(o.total)}`}
              </button>
            </Form>
          ) : hydrated && d.publishableKey ? (
            <Suspense fallback={<p className="text-sm text-slate-500">Loading the secure card form…</p>}>
              <StripeCardForm publishableKey={d.publishableKey} orderId={o.id} />
            </Suspense>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="hosted" />
              <p className="text-sm text-slate-600">You'll enter your card on Stripe's secure page and come back here.</p>
              <button type="submit" className="btn-primary mt-3 w-full" disabled={pending}>
                Pay with card
              </button>
            </Form>
          )}
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
