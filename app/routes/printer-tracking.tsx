// /printer-tracking ("Order Tracking and Payouts", docs/decisions/014 and 023): all of the
// owner's printers. Stat cards, tabs Pickup Orders / Shipping Orders / Payouts, Connect Stripe (in
// test mode an instant test account) and Request Payout once per picked-up or shipped job.
import { copiesText } from "~/domain/design-scale";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { PageLinks } from "~/components/page-links";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { isAppError } from "~/domain/app-error";
import { statusLabelFor, type TrackingTab } from "~/domain/job-status";
import { listPage } from "~/domain/paging";
import { PAYOUT_HELD_BY_CLAIM } from "~/domain/payouts";
import { ownerShareAfterRefunds } from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { listTrackedJobs, ownerStats, trackedCount } from "~/services/orders/owner-jobs.server";
import {
  connectPayoutAccount,
  payoutAccountState,
  payoutOverview,
  payoutsOf,
  requestPayout,
  requestPayoutsForAll,
  PAYOUT_WAITS_FOR_CLAIM,
} from "~/services/orders/payouts.server";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { toastOf } from "~/utils/app-error.server";
import { parseId } from "~/utils/misc";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Order Tracking and Payouts | Printnear" }];

const TABS: readonly { id: TrackingTab; label: string }[] = [
  { id: "pickup", label: "Pickup Orders" },
  { id: "shipping", label: "Shipping Orders" },
  { id: "payouts", label: "Payouts" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const query = new URL(request.url).searchParams;
  const asked = query.get("tab");
  const tab = TABS.find((t) => t.id === asked)?.id ?? "pickup";
  const stats = await ownerStats(user.id);
  if (stats.printers === 0) return { hasPrinter: false as const };
  // newest first, a page at a time: a busy owner's history has no end (the cards count all of it)
  const paging = listPage(query.get("page"), trackedCount(stats, tab));
  const jobs = await listTrackedJobs(user.id, tab, paging);
  const shownIds = jobs.map((j) => j.id);
  const paid = new Map((await payoutsOf(user.id, shownIds)).map((p) => [p.jobId, p]));
  const row = (j: (typeof jobs)[number]) => ({
    id: j.id,
    fileName: j.fileName,
    customerName: [j.customerFirstName, j.customerLastName].filter(Boolean).join(" "),
    total: formatCents(j.amountDueCents),
    earnings: formatCents(ownerShareAfterRefunds(j.printerProfitCents, j.refundedCents)),
    refunded: j.refundedCents ? formatCents(j.refundedCents) : null,
    material: j.material,
    quantity: j.quantity,
    status: j.status,
    statusLabel: statusLabelFor(j.status, j.deliveryMethod),
    trackingNumber: j.trackingNumber,
    payout: paid.get(j.id)?.status ?? null,
    // the provider's refusal of the last attempt: the owner may ask again
    payoutRefusal: paid.get(j.id)?.status === "failed" ? (paid.get(j.id)?.failureMessage ?? null) : null,
  });
  const provider = await getPaymentProvider();
  const overview = tab === "payouts" ? await payoutOverview(user.id) : null;
  return {
    hasPrinter: true as const,
    tab,
    stats,
    rows: jobs.map(row),
    page: paging.page,
    pageCount: paging.pageCount,
    // what "Request payout for all" would send, and what it holds back and why
    eligibleCount: overview?.eligible.length ?? 0,
    held: (overview?.held ?? []).map((h) => ({ ...h, amount: formatCents(h.amountCents) })),
    // a saved account counts only once the provider says its setup is finished
    payoutAccount: tab === "payouts" ? await payoutAccountState(user.id) : null,
    testMode: provider.name === "test",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const back = "/printer-tracking?tab=payouts";
  try {
    if (form.get("intent") === "connect") {
      const account = await connectPayoutAccount(user, new URL(request.url).origin);
      // setup unfinished: on to the provider's onboarding (again, for an account started before)
      if (!account.ready) throw redirect(account.onboardingUrl);
      return redirectWithToast(back, { title: "Stripe Account Created", description: "Test payout account connected." });
    }
    if (form.get("intent") === "payout-all") return redirectWithToast(back, payoutAllToast(await requestPayoutsForAll(user)));
    const jobId = parseId(form.get("jobId"));
    const payout = jobId ? await requestPayout(user, jobId) : null;
    if (!payout)
      return redirectWithToast(back, { title: "Payout Failed", description: "Order not found", variant: "destructive" });
    return redirectWithToast(back, {
      title: "Payout Requested",
      description: "waiting" in payout ? PAYOUT_WAITS_FOR_CLAIM : `${formatCents(payout.amountCents)} is on its way.`,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return redirectWithToast(back, toastOf(error, form.get("intent") === "connect" ? "Connection Failed" : "Payout Failed"));
  }
}

/** The toast after "Request payout for all": what was sent; what was refused or held is listed on the page. */
function payoutAllToast(result: Awaited<ReturnType<typeof requestPayoutsForAll>>) {
  const { paid, failed, held } = result;
  const total = formatCents(paid.reduce((sum, p) => sum + p.amountCents, 0));
  const notes = [
    failed.length > 0 ? `${failed.length} refused by the payment provider.` : "",
    held.length > 0 ? `${held.length} on hold.` : "",
  ].filter(Boolean);
  if (paid.length === 0) {
    return {
      title: "No Payouts Sent",
      description: ["No order was ready for a payout.", ...notes].join(" "),
      variant: "destructive" as const,
    };
  }
  const sent = `${paid.length} ${paid.length === 1 ? "payout" : "payouts"} (${total}) on the way.`;
  return { title: "Payouts Requested", description: [sent, ...notes].join(" ") };
}

export default function PrinterTracking() {
  const d = useLoaderData<typeof loader>();
  const location = useLocation();
  if (!d.hasPrinter) {
    return (
      <div className="container-page py-16 text-center">
        <h1 className="text-2xl font-bold">No Printer Registered</h1>
        <p className="mt-2 text-slate-600">List a printer to receive orders and payouts.</p>
        <Link to="/printer-dashboard" className="btn-primary mt-6">
          Go to Dashboard
        </Link>
      </div>
    );
  }
  const cards = [
    { label: "Pickup Orders", value: String(d.stats.pickupOrders) },
    { label: "Shipping Orders", value: String(d.stats.shippingOrders) },
    { label: "Completed", value: String(d.stats.completed) },
    { label: "Earnings", value: formatCents(d.stats.earningsCents) },
  ];
  return (
    <div className="container-page py-8">
      <h1 className="text-2xl font-bold">Order Tracking and Payouts</h1>
      <dl className="mt-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="card p-4">
            <dt className="text-sm text-slate-500">{c.label}</dt>
            <dd className="mt-1 text-2xl font-semibold">{c.value}</dd>
          </div>
        ))}
      </dl>
      <nav aria-label="Tracking tabs" className="mt-8 flex gap-1 border-b border-slate-200">
        {TABS.map((t) => (
          <Link
            key={t.id}
            to={`/printer-tracking?tab=${t.id}`}
            aria-current={t.id === d.tab ? "page" : undefined}
            className={`border-b-2 px-4 py-2 text-sm font-medium ${t.id === d.tab ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600"}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {d.tab === "payouts" && d.payoutAccount !== "ready" ? (
        <Form method="post" className="card mt-6 flex flex-wrap items-center justify-between gap-4 p-4">
          <p className="text-sm text-slate-700">
            {d.payoutAccount === "pending"
              ? "Your Stripe account isn't ready for payouts yet: finish its setup to receive your earnings."
              : "Connect a payout account to receive your earnings."}
            {d.testMode ? " Test mode: an instant test account, no real money." : ""}
          </p>
          <button type="submit" name="intent" value="connect" className="btn-primary">
            {d.payoutAccount === "pending" ? "Continue Stripe setup" : "Connect Stripe"}
          </button>
        </Form>
      ) : null}
      {d.tab === "payouts" && d.payoutAccount === "ready" && d.eligibleCount > 0 ? (
        <Form method="post" className="card mt-6 flex flex-wrap items-center justify-between gap-4 p-4">
          <p className="text-sm text-slate-700">
            {d.eligibleCount} {d.eligibleCount === 1 ? "order is" : "orders are"} ready for a payout: one transfer each.
          </p>
          <button type="submit" name="intent" value="payout-all" className="btn-primary">
            Request payout for all
          </button>
        </Form>
      ) : null}
      {d.rows.length === 0 ? (
        <p className="mt-6 text-slate-600">Nothing here yet.</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {d.rows.map((r) => (
            <li key={r.id} className="card flex flex-wrap items-center justify-between gap-3 p-4" data-testid="tracking-row">
              <div>
                <Link to={`/order/${r.id}`} className="font-medium hover:underline">
                  {r.fileName}
                </Link>
                <p className="text-sm text-slate-500">
                  {r.customerName} · {r.total} · {copiesText(r.quantity)} · {r.material}
                  {r.trackingNumber ? ` · tracking ${r.trackingNumber}` : ""}
                  {r.refunded ? ` · refunded ${r.refunded}` : ""}
                </p>
                {d.tab === "payouts" && r.payoutRefusal ? (
                  <p className="text-sm text-red-700">Last payout attempt refused: {r.payoutRefusal}</p>
                ) : null}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <span className="badge bg-slate-100 text-slate-700">{r.statusLabel}</span>
                <Link to={`/messages?jobId=${r.id}`} className="btn-secondary">
                  Message
                </Link>
                {d.tab === "payouts" ? (
                  r.payout === "paid" ? (
                    <span className="badge bg-green-100 text-green-800">Paid out {r.earnings}</span>
                  ) : // a payout held by a claim may still be asked for: the request waits for the claim
                  d.held.some((h) => h.jobId === r.id && h.holdReason !== PAYOUT_HELD_BY_CLAIM) ? (
                    <span className="badge bg-amber-100 text-amber-900">On hold</span>
                  ) : d.payoutAccount === "ready" ? (
                    <Form method="post">
                      <input type="hidden" name="jobId" value={r.id} />
                      <button type="submit" name="intent" value="payout" className="btn-primary">
                        Request Payout ({r.earnings})
                      </button>
                    </Form>
                  ) : null
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <PageLinks search={location.search} page={d.page} pageCount={d.pageCount} />
      {d.held.length > 0 ? (
        <section aria-labelledby="held-heading" className="mt-8">
          <h2 id="held-heading" className="text-lg font-semibold">
            On hold
          </h2>
          <ul className="mt-3 space-y-2" data-testid="held-payouts">
            {d.held.map((h) => (
              <li key={h.jobId} className="card p-3 text-sm">
                <Link to={`/order/${h.jobId}`} className="font-medium hover:underline">
                  {h.fileName}
                </Link>{" "}
                · {h.amount}
                <p className="text-slate-600">{h.holdReason}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
