// Text that must stay on one line: a name, a line of an e-mail.

/**
 * What breaks a line or hides as it is shown: control characters (C0 with tab and line breaks, DEL, C1),
 * the line and paragraph separators, and the bidirectional controls.
 */
const NOT_ON_ONE_LINE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const RUNS_NOT_ON_ONE_LINE = new RegExp(`${NOT_ON_ONE_LINE.source}+`, "gu");

export function isOneLine(text: string): boolean {
  return !NOT_ON_ONE_LINE.test(text);
}

/** The text with each run of line breaks and control characters made one space. */
export function oneLine(text: string): string {
  return text.replace(RUNS_NOT_ON_ONE_LINE, " ");
}
