import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { STATUS_LABELS } from "~/domain/job-status";
import { formatCents } from "~/domain/money";
import { MONEY_REPAIR_LABELS } from "~/domain/payments";
import { getOrderForAdmin } from "~/services/admin/orders.server";
import { requireAdmin } from "~/utils/admin.server";
import { LocalTime } from "~/components/local-time";
import { invariantResponse, requireIdParam } from "~/utils/misc";
import { formatGrams } from "~/domain/grams";
import { formatMinutes } from "~/domain/format";

export const meta: MetaFunction = () => [{ title: "Order (admin) | Printnear" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getOrderForAdmin(requireIdParam(params.id));
  invariantResponse(order, "Order not found", { status: 404 });
  return order;
}

function Row({ label, value }: { label: React.ReactNode; value: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-1.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium">{value}</dd>
    </div>
  );
}

// Read-only: the admin sees any order; changes stay with its customer and printer owner.
export default function AdminOrder() {
  const { job, customerEmail, customerName, printerName, ownerEmail, payments, repairs } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-2xl space-y-4">
      <Link to="/admin/orders" className="text-sm text-blue-700 hover:underline">
        ← All orders
      </Link>
      <h1 className="text-2xl font-bold">
        Order #{job.id}: {job.fileName}
      </h1>
      <dl>
        <Row label="Status" value={STATUS_LABELS[job.status]} />
        <Row label="Customer" value={`${customerName || "—"} <${customerEmail}>`} />
        <Row label="Printer" value={printerName ? `${printerName} (${ownerEmail ?? "—"})` : "—"} />
        <Row label="Material and colour" value={`${job.material}, ${job.filamentColor}`} />
        <Row label="Delivery" value={job.deliveryMethod} />
        <Row label="Copies" value={String(job.quantity)} />
        <Row label="Weight" value={`${formatGrams(job.estimatedWeightGrams)} g`} />
        <Row label="Print time" value={formatMinutes(job.printTimeMinutes)} />
        <Row label="Printer profit" value={formatCents(job.printerProfitCents)} />
        <Row label="Platform fee" value={formatCents(job.platformFeeCents)} />
        <Row label="Delivery fee" value={formatCents(job.deliveryFeeCents)} />
        <Row label="Amount due" value={formatCents(job.amountDueCents)} />
        <Row label="Created" value={<LocalTime value={job.createdAt} />} />
        {job.trackingNumber ? <Row label="Tracking" value={job.trackingNumber} /> : null}
      </dl>
      <section>
        <h2 className="mb-2 font-semibold">Payments</h2>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600">No payments</p>
        ) : (
          <dl>
            {payments.map((p) => (
              <Row
                key={p.id}
                label={
                  <>
                    {p.provider} · <LocalTime value={p.createdAt} />
                  </>
                }
                value={`${formatCents(p.amountCents)} ${p.status}`}
              />
            ))}
          </dl>
        )}
      </section>
      <section aria-labelledby="repairs-heading">
        <h2 id="repairs-heading" className="mb-2 font-semibold">
          Repairs
        </h2>
        {repairs.length === 0 ? (
          <p className="text-sm text-slate-600">No repairs: every money step of this order finished in its own request.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="money-repairs">
            {repairs.map((r) => (
              <li key={r.id} className="flex justify-between gap-4 border-b border-slate-100 py-1.5">
                <span>
                  {MONEY_REPAIR_LABELS[r.kind]}
                  {r.detail ? <span className="text-slate-600"> · {r.detail}</span> : null}
                </span>
                <LocalTime value={r.createdAt} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
