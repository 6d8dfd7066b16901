// /order-confirmation?orderId=: after payment. A return from
// the card provider is confirmed from the provider's own record, never from the URL alone. It says
// "Payment Successful" only for a paid order (confirmed or later, not cancelled or rejected); any
// other order shows its true state.
import { copiesText } from "~/domain/design-scale";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OrderSummary } from "~/components/order-summary";
import { PAID_STATUSES, statusLabelFor, type JobStatus } from "~/domain/job-status";
import { deliveryLine } from "~/domain/shipping";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { confirmReturnedPayment } from "~/services/orders/payment-flows.server";
import { invariantResponse, parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Order Confirmation | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const q = new URL(request.url).searchParams;
  const orderId = parseId(q.get("orderId"));
  invariantResponse(orderId, "Order not found", { status: 404 });
  await confirmReturnedPayment(user.id, orderId, { sessionId: q.get("session_id"), paymentIntentId: q.get("payment_intent") });
  const view = await getOrderForViewer(orderId, user.id);
  invariantResponse(view?.viewerRole === "customer", "Order not found", { status: 404 });
  const { job } = view;
  return {
    id: job.id,
    status: job.status,
    statusLabel: statusLabelFor(job.status, job.deliveryMethod),
    paid: PAID_STATUSES.includes(job.status),
    fileName: job.fileName,
    printerName: view.printer?.name ?? "",
    material: job.material,
    filamentColor: job.filamentColor,
    quantity: job.quantity,
    deliveryMethod: job.deliveryMethod,
    summary: {
      printCost: job.printerProfitCents,
      platformFee: job.platformFeeCents,
      delivery: deliveryLine(job),
      total: job.amountDueCents,
    },
  };
}

const NOT_PAID_TEXT: Partial<Record<JobStatus, string>> = {
  draft: "This order hasn't been placed yet.",
  cancelled: "This order was cancelled. Any payment on it was released or refunded.",
  rejected: "The printer declined this order. Your card was not charged.",
};

export default function OrderConfirmation() {
  const d = useLoaderData<typeof loader>();
  if (!d.paid && d.status !== "submitted") {
    return (
      <div className="container-page py-16 text-center">
        <h1 className="text-2xl font-bold">Order {d.statusLabel}</h1>
        <p className="mt-2 text-slate-600">{NOT_PAID_TEXT[d.status] ?? `This order is ${d.statusLabel.toLowerCase()}.`}</p>
        <Link to={`/order/${d.id}`} className="btn-primary mt-6">
          View Order
        </Link>
      </div>
    );
  }
  if (!d.paid) {
    return (
      <div className="container-page py-16 text-center">
        <h1 className="text-2xl font-bold">Payment pending</h1>
        <p className="mt-2 text-slate-600">We haven't received the payment for this order yet.</p>
        <Link to={`/checkout?orderId=${d.id}`} reloadDocument className="btn-primary mt-6">
          Go to checkout
        </Link>
      </div>
    );
  }
  return (
    <div className="container-page max-w-2xl py-12">
      <div className="card p-6 text-center">
        <h1 className="text-2xl font-bold">Payment Successful</h1>
        <p className="mt-1 text-slate-600">Your order has been confirmed!</p>
      </div>
      <section className="card mt-6 p-6" aria-labelledby="order-details">
        <h2 id="order-details" className="font-semibold">
          Order #{d.id}
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          {d.fileName} · {copiesText(d.quantity)} · {d.material} · {d.filamentColor} · {d.printerName}
        </p>
        <div className="mt-3" data-testid="confirmation-summary">
          <OrderSummary
            rows={[
              { label: "Print service", cents: d.summary.printCost },
              { label: "Platform fee", cents: d.summary.platformFee },
              { label: d.summary.delivery.label, cents: d.summary.delivery.cents, free: d.summary.delivery.free },
            ]}
            totalCents={d.summary.total}
          />
        </div>
        <h2 className="mt-4 font-semibold">Next steps</h2>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
          <li>The printer owner reviews your order. Your card is charged only when they accept it.</li>
          <li>Expect your print to be completed in 2-3 business days.</li>
          <li>
            {d.deliveryMethod === "pickup"
              ? "We'll tell you when it is ready for pickup."
              : "We'll tell you when it is on its way."}
          </li>
        </ol>
        <div className="mt-6 flex gap-2">
          <Link to={`/order/${d.id}`} className="btn-primary">
            View Order
          </Link>
          <Link to="/dashboard" className="btn-secondary">
            Go to Dashboard
          </Link>
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
