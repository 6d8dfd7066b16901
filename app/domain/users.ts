// Who a user is on the marketplace: a customer, a printer owner, or both (listing a printer makes a customer
// both). The type follows what the account does, never a wish (docs/decisions/010-account-type.md).

export const USER_TYPES = ["customer", "printer_owner", "both"] as const;
export type UserType = (typeof USER_TYPES)[number];

/**
 * The types an account may set for itself: with a listed printer, printer_owner or both (both
 * show the Printer Dashboard); without one, customer only. Listing a first printer makes a
 * customer "both" (the printer flow does it).
 */
export function userTypesAllowed(hasPrinter: boolean): readonly UserType[] {
  return hasPrinter ? ["printer_owner", "both"] : ["customer"];
}

export const USER_TYPE_REFUSED =
  "Your account type follows your printer listings: list a printer to become a printer owner, or remove your printers to be a customer only.";

export const PAYOUTS_FOR_OWNERS_ONLY = "Only printer owners receive payouts.";

/** Who may connect a payout account: a printer owner (or an account that is both), never a customer only. */
export function receivesPayouts(userType: UserType): boolean {
  return userType !== "customer";
}
