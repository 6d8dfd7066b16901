// The printer dashboard's order side: stat cards, New Order Requests (paid, awaiting an answer),
// Active Orders with their next step, Completed Orders, and each printer's queue.
import { copiesText } from "~/domain/design-scale";
import { Link } from "./link";
import { buttonActions } from "~/domain/job-lifecycle";
import { statusLabelFor, type JobStatus } from "~/domain/job-status";
import { formatCents } from "~/domain/money";
import type { DeliveryMethod } from "~/domain/pricing";
import { OrderActions } from "./order-actions";
import { formatGrams } from "~/domain/grams";

export interface OwnerOrderRow {
  id: number;
  fileName: string;
  status: JobStatus;
  material: string;
  filamentColor: string;
  deliveryMethod: DeliveryMethod;
  weightGrams: number;
  quantity: number;
  printerId: number | null;
  printerName: string | null;
  customerName: string;
  totalCents: number;
  earningsCents: number;
  trackingNumber: string | null;
}

export interface OwnerOrdersData {
  /** completed: all of them, of which `completed` below holds the newest */
  stats: { pending: number; earningsCents: number; totalJobs: number; completed: number };
  requests: OwnerOrderRow[];
  active: OwnerOrderRow[];
  completed: OwnerOrderRow[];
}

export function OwnerStatCards({ stats }: { stats: OwnerOrdersData["stats"] }) {
  const cards = [
    { key: "pendingOrders", label: "Pending Orders", value: String(stats.pending) },
    { key: "totalEarnings", label: "Total Earnings", value: formatCents(stats.earningsCents) },
    { key: "totalJobs", label: "Total Jobs", value: String(stats.totalJobs) },
  ];
  return (
    <>
      {cards.map((c) => (
        <div key={c.key} className="card p-4">
          <dt className="text-sm text-slate-500">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold" data-testid={`stat-${c.key}`}>
            {c.value}
          </dd>
        </div>
      ))}
    </>
  );
}

function OrderRow({ order, withActions }: { order: OwnerOrderRow; withActions: boolean }) {
  return (
    <li className="card space-y-3 p-4" data-testid="owner-order">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <Link to={`/order/${order.id}`} className="font-medium hover:underline">
            #{order.id} {order.fileName}
          </Link>
          <p className="text-sm text-slate-500">
            {order.customerName} · {copiesText(order.quantity)} · {order.material} · {order.filamentColor} ·{" "}
            {formatGrams(order.weightGrams)} g ·{" "}
            {order.deliveryMethod === "pickup" ? "Pickup" : order.deliveryMethod === "delivery" ? "Local delivery" : "Shipping"} ·{" "}
            {order.printerName}
          </p>
          {order.trackingNumber ? <p className="text-sm text-slate-500">Tracking: {order.trackingNumber}</p> : null}
        </div>
        <div className="text-right">
          <span className="badge bg-slate-100 text-slate-700" data-testid="owner-order-status">
            {statusLabelFor(order.status, order.deliveryMethod)}
          </span>
          <p className="mt-1 text-sm font-semibold">You earn {formatCents(order.earningsCents)}</p>
        </div>
      </div>
      {withActions ? (
        <OrderActions
          jobId={order.id}
          actions={buttonActions(order.status, "owner", order.deliveryMethod)}
          deliveryMethod={order.deliveryMethod}
          redirectTo="/printer-dashboard"
        />
      ) : null}
    </li>
  );
}

export function OwnerOrderSections({ data, printers }: { data: OwnerOrdersData; printers: { id: number; name: string }[] }) {
  return (
    <>
      <section className="mt-8" aria-labelledby="new-requests">
        <h2 id="new-requests" className="text-xl font-semibold">
          New Order Requests
        </h2>
        {data.requests.length === 0 ? (
          <p className="mt-2 text-slate-600">No new requests. Paid orders for your printers appear here.</p>
        ) : (
          <ul className="mt-4 grid gap-4 lg:grid-cols-2">
            {data.requests.map((o) => (
              <OrderRow key={o.id} order={o} withActions />
            ))}
          </ul>
        )}
      </section>
      {data.active.length ? (
        <section className="mt-8" aria-labelledby="active-orders">
          <h2 id="active-orders" className="text-xl font-semibold">
            Active Orders
          </h2>
          <ul className="mt-4 grid gap-4 lg:grid-cols-2">
            {data.active.map((o) => (
              <OrderRow key={o.id} order={o} withActions />
            ))}
          </ul>
        </section>
      ) : null}
      <section className="mt-8" aria-labelledby="completed-orders">
        <h2 id="completed-orders" className="text-xl font-semibold">
          Completed Orders
        </h2>
        {data.completed.length === 0 ? (
          <p className="mt-2 text-slate-600">No completed orders yet.</p>
        ) : (
          <ul className="mt-4 grid gap-4 lg:grid-cols-2">
            {data.completed.map((o) => (
              <OrderRow key={o.id} order={o} withActions={false} />
            ))}
          </ul>
        )}
        {data.stats.completed > data.completed.length ? (
          <p className="mt-3 text-sm text-slate-600" data-testid="completed-orders-more">
            The newest {data.completed.length} of {data.stats.completed} are shown.{" "}
            <Link to="/printer-tracking" className="text-brand-700 underline">
              All completed orders are in Order Tracking
            </Link>
            .
          </p>
        ) : null}
      </section>
      {printers.length ? (
        <section className="mt-8" aria-labelledby="queues">
          <h2 id="queues" className="text-xl font-semibold">
            Printer queues
          </h2>
          <div className="mt-4 grid gap-4 lg:grid-cols-2">
            {printers.map((p) => {
              const queue = data.active.filter(
                (o) => o.printerId === p.id && (o.status === "accepted" || o.status === "printing"),
              );
              const pending = data.requests.filter((o) => o.printerId === p.id);
              return (
                <details key={p.id} className="card p-4" data-testid="printer-queue">
                  <summary className="cursor-pointer font-medium">
                    View Queue: {p.name} ({queue.length} in queue, {pending.length} pending)
                  </summary>
                  <ol className="mt-2 list-decimal pl-5 text-sm">
                    {queue.map((o) => (
                      <li key={o.id}>
                        {o.fileName} ({statusLabelFor(o.status, o.deliveryMethod)})
                      </li>
                    ))}
                  </ol>
                  {pending.length ? (
                    <p className="mt-2 text-sm text-slate-600">Pending: {pending.map((o) => o.fileName).join(", ")}</p>
                  ) : null}
                </details>
              );
            })}
          </div>
        </section>
      ) : null}
    </>
  );
}
