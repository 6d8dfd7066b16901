// The printer review form: 1 to 5 stars by the one star rule, and an optional review of at most
// REVIEW_MAX_LENGTH characters (blank is none). The page's form (both sides) and the service share it.
import { z } from "zod";
import { stars } from "./model-feedback";
import { REVIEW_MAX_LENGTH } from "./reviews";

const RATING_CHOICE = "Choose a rating from 1 to 5 stars.";

export const ReviewSchema = z.object({
  rating: stars(z.coerce.number({ invalid_type_error: RATING_CHOICE }), RATING_CHOICE),
  review: z
    .string()
    .trim()
    .max(REVIEW_MAX_LENGTH, `Reviews are at most ${REVIEW_MAX_LENGTH} characters.`)
    .optional()
    .transform((text) => (text ? text : null)),
});
