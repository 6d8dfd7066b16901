// The buttons of an order, each a plain form post to /order/{id} (with `intent`), so they work
// without JavaScript; cancelling and rejecting ask first inside <details>.
import { Form } from "./form";
import { ACTION_BUTTON_LABELS, actionButtonLabel, type JobAction } from "~/domain/job-lifecycle";
import type { DeliveryMethod } from "~/domain/pricing";

export function OrderActions({
  jobId,
  actions,
  deliveryMethod,
  redirectTo,
}: {
  jobId: number;
  actions: JobAction[];
  deliveryMethod: DeliveryMethod;
  redirectTo: string;
}) {
  if (actions.length === 0) return null;
  const hidden = (
    <>
      <input type="hidden" name="redirectTo" value={redirectTo} />
    </>
  );
  const to = `/order/${jobId}`;
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid="order-actions">
      {actions.includes("accept") ? (
        <Form method="post" action={to} className="flex w-full flex-col gap-2">
          {hidden}
          <label className="label" htmlFor={`owner-message-${jobId}`}>
            Message to the customer (optional)
          </label>
          <textarea id={`owner-message-${jobId}`} name="message" rows={2} maxLength={1000} className="input" />
          <div>
            <button type="submit" name="intent" value="accept" className="btn-primary">
              {ACTION_BUTTON_LABELS.accept}
            </button>
          </div>
        </Form>
      ) : null}
      {actions.includes("reject") ? (
        <details className="w-full rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="reject-order">
          <summary className="cursor-pointer font-medium text-red-700">{ACTION_BUTTON_LABELS.reject}</summary>
          <Form method="post" action={to} className="mt-2 space-y-2">
            {hidden}
            <p>Reject this order? The customer is not charged and the order can't be accepted afterwards.</p>
            <label className="label" htmlFor={`reject-message-${jobId}`}>
              Reason for the customer (optional)
            </label>
            <textarea id={`reject-message-${jobId}`} name="message" rows={2} maxLength={1000} className="input" />
            <button type="submit" name="intent" value="reject" className="btn-danger">
              Yes, reject order
            </button>
          </Form>
        </details>
      ) : null}
      {actions
        .filter((a) => a !== "accept" && a !== "reject" && a !== "cancel" && a !== "mark_shipped")
        .map((action) => (
          <Form key={action} method="post" action={to}>
            {hidden}
            <button type="submit" name="intent" value={action} className="btn-primary">
              {actionButtonLabel(action, deliveryMethod)}
            </button>
          </Form>
        ))}
      {actions.includes("mark_shipped") ? (
        <Form method="post" action={to} className="flex flex-wrap items-end gap-2">
          {hidden}
          {deliveryMethod === "shipping" ? (
            <div>
              <label className="label" htmlFor={`tracking-${jobId}`}>
                Tracking number
              </label>
              <input id={`tracking-${jobId}`} name="trackingNumber" required maxLength={64} pattern=".*\S.*" className="input" />
            </div>
          ) : null}
          <button type="submit" name="intent" value="mark_shipped" className="btn-primary">
            {deliveryMethod === "shipping" ? ACTION_BUTTON_LABELS.mark_shipped : "Mark Delivered"}
          </button>
        </Form>
      ) : null}
      {actions.includes("cancel") ? (
        <details className="rounded-md border border-slate-200 px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium text-red-700">{ACTION_BUTTON_LABELS.cancel}</summary>
          <Form method="post" action={to} className="mt-2 space-y-2">
            {hidden}
            <p>Are you sure you want to cancel this order?</p>
            <button type="submit" name="intent" value="cancel" className="btn-danger">
              Yes, cancel order
            </button>
          </Form>
        </details>
      ) : null}
    </div>
  );
}
