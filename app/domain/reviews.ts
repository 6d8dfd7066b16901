// Printer reviews: who may write one and what it holds. A customer rates the printer that made
// their job, once per job (editable), after the print was picked up or shipped.
import { z } from "zod";

/** A job whose print reached the customer: only then can its printer be reviewed. */
export const REVIEWABLE_STATUSES = ["picked_up", "shipped"] as const;
export const REVIEW_MAX_LENGTH = 1000;

export const REVIEW_NOT_YET = "You can rate the printer once your print has been picked up or shipped.";
export const REVIEW_OWN_PRINTER = "You can't review your own printer.";
export const REVIEW_SAVED_TOAST = "Review Saved";

export function isReviewable(status: string): boolean {
  return (REVIEWABLE_STATUSES as readonly string[]).includes(status);
}

export const ReviewSchema = z.object({
  rating: z.coerce
    .number({ invalid_type_error: "Choose a rating from 1 to 5 stars." })
    .int("Choose a rating from 1 to 5 stars.")
    .min(1, "Choose a rating from 1 to 5 stars.")
    .max(5, "Choose a rating from 1 to 5 stars."),
  review: z
    .string()
    .trim()
    .max(REVIEW_MAX_LENGTH, `Reviews are at most ${REVIEW_MAX_LENGTH} characters.`)
    .optional()
    .transform((text) => (text ? text : null)),
});
export type ReviewInput = z.input<typeof ReviewSchema>;

/** A printer's rating is the mean of its reviews rounded to this many decimal places (pages show one). */
export const RATING_DECIMALS = 2;

/** The link a customer follows to rate the printer of a delivered job, or to edit their review. */
export function reviewLinkLabel(reviewed: boolean): string {
  return reviewed ? "Edit your review" : "Rate this printer";
}
