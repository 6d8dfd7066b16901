import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { JobProgress } from "~/components/job-progress";
import { STATUS_LABELS } from "~/domain/job-status";
import { formatCents } from "~/domain/money";
import { getAdminOverview } from "~/services/admin/overview.server";
import { requireAdmin } from "~/utils/admin.server";
import { LocalTime } from "~/components/local-time";
import type { JobStatus } from "~/domain/job-status";

export const meta: MetaFunction = () => [{ title: "Admin | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return getAdminOverview();
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Row({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="flex justify-between py-0.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

export default function AdminOverview() {
  const data = useLoaderData<typeof loader>();
  const orders = Object.entries(data.ordersByStatus);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Admin</h1>
      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
        <Card title="Users by role">
          <dl>
            <Row label="Customers" value={data.usersByRole.customers} />
            <Row label="Printer owners" value={data.usersByRole.printerOwners} />
            <Row label="Both" value={data.usersByRole.both} />
            <Row label="Admins" value={data.usersByRole.admins} />
            <Row label="Total" value={data.usersByRole.total} />
          </dl>
        </Card>
        <Card title="Printers">
          <dl>
            <Row label="Online" value={data.printers.online} />
            <Row label="Offline" value={data.printers.offline} />
          </dl>
        </Card>
        <Card title="Orders by status">
          {orders.length === 0 ? (
            <p className="text-sm text-slate-600">No orders yet</p>
          ) : (
            <dl>
              {orders.map(([status, count]) => (
                <Row key={status} label={STATUS_LABELS[status as JobStatus] ?? status} value={count} />
              ))}
            </dl>
          )}
          <Link to="/admin/orders" className="mt-2 inline-block text-sm text-blue-700 hover:underline">
            All orders
          </Link>
        </Card>
        <Card title="Money">
          <dl>
            <Row label="Held (authorised)" value={formatCents(data.money.heldCents)} />
            <Row label="Captured" value={formatCents(data.money.capturedCents)} />
            <Row label="Refunded" value={formatCents(data.money.refundedCents)} />
            <Row label="Paid out" value={formatCents(data.money.paidOutCents)} />
            <Row label="Platform fees this month" value={formatCents(data.money.platformFeesThisMonthCents)} />
          </dl>
        </Card>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Latest contact messages">
          {data.contactMessages.length === 0 ? (
            <p className="text-sm text-slate-600">No messages yet</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {data.contactMessages.map((m) => (
                <li key={m.id} className="py-2">
                  <p className="font-medium">{m.subject}</p>
                  <p className="text-slate-600">
                    {m.name} &lt;{m.email}&gt; · <LocalTime value={m.createdAt} dateOnly />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Running jobs">
          {data.runningJobs.length === 0 ? (
            <p className="text-sm text-slate-600">No jobs running</p>
          ) : (
            <ul className="space-y-3">
              {data.runningJobs.map((job) => (
                <li key={job.id}>
                  <Link to={`/admin/jobs/${job.id}`} className="block hover:bg-slate-50">
                    <JobProgress job={job} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <Link to="/admin/jobs" className="mt-2 inline-block text-sm text-blue-700 hover:underline">
            All jobs
          </Link>
        </Card>
      </div>
      <div className="flex flex-wrap gap-3 text-sm">
        <Link className="rounded border px-3 py-2 hover:bg-slate-50" to="/admin/import">
          Thingiverse Import
        </Link>
        <Link className="rounded border px-3 py-2 hover:bg-slate-50" to="/admin/newsletter">
          Newsletter Campaign
        </Link>
        <Link className="rounded border px-3 py-2 hover:bg-slate-50" to="/admin/orders">
          Orders
        </Link>
        <Link className="rounded border px-3 py-2 hover:bg-slate-50" to="/admin/jobs">
          Jobs
        </Link>
      </div>
    </div>
  );
}
