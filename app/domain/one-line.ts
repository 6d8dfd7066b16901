// Text that must stay on one line: a name, a line of an e-mail; and the rule every short text a person
// types for others to read follows (person names, the fields of a delivery address).
import type { z } from "zod";

/**
 * What breaks a line or hides as it is shown: control characters (C0 with tab and line breaks, DEL, C1),
 * the line and paragraph separators, and the bidirectional controls.
 */
const NOT_ON_ONE_LINE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const RUNS_NOT_ON_ONE_LINE = new RegExp(`${NOT_ON_ONE_LINE.source}+`, "gu");

/** Text nobody can see: spaces, zero-width and other default-ignorable characters, fillers, the braille blank. */
const NOTHING_VISIBLE = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\u2800]*$/u;

export function isOneLine(text: string): boolean {
  return !NOT_ON_ONE_LINE.test(text);
}

/** The text with each run of line breaks and control characters made one space. */
export function oneLine(text: string): string {
  return text.replace(RUNS_NOT_ON_ONE_LINE, " ");
}

/** True when the text has something to see; "" has not. */
export function hasVisibleText(text: string): boolean {
  return !NOTHING_VISIBLE.test(text);
}

/** What is wrong with a short typed text: not on one line, or nothing visible in it (empty text is the caller's rule). */
export function typedTextFault(text: string): "not_one_line" | "invisible" | null {
  if (!isOneLine(text)) return "not_one_line";
  return text !== "" && !hasVisibleText(text) ? "invisible" : null;
}

/**
 * The typed-text rule as a zod refinement: at most one issue, with the caller's message for the fault found:
 * `z.string().superRefine(typedText({ notOneLine: "...", invisible: "..." }))`.
 */
export function typedText(messages: { notOneLine: string; invisible: string }) {
  return (text: string, ctx: z.RefinementCtx): void => {
    const fault = typedTextFault(text);
    if (fault) ctx.addIssue({ code: "custom", message: fault === "invisible" ? messages.invisible : messages.notOneLine });
  };
}
