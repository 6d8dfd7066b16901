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

/** A refund is pending until the provider has made it (a failed call is retried with the same key). */
export const REFUND_STATUSES = ["pending", "succeeded"] as const;
