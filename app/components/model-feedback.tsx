// Rules for comments and ratings on library models, shared by the model page (form, both sides) and the JSON API.
import { z } from "zod";

export const COMMENT_MAX_LENGTH = 2000;
export const BLANK_COMMENT_MESSAGE = "Please write a comment first.";
export const RATING_MESSAGE = "Please choose 1 to 5 stars.";

export const CommentFormSchema = z.object({
  comment: z
    .string({ required_error: BLANK_COMMENT_MESSAGE })
    .trim()
    .min(1, BLANK_COMMENT_MESSAGE)
    .max(COMMENT_MAX_LENGTH, `Comments are at most ${COMMENT_MAX_LENGTH} characters.`),
});

export const RatingFormSchema = z.object({
  rating: z.coerce
    .number({ required_error: RATING_MESSAGE, invalid_type_error: RATING_MESSAGE })
    .int(RATING_MESSAGE)
    .min(1, RATING_MESSAGE)
    .max(5, RATING_MESSAGE),
  review: z.string().trim().max(COMMENT_MAX_LENGTH, `Reviews are at most ${COMMENT_MAX_LENGTH} characters.`).optional(),
  hasPrinted: z.boolean().default(false),
});
