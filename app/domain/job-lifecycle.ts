// The one job lifecycle (docs/decisions/014-order-lifecycle.md): which actor
// may move a job from which status by which action, to which status, stamping which time, and
// what happens to the money and the filament. Pages, the JSON API and background sweeps all ask
// this table; nothing else decides a status change.
import type { JobStatus } from "./job-status";
import type { DeliveryMethod } from "./pricing";
import { copiesText } from "./design-scale";

export const JOB_ACTORS = ["customer", "owner", "system"] as const;
export type JobActor = (typeof JOB_ACTORS)[number];

export const JOB_ACTIONS = [
  "place",
  "pay",
  "accept",
  "reject",
  "start_printing",
  "complete",
  "ready_for_pickup",
  "ready_for_shipping",
  "mark_picked_up",
  "mark_shipped",
  "cancel",
  "expire",
] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/** The print_jobs column a transition stamps with its time. */
export type JobStamp =
  | "submittedAt"
  | "confirmedAt"
  | "acceptedAt"
  | "rejectedAt"
  | "printingStartedAt"
  | "completedAt"
  | "readyAt"
  | "pickedUpAt"
  | "shippedAt"
  | "cancelledAt";

/** What the transition does to the customer's card: authorise on pay, capture on accept, release or refund on the way out. */
export type PaymentEffect = "none" | "authorize" | "capture" | "release" | "refund";
/** Filament: accepting reserves the job's grams from the printer's stock; an owner cancel gives them back. */
export type InventoryEffect = "none" | "reserve" | "return";

export interface Transition {
  from: JobStatus;
  actor: JobActor;
  action: JobAction;
  to: JobStatus;
  stamp: JobStamp;
  payment: PaymentEffect;
  inventory: InventoryEffect;
  /** pickup jobs only, or delivered (local delivery and shipping) jobs only */
  delivery?: "pickup" | "delivered";
  /** a non-blank tracking number must come with the action (shipping jobs) */
  needsTrackingNumber?: boolean;
}

const t = (
  from: JobStatus,
  actor: JobActor,
  action: JobAction,
  to: JobStatus,
  stamp: JobStamp,
  extra: Partial<Pick<Transition, "payment" | "inventory" | "delivery" | "needsTrackingNumber">> = {},
): Transition => ({ from, actor, action, to, stamp, payment: "none", inventory: "none", ...extra });

export const TRANSITIONS: readonly Transition[] = Object.freeze([
  t("draft", "customer", "place", "submitted", "submittedAt"),
  // the card is authorised: by our test provider at once, or reported by the card provider
  t("submitted", "customer", "pay", "confirmed", "confirmedAt", { payment: "authorize" }),
  t("submitted", "system", "pay", "confirmed", "confirmedAt", { payment: "authorize" }),
  t("confirmed", "owner", "accept", "accepted", "acceptedAt", { payment: "capture", inventory: "reserve" }),
  t("confirmed", "owner", "reject", "rejected", "rejectedAt", { payment: "release" }),
  t("accepted", "owner", "start_printing", "printing", "printingStartedAt"),
  t("printing", "owner", "complete", "completed", "completedAt"),
  t("completed", "owner", "ready_for_pickup", "ready_for_pickup", "readyAt", { delivery: "pickup" }),
  t("completed", "owner", "ready_for_shipping", "ready_for_shipping", "readyAt", { delivery: "delivered" }),
  t("ready_for_pickup", "owner", "mark_picked_up", "picked_up", "pickedUpAt", { delivery: "pickup" }),
  t("ready_for_shipping", "owner", "mark_shipped", "shipped", "shippedAt", { delivery: "delivered", needsTrackingNumber: true }),
  // customer cancel: nothing has been charged yet (an open payment is cancelled at the provider,
  // so it can't authorise later; an authorisation is released)
  t("submitted", "customer", "cancel", "cancelled", "cancelledAt", { payment: "release" }),
  t("confirmed", "customer", "cancel", "cancelled", "cancelledAt", { payment: "release" }),
  // owner cancel after acceptance: the customer is refunded and the filament goes back
  t("accepted", "owner", "cancel", "cancelled", "cancelledAt", { payment: "refund", inventory: "return" }),
  t("printing", "owner", "cancel", "cancelled", "cancelledAt", { payment: "refund", inventory: "return" }),
  // an authorisation about to lapse before the owner answered
  t("confirmed", "system", "expire", "cancelled", "cancelledAt", { payment: "release" }),
]);

