// How a customer's file name is kept and shown: no folder part, no control characters, a bounded length.

/**
 * Never kept in a name we print back: control characters (C0, DEL, C1) and the bidirectional controls
 * (LRM/RLM/ALM, embeddings, overrides, isolates) that make "gpj.stl" look like "lts.jpg" on the page.
 */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The customer's file name without any folder part, trimmed to something a page can show. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(UNSAFE_CHARACTERS, "").trim();
  if (cleaned.length <= 200) return cleaned || "design";
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 ? cleaned.slice(dot) : "";
  return cleaned.slice(0, 200 - ext.length) + ext;
}
