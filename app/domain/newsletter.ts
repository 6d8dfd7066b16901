// Who a newsletter goes to, and what a subscriber said they are interested in.

export const NEWSLETTER_SEGMENTS = ["all", "buyers", "printer_owners", "investors", "unknown"] as const;

export const SUBSCRIBER_INTERESTS = ["buyer", "printer_owner", "investor", "unknown"] as const;
