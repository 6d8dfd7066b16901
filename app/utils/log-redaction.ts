// No log line carries a password hash, a session id, an e-mail address or other user content:
// errors are logged as their name, code, message and stack frames, with SQL parameters, query
// strings, hashes and e-mail addresses taken out (drizzle's errors carry the statement's values).

const ARGON2_HASH = /\$argon2(?:id|i|d)\$[^\s,'"\])]+/g;
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
const QUERY_STRING = /((?:[a-z][a-z0-9+.-]*:\/\/|\/)[^\s?#"'<>]*)\?[^\s#"'<>]*/gi;
const COOKIE = /\b(pn_session|pn_toast|cookie)=[^\s;,"']+/gi;

export function redactText(text: string): string {
  return text
    .replace(ARGON2_HASH, "[hash]")
    .replace(COOKIE, "$1=[redacted]")
    .replace(QUERY_STRING, "$1?[redacted]")
    .replace(EMAIL, "[e-mail]");
}

/** An error as one safe log text: name, code, message without parameters, stack frames, causes. */
export function describeError(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return redactText(typeof error === "string" ? error : safeString(error));
  const code = (error as { code?: unknown }).code;
  // drizzle: "Failed query: <sql>\nparams: <values>"; the values are user content
  const message = redactText(error.message.replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]"));
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .map(redactText)
    .join("\n");
  let text = `${error.name}${typeof code === "string" ? ` [${code}]` : ""}: ${message}${frames ? `\n${frames}` : ""}`;
  if (error.cause !== undefined && depth < 4) text += `\nCaused by: ${describeError(error.cause, depth + 1)}`;
  return text;
}

function safeString(value: unknown) {
  try {
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}

/** Wraps console.error/warn, where errors are written, so every such line goes through the redaction. */
export function installLogRedaction(target: Pick<Console, "error" | "warn"> = console) {
  for (const method of ["error", "warn"] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) =>
      original(
        ...args.map((arg) => (arg instanceof Error ? describeError(arg) : typeof arg === "string" ? redactText(arg) : arg)),
      );
  }
}
