// Comments and ratings on library models: the rules the model page (form, both sides), the JSON API
// and the service share, each written once.
import { z } from "zod";

export const COMMENT_MAX_LENGTH = 2000;
export const BLANK_COMMENT_MESSAGE = "Please write a comment first.";
export const INVISIBLE_COMMENT_MESSAGE =
  "Your comment has no visible text (only spaces or invisible characters). Please write a comment first.";

// Control characters (line breaks and tabs aside), invisible format characters (zero-width spaces,
// bidi overrides, the byte-order mark, soft hyphens) and the fillers that render as nothing.
const UNSEEN = /[\p{Cc}\p{Cf}\u115F\u1160\u3164\uFFA0]/gu;
const KEPT = new Set(["\n", "\t", "\u200D"]); // the joiner holds emoji sequences together

/**
 * User text as we store it: control and invisible characters removed, line breaks unified, trimmed;
 * "" when nothing visible is left (a lone emoji joiner is not text).
 */
export function cleanUserText(raw: string): string {
  const text = raw
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(UNSEEN, (c) => (KEPT.has(c) ? c : ""))
    .trim();
  return /[^\s\u200D]/u.test(text) ? text : "";
}

/** A text field cleaned by cleanUserText: blank, or blank once cleaned, is refused with its own message. */
function cleanedText(blankMessage: string, tooLongMessage: string) {
  return z
    .string({ required_error: blankMessage, invalid_type_error: blankMessage })
    .trim()
    .min(1, blankMessage)
    .max(COMMENT_MAX_LENGTH, tooLongMessage)
    .superRefine((raw, ctx) => {
      if (raw && !cleanUserText(raw)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: INVISIBLE_COMMENT_MESSAGE });
    })
    .transform(cleanUserText);
}

/** An optional review: cleaned, and nothing when nothing visible is left. */
function cleanedReview() {
  return z
    .string()
    .max(COMMENT_MAX_LENGTH, REVIEW_TOO_LONG_MESSAGE)
    .transform((raw) => cleanUserText(raw) || null);
}
export const COMMENT_TOO_LONG_MESSAGE = `Comments are at most ${COMMENT_MAX_LENGTH} characters.`;
export const REVIEW_TOO_LONG_MESSAGE = `Reviews are at most ${COMMENT_MAX_LENGTH} characters.`;

/** A rating is a whole number of stars from 1 to 5. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_MESSAGE = "Please choose 1 to 5 stars.";

export function isRating(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= RATING_MIN && value <= RATING_MAX;
}

/** The stars field: whole, 1 to 5, every failure with the one message given (printer reviews use it too). */
export function stars(schema: z.ZodNumber, message: string) {
  return schema.int(message).min(RATING_MIN, message).max(RATING_MAX, message);
}

/** A model's creator may not rate their own model (decision 007). */
export const OWN_MODEL_RATING = "You can't rate your own model.";

export function isSelfRating(model: { creatorId: number }, userId: number): boolean {
  return model.creatorId === userId;
}

/** The model page's comment form. */
export const CommentFormSchema = z.object({
  comment: cleanedText(BLANK_COMMENT_MESSAGE, COMMENT_TOO_LONG_MESSAGE),
});

/** POST /api/models/{id}/comments. */
export const COMMENT_REQUIRED_MESSAGE = "Comment text is required.";
export const CommentPayloadSchema = z.object({
  comment: cleanedText(COMMENT_REQUIRED_MESSAGE, COMMENT_TOO_LONG_MESSAGE),
});

/** The model page's rating form (stars arrive as text). */
export const RatingFormSchema = z.object({
  rating: stars(z.coerce.number({ required_error: RATING_MESSAGE, invalid_type_error: RATING_MESSAGE }), RATING_MESSAGE),
  review: cleanedReview().optional(),
  hasPrinted: z.boolean().default(false),
});

/** POST /api/models/{id}/ratings (stars arrive as a JSON number). */
export const RATING_PAYLOAD_MESSAGE = "rating must be a whole number from 1 to 5.";
export const RatingPayloadSchema = z.object({
  rating: stars(
    z.number({ required_error: RATING_PAYLOAD_MESSAGE, invalid_type_error: RATING_PAYLOAD_MESSAGE }),
    RATING_PAYLOAD_MESSAGE,
  ),
  review: cleanedReview().nullish(),
  hasPrinted: z.boolean().optional(),
});
