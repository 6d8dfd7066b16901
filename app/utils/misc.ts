// Small helpers every route shares (as the Epic Stack has them): the one id parser and
// invariantResponse for loaders and actions. React helpers live in app/utils/misc-react.ts.

/**
 * A positive integer id from a route param, form field or query parameter, or null. The one id parser: only
 * plain decimal digits without a leading zero ("12"); "1e3", "0x10", "1.0", "+1", "012", "" and unsafe
 * integers are null. A number is taken when it is a safe positive integer.
 */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** Throws a Response (400 unless responseInit says otherwise) when the condition is false; narrows it when true. */
export function invariantResponse(
  condition: unknown,
  message: string | (() => string),
  responseInit?: ResponseInit,
): asserts condition {
  if (!condition) {
    throw new Response(typeof message === "function" ? message() : message, { status: 400, ...responseInit });
  }
}

/** A param that must be an id; a thrown 404 otherwise. */
export function requireIdParam(value: string | undefined, what = "Not found"): number {
  const id = parseId(value);
  invariantResponse(id !== null, what, { status: 404 });
  return id;
}

/**
 * The refused post's conform result when the form that posted it carried this intent (and these
 * fields, as useIsPending takes them; "" for a field the form does not post): several forms on one
 * page answer through one action, and each shows only its own refusal.
 */
export function resultForIntent<Result extends { initialValue?: Record<string, unknown> | null }>(
  result: Result | null | undefined,
  intent: string | ((posted: string) => boolean),
  values?: Record<string, string | number>,
): Result | undefined {
  const posted = result?.initialValue?.intent;
  if (typeof posted !== "string") return undefined;
  if (!(typeof intent === "string" ? posted === intent : intent(posted))) return undefined;
  const fields = result!.initialValue!;
  return Object.entries(values ?? {}).every(([name, value]) => (fields[name] ?? "") === String(value)) ? result! : undefined;
}
