// The text of a message as stored: trimmed, never blank, never over MESSAGE_MAX_LENGTH characters.
import { z } from "zod";
import { MESSAGE_BLANK, MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG } from "./messages";

export const MessageText = z
  .string({ required_error: MESSAGE_BLANK, invalid_type_error: MESSAGE_BLANK })
  .trim()
  .min(1, MESSAGE_BLANK)
  .max(MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG);
