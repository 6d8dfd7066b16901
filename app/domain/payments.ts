// The states of a card payment and of an owner's payout, and who handles them.

export const PAYMENT_PROVIDERS = ["test", "stripe"] as const;

/** What checkout says while the built-in test provider takes the payments. */
export const TEST_MODE_LABEL = "Test mode: no real charge";
/** The card the checkout page offers as a hint and fills in on request: authorised, with any future expiry and CVC. */
export const TEST_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } as const;

export const PAYMENT_STATUSES = ["requires_payment", "authorized", "captured", "released", "refunded", "failed"] as const;

/** Payment states that may still hold or take the customer's money at the provider. */
export const OPEN_PAYMENT_STATES = ["requires_payment", "authorized", "failed"] as const;

export const PAYOUT_STATUSES = ["pending", "paid", "failed"] as const;

/** What the money reconciliation did to finish or undo a step a crash cut short (decision 039). */
export const MONEY_REPAIR_KINDS = [
  "payout_sent",
  "payout_recorded",
  "payout_failed",
  "capture_sent",
  "capture_recorded",
  "capture_lapsed",
  "order_confirmed",
  "hold_released",
  "stranded_released",
  "refund_reserved",
  "refund_sent",
  "reversal_sent",
] as const;
export type MoneyRepairKind = (typeof MONEY_REPAIR_KINDS)[number];

/** How the admin order page names each repair. */
export const MONEY_REPAIR_LABELS: Record<MoneyRepairKind, string> = {
  payout_sent: "Pending payout sent",
  payout_recorded: "Payout found at the provider and recorded",
  payout_failed: "Pending payout marked failed",
  capture_sent: "Accepted order's payment captured",
  capture_recorded: "Capture found at the provider and recorded",
  capture_lapsed: "Accepted order's authorisation had lapsed",
  order_confirmed: "Order confirmed by the payment it had claimed",
  hold_released: "Hold no order claims released",
  stranded_released: "Hold on an ended order released",
  refund_reserved: "Refund a decision promised, reserved",
  refund_sent: "Pending refund sent",
  reversal_sent: "Owed transfer reversal sent",
};
/** A refund is pending until the provider has made it (a failed call is retried with the same key). */
export const REFUND_STATUSES = ["pending", "succeeded"] as const;
