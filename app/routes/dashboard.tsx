import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "~/components/link";
import { OrderActions } from "~/components/order-actions";
import { PageLinks } from "~/components/page-links";
import { buttonActions, reviewPath } from "~/domain/job-lifecycle";
import { reviewLinkLabel } from "~/domain/reviews";
import { CONTACT_PRINTER_STATUSES, CUSTOMER_TABS, statusLabelFor, type CustomerTab } from "~/domain/job-status";
import { customerJobCounts, listCustomerJobs } from "~/services/orders/jobs.server";
import { listPage } from "~/domain/paging";
import { reviewLinksOf } from "~/services/printer-reviews.server";
import { formatCents } from "~/domain/money";
import { copiesText } from "~/domain/design-scale";
import { designPriceText } from "~/domain/price-range";
import { draftPrices } from "~/services/designs/draft-prices.server";
import { listDrafts } from "~/services/designs/drafts.server";
import { LocalTime } from "~/components/local-time";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("tab");
  const tab: CustomerTab = CUSTOMER_TABS.some((t) => t.id === requested) ? (requested as CustomerTab) : "active";
  // the stat cards count what the tabs list: one definition of an order, of active and of completed
  const { spentCents, ...counts } = await customerJobCounts(user.id);
  const stats = { totalOrders: counts.all, active: counts.active, completed: counts.completed, totalSpentCents: spentCents };
  // newest first, a page at a time: a customer's history has no end
  const paging = listPage(url.searchParams.get("page"), counts[tab]);
  const shown = await listCustomerJobs(user.id, tab, paging);
  // a draft on this page shows the price it would really cost, as /upload and /saved-prints do
  const draftIds = new Set(shown.filter((j) => j.status === "draft").map((j) => j.id));
  const drafts = draftIds.size > 0 ? (await listDrafts(user.id)).filter((draft) => draftIds.has(draft.id)) : [];
  const prices = await draftPrices(drafts, user);
  const reviews = await reviewLinksOf(user.id, shown);
  return {
    name: user.firstName || user.username,
    // a new account has nothing to come back to yet
    returning: counts.all > 0,
    tab,
    stats,
    counts,
    page: paging.page,
    pageCount: paging.pageCount,
    jobs: shown.map((j) => ({
      ...j,
      actions: j.status === "draft" ? [] : buttonActions(j.status, "customer", j.deliveryMethod),
      price: prices.has(j.id) ? designPriceText(prices.get(j.id)!) : formatCents(j.amountDueCents || j.totalCostCents),
      review: reviews.get(j.id) ?? null,
    })),
  };
}

const STAT_CARDS = [
  { key: "totalOrders", label: "Total Orders" },
  { key: "active", label: "Active" },
  { key: "completed", label: "Completed" },
  { key: "totalSpentCents", label: "Total Spent" },
] as const;

export default function Dashboard() {
  const { name, returning, tab, stats, counts, jobs, page, pageCount } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="container-page py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">
            {returning ? "Welcome back" : "Welcome"}, {name}
          </h1>
          <p className="text-slate-600">Your designs, orders and prints in one place.</p>
        </div>
        <Link to="/upload" className="btn-primary">
          Upload Design
        </Link>
      </div>

      <dl className="mt-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        {STAT_CARDS.map((card) => (
          <div key={card.key} className="card p-4">
            <dt className="text-sm text-slate-500">{card.label}</dt>
            <dd className="mt-1 text-2xl font-semibold" data-testid={`stat-${card.key}`}>
              {card.key === "totalSpentCents" ? formatCents(stats.totalSpentCents) : stats[card.key]}
            </dd>
          </div>
        ))}
      </dl>

      <nav aria-label="Order tabs" className="mt-8 flex gap-1 overflow-x-auto border-b border-slate-200">
        {CUSTOMER_TABS.map((t) => (
          <Link
            key={t.id}
            to={`/dashboard?tab=${t.id}`}
            aria-current={t.id === tab ? "page" : undefined}
            className={`whitespace-nowrap border-b-2 px-4 py-2 text-sm font-medium ${t.id === tab ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {t.label} <span className="text-slate-500">({counts[t.id]})</span>
          </Link>
        ))}
      </nav>

      {jobs.length === 0 ? (
        <div className="card mt-6 p-10 text-center text-slate-600">
          <p>{tab === "drafts" ? "No saved drafts yet." : "No orders here yet."}</p>
          <Link to="/upload" className="btn-primary mt-4">
            Upload a design
          </Link>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 md:grid-cols-2">
          {jobs.map((job) => (
            <li key={job.id} className="card p-4" data-testid="job-card">
              <div className="flex items-start justify-between gap-2">
                <div>
                  <p className="font-medium">{job.fileName}</p>
                  <p className="text-sm text-slate-500">
                    {copiesText(job.quantity)} · {job.material} · {job.filamentColor}
                    {job.printerName ? ` · ${job.printerName}` : ""}
                  </p>
                </div>
                <span className="badge bg-slate-100 text-slate-700">{statusLabelFor(job.status, job.deliveryMethod)}</span>
              </div>
              <div className="mt-3 flex items-center justify-between text-sm">
                <span className="text-slate-500">
                  <LocalTime value={job.createdAt} dateOnly />
                </span>
                <span className="font-semibold" data-testid="job-price">
                  {job.price}
                  {job.refundedCents ? ` (refunded ${formatCents(job.refundedCents)})` : ""}
                </span>
              </div>
              {job.status === "printing" ? (
                <p className="mt-2 text-sm text-slate-600">Estimated completion in 6-12 hours</p>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2">
                {job.status === "draft" ? (
                  <Link to={`/upload?draft=${job.id}`} className="btn-secondary">
                    Edit Draft
                  </Link>
                ) : (
                  <Link to={`/order/${job.id}`} className="btn-secondary">
                    View Order
                  </Link>
                )}
                {job.status === "submitted" ? (
                  <Link to={`/checkout?orderId=${job.id}`} reloadDocument className="btn-primary">
                    Pay now
                  </Link>
                ) : null}
                {CONTACT_PRINTER_STATUSES.includes(job.status) ? (
                  <Link to={`/messages?jobId=${job.id}`} className="btn-secondary">
                    Contact Printer
                  </Link>
                ) : null}
                {job.review ? (
                  <Link to={reviewPath(job.id)} className="btn-secondary">
                    {reviewLinkLabel(job.review.reviewed)}
                  </Link>
                ) : null}
                {job.status === "ready_for_pickup" || job.status === "ready_for_shipping" ? (
                  <Link to={`/messages?jobId=${job.id}`} className="btn-secondary">
                    Arrange Pickup
                  </Link>
                ) : null}
              </div>
              <div className="mt-2">
                <OrderActions
                  jobId={job.id}
                  actions={job.actions}
                  deliveryMethod={job.deliveryMethod}
                  redirectTo={`/dashboard?tab=${tab}`}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <PageLinks search={location.search} page={page} pageCount={pageCount} />
    </div>
  );
}