export interface TransitionContext {
  deliveryMethod: DeliveryMethod;
  trackingNumber?: string | null;
}

export type TransitionCheck =
  | { ok: true; transition: Transition }
  /** forbidden: this actor never does this action; conflict: not from this status; invalid: a missing input */
  | { ok: false; code: "forbidden" | "conflict" | "invalid"; message: string };

const ACTION_LABELS: Record<JobAction, string> = {
  place: "place",
  pay: "pay for",
  accept: "accept",
  reject: "reject",
  start_printing: "start printing",
  complete: "mark complete",
  ready_for_pickup: "mark ready for pickup",
  ready_for_shipping: "mark ready for shipping",
  mark_picked_up: "mark picked up",
  mark_shipped: "mark shipped",
  cancel: "cancel",
  expire: "expire",
};

export function isDelivered(method: TransitionContext["deliveryMethod"]): boolean {
  return method !== "pickup";
}

/** Whether a tracking number is required: only for carrier shipping; local delivery has none. */
export function needsTracking(transition: Transition, ctx: TransitionContext): boolean {
  return Boolean(transition.needsTrackingNumber) && ctx.deliveryMethod === "shipping";
}

/** The one check: may this actor do this action on a job in this status (and with this delivery)? */
export function checkTransition(status: JobStatus, actor: JobActor, action: JobAction, ctx: TransitionContext): TransitionCheck {
  const byActor = TRANSITIONS.filter((tr) => tr.actor === actor && tr.action === action);
  if (byActor.length === 0) {
    return { ok: false, code: "forbidden", message: `You can't ${ACTION_LABELS[action]} this order.` };
  }
  const transition = byActor.find((tr) => tr.from === status);
  if (!transition) {
    return {
      ok: false,
      code: "conflict",
      message: `This order can't be ${pastTense(action)} now: it is ${STATUS_WORDS[status]}.`,
    };
  }
  if (transition.delivery === "pickup" && isDelivered(ctx.deliveryMethod)) {
    return { ok: false, code: "invalid", message: "This order is delivered, not picked up." };
  }
  if (transition.delivery === "delivered" && !isDelivered(ctx.deliveryMethod)) {
    return { ok: false, code: "invalid", message: "This order is picked up, not delivered." };
  }
  if (needsTracking(transition, ctx) && !ctx.trackingNumber?.trim()) {
    return { ok: false, code: "invalid", message: "Enter a tracking number to mark this order as shipped." };
  }
  return { ok: true, transition };
}

/** Actions this actor can take on a job now (to choose which buttons a page shows). */
export function availableActions(
  status: JobStatus,
  actor: JobActor,
  deliveryMethod: TransitionContext["deliveryMethod"],
): JobAction[] {
  return TRANSITIONS.filter(
    (tr) =>
      tr.from === status &&
      tr.actor === actor &&
      (tr.delivery === undefined || (tr.delivery === "pickup") === !isDelivered(deliveryMethod)),
  ).map((tr) => tr.action);
}

function pastTense(action: JobAction): string {
  const words: Record<JobAction, string> = {
    place: "placed",
    pay: "paid for",
    accept: "accepted",
    reject: "rejected",
    start_printing: "started",
    complete: "marked complete",
    ready_for_pickup: "marked ready for pickup",
    ready_for_shipping: "marked ready for shipping",
    mark_picked_up: "marked picked up",
    mark_shipped: "marked shipped",
    cancel: "cancelled",
    expire: "expired",
  };
  return words[action];
}

const STATUS_WORDS: Record<JobStatus, string> = {
  draft: "still a draft",
  submitted: "awaiting payment",
  confirmed: "paid and awaiting the printer",
  accepted: "accepted",
  printing: "printing",
  completed: "printed",
  ready_for_pickup: "ready for pickup",
  ready_for_shipping: "ready for shipping",
  picked_up: "picked up",
  shipped: "shipped",
  cancelled: "cancelled",
  rejected: "rejected",
};

