// Job statuses and the groupings the dashboards show; db/schema.ts takes the list from here.

export const JOB_STATUSES = [
  "draft",
  "submitted",
  "confirmed",
  "accepted",
  "printing",
  "completed",
  "ready_for_pickup",
  "ready_for_shipping",
  "picked_up",
  "shipped",
  "cancelled",
  "rejected",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const CUSTOMER_COMPLETED: readonly JobStatus[] = ["ready_for_pickup", "ready_for_shipping", "picked_up", "shipped"];
/** Active Orders: every job that is not a draft, not cancelled and not in Completed (so a rejected job stays in sight). */
export const CUSTOMER_ACTIVE: readonly JobStatus[] = JOB_STATUSES.filter(
  (status) => status !== "draft" && status !== "cancelled" && !CUSTOMER_COMPLETED.includes(status),
);
/** Statuses whose payment went through (confirmed onwards, not cancelled or rejected). */
export const PAID_STATUSES: readonly JobStatus[] = JOB_STATUSES.filter(
  (status) => status !== "draft" && status !== "submitted" && status !== "cancelled" && status !== "rejected",
);
/** An order placed and awaiting its payment: the one status a payment can confirm. */
export const AWAITING_PAYMENT: JobStatus = "submitted";
/** Orders that ended before any charge: every hold on them must be released. */
export const ENDED_UNCHARGED: readonly JobStatus[] = ["cancelled", "rejected"];
/** The printer dashboard's sections: new requests (paid, awaiting the printer), active jobs and completed jobs. */
export const OWNER_PENDING: readonly JobStatus[] = ["confirmed"];
export const OWNER_ACTIVE: readonly JobStatus[] = ["accepted", "printing", "completed", "ready_for_pickup", "ready_for_shipping"];
export const OWNER_COMPLETED: readonly JobStatus[] = ["picked_up", "shipped"];
/** Completed Orders on the dashboard: the newest this many; all of them are on the tracking page. */
export const OWNER_COMPLETED_SHOWN = 20;
/** The tracking page's Pickup Orders and Shipping Orders: a finished print on its way to the customer, by delivery method. */
export const OWNER_PICKUP_TRACKED: readonly JobStatus[] = ["completed", "ready_for_pickup", "picked_up"];
export const OWNER_SHIPPING_TRACKED: readonly JobStatus[] = ["completed", "ready_for_shipping", "shipped"];
/** The tracking page's tabs: the two above, and Payouts (the completed orders a payout is asked for). */
export type TrackingTab = "pickup" | "shipping" | "payouts";
/** What owners ever see: paid jobs and their outcome (an unpaid submitted job is not a request yet). */
export const OWNER_VISIBLE: readonly JobStatus[] = JOB_STATUSES.filter((status) => status !== "draft" && status !== "submitted");

/**
 * Whether an order ever reached its printer's owner: it was paid at some point. Until then it is not
 * the owner's business: no page, list, count, conversation or notification of theirs shows it.
 * An order cancelled before payment never reached them (it has no confirmation time).
 */
export function reachedOwner(job: { status: JobStatus; confirmedAt: Date | number | null }): boolean {
  return OWNER_VISIBLE.includes(job.status) && !(job.status === "cancelled" && job.confirmedAt == null);
}
/** The customer's Contact Printer shows while a paid job is with its printer. */
export const CONTACT_PRINTER_STATUSES: readonly JobStatus[] = [...OWNER_PENDING, ...OWNER_ACTIVE];
/** Jobs that still need their printer: a printer is not deleted from under them. */
export const PRINTER_IN_USE: readonly JobStatus[] = ["submitted", ...CONTACT_PRINTER_STATUSES];

export type CustomerTab = "drafts" | "active" | "completed" | "all";
export const CUSTOMER_TABS: { id: CustomerTab; label: string }[] = [
  { id: "drafts", label: "Drafts" },
  { id: "active", label: "Active Orders" },
  { id: "completed", label: "Completed" },
  { id: "all", label: "All Orders" },
];

export function customerTabOf(status: JobStatus): CustomerTab | null {
  if (status === "draft") return "drafts";
  if (CUSTOMER_COMPLETED.includes(status)) return "completed";
  if (CUSTOMER_ACTIVE.includes(status)) return "active";
  return null;
}

export function inCustomerTab(status: JobStatus, tab: CustomerTab): boolean {
  return tab === "all" ? true : customerTabOf(status) === tab;
}

/** The statuses a customer's tab lists, for a query. */
export function customerTabStatuses(tab: CustomerTab): JobStatus[] {
  return JOB_STATUSES.filter((status) => inCustomerTab(status, tab));
}

export const STATUS_LABELS: Record<JobStatus, string> = {
  draft: "Draft",
  submitted: "Awaiting payment",
  confirmed: "Paid, awaiting printer",
  accepted: "Accepted",
  printing: "Printing",
  completed: "Print complete",
  ready_for_pickup: "Ready for pickup",
  ready_for_shipping: "Ready to ship",
  picked_up: "Picked up",
  shipped: "Shipped",
  cancelled: "Cancelled",
  rejected: "Rejected",
};

/** Local delivery is handed over by the printer, not shipped: its last two steps are worded for it. */
const LOCAL_DELIVERY_LABELS: Partial<Record<JobStatus, string>> = {
  ready_for_shipping: "Ready for delivery",
  shipped: "Delivered",
};

/** A status as the order's screens show it, worded for its delivery method. */
export function statusLabelFor(status: JobStatus, deliveryMethod: "pickup" | "delivery" | "shipping"): string {
  return (deliveryMethod === "delivery" ? LOCAL_DELIVERY_LABELS[status] : undefined) ?? STATUS_LABELS[status];
}
