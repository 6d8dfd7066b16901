// /order/{id}, the order detail: status, cost, details, the other party, the timeline,
// and the order's buttons for its customer or printer owner; anyone else gets Order Not Found.
// Every order button on any page posts here with an `intent` and a `redirectTo`.
import { copiesText } from "~/domain/design-scale";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/link";
import { DELIVERY_METHOD_NAMES, shippingServiceName } from "~/domain/shipping";
import { addressLines } from "~/domain/address";
import { ConversationThread } from "~/components/conversation-thread";
import { ORDER_NOT_FOUND_TEXT, OrderErrorBoundary } from "~/components/order-not-found";
import { OrderActions } from "~/components/order-actions";
import { OrderClaim } from "~/components/order-claim";
import { claimTimeline, ownerShareAfterRefunds } from "~/domain/claims";
import { formatCents } from "~/domain/money";
import { OrderSummary } from "~/components/order-summary";
import { buttonActions, JOB_ACTIONS, reviewPath, type JobAction } from "~/domain/job-lifecycle";
import { reviewLinkLabel } from "~/domain/reviews";
import { reachedOwner, statusLabelFor } from "~/domain/job-status";
import { MESSAGE_AFTER_PAYMENT, SEND_MESSAGE_INTENT } from "~/domain/messages";
import { openThread } from "~/services/conversations.server";
import { reviewLinksOf } from "~/services/printer-reviews.server";
import { getOrderForViewer } from "~/services/orders/jobs.server";
import { claimPanelOf } from "~/services/orders/claims.server";
import { LocalTime } from "~/components/local-time";
import { invariantResponse, requireIdParam, resultForIntent } from "~/utils/misc";
import { countUnreadMessages } from "~/services/notifications.server";
import { requireUser, safeRedirect } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { answerMessageForm } from "./message-form.server";
import { pageTransition } from "./orders.server";

export const meta: MetaFunction = () => [{ title: "Order | Printnear" }];