/** Card authorisations lapse after 7 days; a job still unanswered a day before is cancelled and released. */
export const AUTHORIZATION_DAYS = 7;
export const AUTHORIZATION_SAFETY_MS = 24 * 60 * 60 * 1000;
export const AUTHORIZATION_MS = AUTHORIZATION_DAYS * 24 * 60 * 60 * 1000;

/** What a transition notice names: the job's file and, once shipped, its tracking number. */
export interface NoticeJob {
  fileName: string;
  /** copies ordered; more than one is named in the notice ("4 copies of bracket.stl") */
  quantity?: number;
  trackingNumber?: string | null;
  /** local delivery is brought by the printer, not shipped: its notices say so */
  deliveryMethod?: TransitionContext["deliveryMethod"];
  /** the shipping service's name as people read it ("Priority Mail") */
  shippingServiceName?: string | null;
}

/** Once an order is picked up or shipped, its customer may rate the printer on this page. */
export function reviewPath(jobId: number): string {
  return `/jobs/${jobId}/review`;
}

const RATE_INVITE = "You can now rate this printer from your order page.";

/** The notification the other party gets for a transition (the bell and its e-mail). */
export function transitionNotice(action: JobAction, actor: JobActor, job: NoticeJob): { title: string; message: string } {
  const fileName = job.quantity && job.quantity > 1 ? `${copiesText(job.quantity)} of ${job.fileName}` : job.fileName;
  switch (action) {
    case "pay":
      return { title: "New Order Request", message: `A paid order for ${fileName} is waiting for your answer.` };
    case "accept":
      return { title: "Order Accepted", message: `Your order for ${fileName} was accepted and your card was charged.` };
    case "reject":
      return { title: "Order Rejected", message: `Your order for ${fileName} was declined. Your card was not charged.` };
    case "start_printing":
      return { title: "Printing Started", message: `Your order for ${fileName} is printing.` };
    case "complete":
      return { title: "Print Complete", message: `Your order for ${fileName} has been printed.` };
    case "ready_for_pickup":
      return { title: "Ready for Pickup", message: `Your order for ${fileName} is ready for pickup.` };
    case "ready_for_shipping":
      return job.deliveryMethod === "delivery"
        ? { title: "Ready for Delivery", message: `Your order for ${fileName} is packed and the printer will bring it to you.` }
        : { title: "Ready for Shipping", message: `Your order for ${fileName} is packed and about to leave.` };
    case "mark_picked_up":
      return { title: "Order Picked Up", message: `Your order for ${fileName} was marked as picked up. ${RATE_INVITE}` };
    case "mark_shipped": {
      if (job.deliveryMethod === "delivery") {
        return { title: "Order Delivered", message: `Your order for ${fileName} was delivered by the printer. ${RATE_INVITE}` };
      }
      const by = job.shippingServiceName ? ` by USPS ${job.shippingServiceName}` : "";
      return {
        title: "Order Shipped",
        message: job.trackingNumber
          ? `Your order for ${fileName} is on its way${by}. Tracking number: ${job.trackingNumber}. ${RATE_INVITE}`
          : `Your order for ${fileName} is on its way${by}. ${RATE_INVITE}`,
      };
    }
    case "expire":
      return {
        title: "Order Cancelled",
        message: `The order for ${fileName} was not accepted in time and was cancelled. The card was not charged.`,
      };
    case "cancel":
      return actor === "owner"
        ? { title: "Order Cancelled", message: `The printer cancelled your order for ${fileName}. You have been refunded.` }
        : { title: "Order Cancelled", message: `The customer cancelled the order for ${fileName}.` };
    case "place":
      return { title: "Order Submitted", message: `An order for ${fileName} was placed.` };
  }
}

/**
 * The e-mail kind of a transition notice for the party it goes to: a printer owner's new request
 * and any cancellation reaching an owner are order requests; everything else is an order update.
 */
