// Comments and ratings on library models: the rules the model page (form, both sides), the JSON API
// and the service share, each written once.
import { z } from "zod";

export const COMMENT_MAX_LENGTH = 2000;
export const BLANK_COMMENT_MESSAGE = "Please write a comment first.";
export const COMMENT_TOO_LONG_MESSAGE = `Comments are at most ${COMMENT_MAX_LENGTH} characters.`;
export const REVIEW_TOO_LONG_MESSAGE = `Reviews are at most ${COMMENT_MAX_LENGTH} characters.`;

/** A rating is a whole number of stars from 1 to 5. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_MESSAGE = "Please choose 1 to 5 stars.";

export function isRating(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= RATING_MIN && value <= RATING_MAX;
}

/** The stars field: whole, 1 to 5, every failure with the one message given. */
function stars(schema: z.ZodNumber, message: string) {
  return schema.int(message).min(RATING_MIN, message).max(RATING_MAX, message);
}

/** A model's creator may not rate their own model (decision 007). */
export const OWN_MODEL_RATING = "You can't rate your own model.";

export function isSelfRating(model: { creatorId: number }, userId: number): boolean {
  return model.creatorId === userId;
}

/** The model page's comment form. */
export const CommentFormSchema = z.object({
  comment: z
    .string({ required_error: BLANK_COMMENT_MESSAGE })
    .trim()
    .min(1, BLANK_COMMENT_MESSAGE)
    .max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG_MESSAGE),
});

/** POST /api/models/{id}/comments. */
export const COMMENT_REQUIRED_MESSAGE = "Comment text is required.";
export const CommentPayloadSchema = z.object({
  comment: z
    .string({ required_error: COMMENT_REQUIRED_MESSAGE, invalid_type_error: COMMENT_REQUIRED_MESSAGE })
    .trim()
    .min(1, COMMENT_REQUIRED_MESSAGE)
    .max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG_MESSAGE),
});

/** The model page's rating form (stars arrive as text). */
export const RatingFormSchema = z.object({
  rating: stars(z.coerce.number({ required_error: RATING_MESSAGE, invalid_type_error: RATING_MESSAGE }), RATING_MESSAGE),
  review: z.string().trim().max(COMMENT_MAX_LENGTH, REVIEW_TOO_LONG_MESSAGE).optional(),
  hasPrinted: z.boolean().default(false),
});

/** POST /api/models/{id}/ratings (stars arrive as a JSON number). */
export const RATING_PAYLOAD_MESSAGE = "rating must be a whole number from 1 to 5.";
export const RatingPayloadSchema = z.object({
  rating: stars(
    z.number({ required_error: RATING_PAYLOAD_MESSAGE, invalid_type_error: RATING_PAYLOAD_MESSAGE }),
    RATING_PAYLOAD_MESSAGE,
  ),
  review: z.string().max(COMMENT_MAX_LENGTH, REVIEW_TOO_LONG_MESSAGE).nullish(),
  hasPrinted: z.boolean().optional(),
});
