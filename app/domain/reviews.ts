// Printer reviews: who may write one and what it holds. A customer rates the printer that made
// their job, once per job (editable), after the print was picked up or shipped.
// The form schema is in review-schema.ts, so pages that only link to a review ship no zod.

/** A job whose print reached the customer: only then can its printer be reviewed. */
export const REVIEWABLE_STATUSES = ["picked_up", "shipped"] as const;
export const REVIEW_MAX_LENGTH = 1000;

export const REVIEW_NOT_YET = "You can rate the printer once your print has been picked up or shipped.";
export const REVIEW_OWN_PRINTER = "You can't review your own printer.";
export const REVIEW_SAVED_TOAST = "Review Saved";

export function isReviewable(status: string): boolean {
  return (REVIEWABLE_STATUSES as readonly string[]).includes(status);
}

/** A printer's rating is the mean of its reviews rounded to this many decimal places (pages show one). */
export const RATING_DECIMALS = 2;

/** The link a customer follows to rate the printer of a delivered job, or to edit their review. */
export function reviewLinkLabel(reviewed: boolean): string {
  return reviewed ? "Edit your review" : "Rate this printer";
}