export function transitionNoticeKind(action: JobAction, recipient: "customer" | "owner"): "order_request" | "order_update" {
  if (recipient === "owner" && (action === "pay" || action === "cancel" || action === "expire")) return "order_request";
  return "order_update";
}

/** PUT /api/print-jobs/{id}/status names the status wanted; this is the action that reaches it. */
const ACTION_FOR_STATUS: Partial<Record<JobStatus, JobAction>> = {
  accepted: "accept",
  rejected: "reject",
  printing: "start_printing",
  completed: "complete",
  ready_for_pickup: "ready_for_pickup",
  ready_for_shipping: "ready_for_shipping",
  picked_up: "mark_picked_up",
  shipped: "mark_shipped",
  cancelled: "cancel",
};

export function actionForStatus(status: unknown): JobAction | null {
  return typeof status === "string" && Object.hasOwn(ACTION_FOR_STATUS, status) ? ACTION_FOR_STATUS[status as JobStatus]! : null;
}

/** The success toast after an action, worded for the order's delivery method (a local delivery is never "shipped"). */
export function actionToast(
  action: JobAction,
  deliveryMethod?: "pickup" | "delivery" | "shipping" | null,
): { title: string; description?: string } {
  if (deliveryMethod === "delivery" && action === "ready_for_shipping") {
    return { title: "Status Updated", description: "Order marked as ready for delivery" };
  }
  if (deliveryMethod === "delivery" && action === "mark_shipped") {
    return { title: "Status Updated", description: "Order marked as delivered" };
  }
  switch (action) {
    case "accept":
      return { title: "Status updated", description: "Order accepted. The customer's card has been charged." };
    case "reject":
      return { title: "Status updated", description: "Order rejected. The customer was not charged." };
    case "cancel":
    case "expire":
      return { title: "Order Cancelled" };
    case "start_printing":
      return { title: "Status Updated", description: "Order marked as printing" };
    case "complete":
      return { title: "Status Updated", description: "Order marked as complete" };
    case "ready_for_pickup":
      return { title: "Status Updated", description: "Order marked as ready for pickup" };
    case "ready_for_shipping":
      return { title: "Status Updated", description: "Order marked as ready for shipping" };
    case "mark_picked_up":
      return { title: "Status Updated", description: "Order marked as picked up" };
    case "mark_shipped":
      return { title: "Status Updated", description: "Order marked as shipped" };
    case "pay":
      return { title: "Payment Successful", description: "Your order has been confirmed!" };
    case "place":
      return { title: "Order Submitted Successfully!" };
  }
}

/** The failure toast's title for an action. */
export function actionFailureTitle(action: JobAction): string {
  if (action === "accept" || action === "reject") return "Failed to respond";
  if (action === "cancel") return "Failed to Cancel Order";
  return "Failed to update status";
}

/** Button labels of the actions on the dashboards. */
export const ACTION_BUTTON_LABELS: Record<JobAction, string> = {
  place: "Submit Order",
  pay: "Pay",
  accept: "Accept",
  reject: "Reject",
  start_printing: "Start Printing",
  complete: "Mark Complete",
  ready_for_pickup: "Ready for Pickup",
  ready_for_shipping: "Ready for Shipping",
  mark_picked_up: "Mark Picked Up",
  mark_shipped: "Mark as Shipped",
  cancel: "Cancel Order",
  expire: "Expire",
};

/** An action's button worded for the delivery method: local delivery is not shipped. */
export function actionButtonLabel(action: JobAction, deliveryMethod: TransitionContext["deliveryMethod"]): string {
  if (deliveryMethod === "delivery" && action === "ready_for_shipping") return "Ready for Delivery";
  if (deliveryMethod === "delivery" && action === "mark_shipped") return "Mark Delivered";
  return ACTION_BUTTON_LABELS[action];
}

/** Actions a person can take from an order button (pay and place have their own pages; expire is the sweep's). */
export function buttonActions(
  status: JobStatus,
  actor: "customer" | "owner",
  deliveryMethod: TransitionContext["deliveryMethod"],
) {
  return availableActions(status, actor, deliveryMethod).filter((a) => a !== "pay" && a !== "place");
}
