import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { STATUS_LABELS } from "~/domain/job-status";
import { formatCents } from "~/domain/money";
import { isJobStatus, listOrders } from "~/services/admin/orders.server";
import { requireAdmin } from "~/utils/admin.server";
import { LocalTime } from "~/components/local-time";
import { parseId } from "~/utils/misc";
import { JOB_STATUSES } from "~/domain/job-status";

export const meta: MetaFunction = () => [{ title: "All Orders | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const status = url.searchParams.get("status");
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const page = parseId(url.searchParams.get("page")) ?? 1;
  const result = await listOrders({ status: isJobStatus(status) ? status : null, q, page });
  return { ...result, status: isJobStatus(status) ? status : "", q };
}

export default function AdminOrders() {
  const { orders, hasMore, page, status, q } = useLoaderData<typeof loader>();
  const pageLink = (n: number) => `?${new URLSearchParams({ status, q, page: String(n) })}`;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">All Orders</h1>
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="block font-medium">Status</span>
          <select name="status" defaultValue={status} className="rounded border border-slate-300 px-2 py-1.5">
            <option value="">All (no drafts)</option>
            {JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium">Search</span>
          <input
            name="q"
            defaultValue={q}
            placeholder="Order #, customer, printer, file"
            className="rounded border border-slate-300 px-2 py-1.5"
          />
        </label>
        <button className="rounded bg-blue-600 px-4 py-2 text-sm text-white">Filter</button>
      </Form>
      {orders.length === 0 ? (
        <p className="text-slate-600">No orders match.</p>
      ) : (
        // a phone scrolls the table, not the page
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b text-slate-600">
              <tr>
                <th className="py-2">Order</th>
                <th>Status</th>
                <th>Customer</th>
                <th>Printer</th>
                <th>Amount</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id} className="border-b border-slate-100">
                  <td className="py-2">
                    <Link to={`/admin/orders/${o.id}`} className="text-blue-700 hover:underline">
                      #{o.id} {o.fileName}
                    </Link>
                  </td>
                  <td>{STATUS_LABELS[o.status]}</td>
                  <td>{o.customer}</td>
                  <td>{o.printer ?? "—"}</td>
                  <td>{formatCents(o.amountDueCents)}</td>
                  <td>
                    <LocalTime value={o.createdAt} dateOnly />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex gap-3 text-sm">
        {page > 1 ? <Link to={pageLink(page - 1)}>← Newer</Link> : null}
        {hasMore ? <Link to={pageLink(page + 1)}>Older →</Link> : null}
      </div>
    </div>
  );
}
