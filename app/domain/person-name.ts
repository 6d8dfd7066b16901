// A person's first or last name, as the profile page and the API take it.
import { z } from "zod";
import { typedText } from "./one-line";

export const NAME_MAX_LENGTH = 50;
export const NAME_ONE_LINE_MESSAGE = "A name can't contain line breaks, tabs or other control characters";
export const NAME_INVISIBLE_MESSAGE = "A name needs visible letters, not only spaces or invisible characters";

/** An optional first or last name: trimmed, one line, something visible, at most 50 characters; empty is none (null). */
export const PersonNameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`)
  .superRefine(typedText({ notOneLine: NAME_ONE_LINE_MESSAGE, invisible: NAME_INVISIBLE_MESSAGE }))
  .optional()
  .transform((v) => (v ? v : null));
