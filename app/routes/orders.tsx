// /orders ("My Print Orders"): the customer's orders with details and Cancel Order
// (asking first) while the order is still cancellable.
import { copiesText } from "~/domain/design-scale";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LocalTime } from "~/components/local-time";
import { OrderActions } from "~/components/order-actions";
import { buttonActions } from "~/domain/job-lifecycle";
import { CONTACT_PRINTER_STATUSES, statusLabelFor } from "~/domain/job-status";
import { formatCents } from "~/domain/money";
import { listCustomerOrders } from "~/services/orders/jobs.server";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "My Print Orders | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const orders = await listCustomerOrders(user.id);
  return {
    orders: orders.map((o) => ({
      id: o.id,
      fileName: o.fileName,
      status: o.status,
      statusLabel: statusLabelFor(o.status, o.deliveryMethod),
      material: o.material,
      filamentColor: o.filamentColor,
      quantity: o.quantity,
      deliveryMethod: o.deliveryMethod,
      printerName: o.printerName,
      total: formatCents(o.amountDueCents),
      date: o.submittedAt ?? o.createdAt,
      actions: buttonActions(o.status, "customer", o.deliveryMethod).filter((a) => a === "cancel"),
    })),
  };
}

export default function Orders() {
  const { orders } = useLoaderData<typeof loader>();
  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">My Print Orders</h1>
      {orders.length === 0 ? (
        <div className="card mt-6 p-10 text-center text-slate-600">
          <p>No orders yet.</p>
          <Link to="/upload" className="btn-primary mt-4">
            Upload a design
          </Link>
        </div>
      ) : (
        <ul className="mt-6 space-y-3">
          {orders.map((o) => (
            <li key={o.id} className="card p-4" data-testid="order-row">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="font-medium">{o.fileName}</p>
                  <p className="text-sm text-slate-500">
                    {copiesText(o.quantity)} · {o.material} · {o.filamentColor} · {o.printerName ?? "No printer"} ·{" "}
                    <LocalTime value={o.date} dateOnly />
                  </p>
                </div>
                <div className="text-right">
                  <span className="badge bg-slate-100 text-slate-700">{o.statusLabel}</span>
                  <p className="mt-1 font-semibold">{o.total}</p>
                </div>
              </div>
              <div className="mt-3 flex flex-wrap gap-2">
                <Link to={`/order/${o.id}`} className="btn-secondary">
                  Details
                </Link>
                {o.status === "submitted" ? (
                  <Link to={`/checkout?orderId=${o.id}`} reloadDocument className="btn-primary">
                    Pay now
                  </Link>
                ) : null}
                {CONTACT_PRINTER_STATUSES.includes(o.status) ? (
                  <Link to={`/messages?jobId=${o.id}`} className="btn-secondary">
                    Contact Printer
                  </Link>
                ) : null}
                <OrderActions jobId={o.id} actions={o.actions} deliveryMethod={o.deliveryMethod} redirectTo="/orders" />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
