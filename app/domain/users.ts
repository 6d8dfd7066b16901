// Who a user is on the marketplace: a customer, a printer owner, or both (listing a printer makes a customer both).

export const USER_TYPES = ["customer", "printer_owner", "both"] as const;