const NOT_FOUND = ORDER_NOT_FOUND_TEXT;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = requireIdParam(params.id, NOT_FOUND);
  const view = await getOrderForViewer(id, user.id);
  invariantResponse(view, NOT_FOUND, { status: 404 });
  const { job } = view;
  // the order's conversation exists once it has a printer (the viewer is a party: getOrderForViewer)
  const [thread, reviews, claim] = await Promise.all([
    view.printer && view.owner ? openThread(job.id, user.id) : { messages: [], markedRead: 0 },
    view.viewerRole === "customer" ? reviewLinksOf(user.id, [job]) : null,
    claimPanelOf(view, user.id),
  ]);
  const { messages } = thread;
  const name = (p: { firstName: string | null; lastName: string | null; username: string }) =>
    [p.firstName, p.lastName].filter(Boolean).join(" ") || p.username;
  return {
    // the header's count after this thread was marked read; the root loader's count stands when nothing was
    headerUnreadMessages: thread.markedRead > 0 ? await countUnreadMessages(user.id) : undefined,
    viewerRole: view.viewerRole,
    order: {
      id: job.id,
      status: job.status,
      statusLabel: statusLabelFor(job.status, job.deliveryMethod),
      fileName: job.fileName,
      material: job.material,
      filamentColor: job.filamentColor,
      quantity: job.quantity,
      delivery: DELIVERY_METHOD_NAMES[job.deliveryMethod],
      deliveryMethod: job.deliveryMethod,
      deliveryZip: job.deliveryZip,
      shippingService: job.shippingService ? shippingServiceName(job.shippingService) : null,
      // null unless this viewer may see it (services/orders/jobs.server.ts)
      deliveryAddress: job.deliveryAddress ? addressLines(job.deliveryAddress, { phone: true }) : null,
      trackingNumber: job.trackingNumber,
      specialInstructions: job.specialInstructions,
      ownerMessage: job.ownerMessage,
      submittedAt: job.submittedAt,
      printCost: job.printerProfitCents,
      platformFee: job.platformFeeCents,
      deliveryFee: job.deliveryFeeCents,
      total: job.amountDueCents,
      printerProfit: job.printerProfitCents,
    },
    printer: view.printer ? { name: view.printer.name, location: view.printer.location } : null,
    ownerName: view.owner ? name(view.owner) : null,
    customer: view.viewerRole === "owner" ? { name: name(view.customer), email: view.customer.email } : null,
    timeline: (
      [
        ["Submitted", job.submittedAt],
        ["Paid (confirmed)", job.confirmedAt],
        ["Accepted", job.acceptedAt],
        ["Rejected", job.rejectedAt],
        ["Printing started", job.printingStartedAt],
        ["Completed", job.completedAt],
        ["Ready", job.readyAt],
        ["Picked up", job.pickedUpAt],
        [job.deliveryMethod === "delivery" ? "Delivered" : "Shipped", job.shippedAt],
        ["Cancelled", job.cancelledAt],
      ] as const
    )
      .filter(([, at]) => at)
      .map(([label, at]): { label: string; at: Date | string | null } => ({ label, at }))
      .concat(claim?.claim ? claimTimeline(claim.claim) : []),
    actions: buttonActions(job.status, view.viewerRole, job.deliveryMethod),
    backTo: view.viewerRole === "owner" ? "/printer-tracking" : "/dashboard",
    messages,
    canMessage: reachedOwner(job),
    userId: user.id,
    review: reviews?.get(job.id) ?? null,
    claim,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = requireIdParam(params.id, NOT_FOUND);
  const form = await request.formData();
  const redirectTo = safeRedirect(form.get("redirectTo"), `/order/${id}`);
  const intent = String(form.get("intent") ?? "");
  if (intent === SEND_MESSAGE_INTENT) {
    return answerMessageForm({
      jobId: id,
      senderId: user.id,
      formData: form,
      redirectTo: `/order/${id}#messages`,
      notFound: NOT_FOUND,
    });
  }
  if (!(JOB_ACTIONS as readonly string[]).includes(intent) || intent === "place" || intent === "pay" || intent === "expire") {
    return redirectWithToast(redirectTo, {
      title: "Failed to update status",
      description: "Unknown action.",
      variant: "destructive",
    });
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  return pageTransition(user.id, id, intent as JobAction, redirectTo, {
    trackingNumber: text("trackingNumber"),
    message: text("message"),
  });
}

export default function OrderDetail() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const sendRefused = resultForIntent(actionData?.result, SEND_MESSAGE_INTENT);
  const o = d.order;
  return (
    <div className="container-page py-8">
      <Link to={d.backTo} className="text-sm text-brand-700 hover:underline">
        ← Back to {d.viewerRole === "owner" ? "order tracking" : "dashboard"}
      </Link>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">Order #{o.id}</h1>
        <span className="badge bg-brand-100 text-brand-700" data-testid="order-status">
          {o.statusLabel}
        </span>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <section className="card p-4" aria-labelledby="details">
            <h2 id="details" className="font-semibold">
              Details
            </h2>
            <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-500">File</dt>
                <dd>{o.fileName}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Material</dt>
                <dd>
                  <span data-testid="order-copies">{copiesText(o.quantity)}</span> · {o.material} · {o.filamentColor}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Delivery method</dt>
                <dd>
                  {o.delivery}
                  {o.deliveryZip ? ` to ${o.deliveryZip}` : ""}
                  {o.shippingService ? ` (${o.shippingService})` : ""}
                </dd>
              </div>
              {o.deliveryAddress ? (
                <div>
                  <dt className="text-slate-500">{o.deliveryMethod === "delivery" ? "Deliver to" : "Ship to"}</dt>
                  <dd data-testid="delivery-address">
                    {o.deliveryAddress.map((line) => (
                      <span key={line} className="block">
                        {line}
                      </span>
                    ))}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt className="text-slate-500">Submitted</dt>
                <dd>
                  <LocalTime value={o.submittedAt} />
                </dd>
              </div>
              {o.trackingNumber ? (
                <div>
                  <dt className="text-slate-500">Tracking number</dt>
                  <dd data-testid="tracking-number">{o.trackingNumber}</dd>
                </div>
              ) : null}
              <div className="sm:col-span-2">
                <dt className="text-slate-500">Special instructions</dt>
                <dd>{o.specialInstructions || "None"}</dd>
              </div>
              {o.ownerMessage ? (
                <div className="sm:col-span-2">
                  <dt className="text-slate-500">Printer's note</dt>
                  <dd>{o.ownerMessage}</dd>
                </div>
              ) : null}
            </dl>
          </section>

          <section className="card p-4" aria-labelledby="people">
            {d.customer ? (
              <>
                <h2 id="people" className="font-semibold">
                  Customer
                </h2>
                <p className="mt-1 text-sm">
                  {d.customer.name} · <a href={`mailto:${d.customer.email}`}>{d.customer.email}</a>
                </p>
                {/* a plain link: the file arrives as an attachment, a refusal comes back here as a toast */}
                <a href={`/order/${o.id}/download`} className="btn-secondary mt-3">
                  Download 3D File
                </a>
              </>
            ) : (
              <>
                <h2 id="people" className="font-semibold">
                  Printer
                </h2>
                <p className="mt-1 text-sm">
                  {d.printer?.name ?? "No printer"}
                  {d.printer ? ` · ${d.printer.location}` : ""}
                  {d.ownerName ? ` · owner ${d.ownerName}` : ""}
                </p>
              </>
            )}
          </section>

          <section id="messages" className="card p-4" aria-labelledby="messages-heading">
            <h2 id="messages-heading" className="mb-3 font-semibold">
              Messages
            </h2>
            <ConversationThread
              messages={d.messages}
              currentUserId={d.userId}
              lastResult={sendRefused}
              canSend={d.canMessage}
              emptyText={d.canMessage ? undefined : MESSAGE_AFTER_PAYMENT}
            />
          </section>

          {d.claim ? <OrderClaim jobId={o.id} viewerRole={d.viewerRole} panel={d.claim} /> : null}
          {d.actions.length ? (
            <section className="card p-4" aria-labelledby="actions">
              <h2 id="actions" className="mb-3 font-semibold">
                Actions
              </h2>
              <OrderActions jobId={o.id} actions={d.actions} deliveryMethod={o.deliveryMethod} redirectTo={`/order/${o.id}`} />
            </section>
          ) : null}
          {d.review ? (
            <Link to={reviewPath(o.id)} className="btn-primary" data-testid="review-link">
              {reviewLinkLabel(d.review.reviewed)}
            </Link>
          ) : null}
          {d.viewerRole === "customer" && o.status === "submitted" ? (
            <Link to={`/checkout?orderId=${o.id}`} reloadDocument className="btn-primary">
              Pay now
            </Link>
          ) : null}
        </div>

        <aside className="space-y-6">
          <section className="card p-4" aria-labelledby="cost">
            <h2 id="cost" className="mb-2 font-semibold">
              Cost
            </h2>
            <OrderSummary
              rows={[
                { label: "Print service", cents: o.printCost },
                { label: "Platform fee", cents: o.platformFee },
                { label: o.delivery, cents: o.deliveryFee },
              ]}
              totalCents={o.total}
            />
            {d.claim?.refundedCents ? (
              <p className="mt-2 text-sm" data-testid="order-refunded">
                Refunded: {formatCents(d.claim.refundedCents)}
              </p>
            ) : null}
            {d.viewerRole === "owner" ? (
              <p className="mt-2 text-sm text-slate-600">
                Your earnings: {formatCents(ownerShareAfterRefunds(o.printerProfit, d.claim?.refundedCents ?? 0))}
              </p>
            ) : null}
          </section>
          <section className="card p-4" aria-labelledby="timeline">
            <h2 id="timeline" className="font-semibold">
              Timeline
            </h2>
            <ol className="mt-2 space-y-1 text-sm">
              {d.timeline.map((step) => (
                <li key={step.label} className="flex justify-between gap-2">
                  <span>{step.label}</span>
                  <LocalTime value={step.at} className="text-slate-500" />
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = OrderErrorBoundary;
