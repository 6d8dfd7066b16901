// /order-confirmation?orderId= (document 001 "Order Confirmation"): after payment. A return from
// the card provider is confirmed from the provider's own record, never from the URL alone.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { formatCents } from "~/domain/money";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { confirmReturnedPayment } from "~/services/orders/payment-flows.server";
import { parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Order Confirmation | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const q = new URL(request.url).searchParams;
  const orderId = parseId(q.get("orderId"));
  if (!orderId) throw new Response("Order not found", { status: 404 });
  await confirmReturnedPayment(user.id, orderId, { sessionId: q.get("session_id"), paymentIntentId: q.get("payment_intent") });
  const view = await getOrderForViewer(orderId, user.id);
  if (!view || view.viewerRole !== "customer") throw new Response("Order not found", { status: 404 });
  const { job } = view;
  return {
    id: job.id,
    paid: job.status !== "submitted",
    fileName: job.fileName,
    printerName: view.printer?.name ?? "",
    material: job.material,
    filamentColor: job.filamentColor,
    deliveryMethod: job.deliveryMethod,
    total: formatCents(job.amountDueCents),
  };
}

export default function OrderConfirmation() {
  const d = useLoaderData<typeof loader>();
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
          {d.fileName} · {d.material} · {d.filamentColor} · {d.printerName} · total {d.total}
        </p>
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
