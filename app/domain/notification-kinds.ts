// What a notification is about, so each user can turn e-mail off per kind on /profile. The bell
// and /notifications always show every kind; only e-mail follows these settings.

export const NOTIFICATION_KINDS = ["order_request", "order_update", "payout", "message"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  order_request: "New order requests and cancellations (printer owners)",
  order_update: "Updates on my orders: accepted, rejected, printing, ready, shipped, cancelled",
  payout: "Payouts (printer owners)",
  message: "New messages about an order",
};

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === "string" && (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

/** Whether a user with these settings gets e-mail for this kind (on unless turned off). */
export function wantsEmail(emailOff: readonly string[] | null | undefined, kind: NotificationKind): boolean {
  return !(emailOff ?? []).includes(kind);
}
