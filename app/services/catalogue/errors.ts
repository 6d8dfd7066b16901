// Typed failures of a catalogue source. Everything a source throws is a CatalogueUnavailableError
// (or a subclass), so callers need one `instanceof` check to fall back to our own database.

export type CatalogueFailureReason =
  | "http" // the source answered with a non-2xx status
  | "timeout" // no answer within the time limit
  | "network" // DNS, TLS, connection reset…
  | "malformed" // 2xx, but the body is not the shape we expect
  | "rate-limited"; // our own limiter, or the source's 429

export class CatalogueUnavailableError extends Error {
  override readonly name: string = "CatalogueUnavailableError";
  readonly source: string;
  /** HTTP status from the source; null when there was no HTTP answer (timeout, network, our limiter). */
  readonly status: number | null;
  readonly reason: CatalogueFailureReason;

  constructor(message: string, opts: { source: string; status: number | null; reason: CatalogueFailureReason; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.source = opts.source;
    this.status = opts.status;
    this.reason = opts.reason;
  }
}

/** The source answered 2xx but the body failed validation. */
export class CatalogueMalformedResponseError extends CatalogueUnavailableError {
  override readonly name: string = "CatalogueMalformedResponseError";
  /** Human-readable validation problems (path: message), at most a handful. */
  readonly issues: string[];

  constructor(message: string, opts: { source: string; status: number; issues: string[]; cause?: unknown }) {
    super(message, { source: opts.source, status: opts.status, reason: "malformed", cause: opts.cause });
    this.issues = opts.issues;
  }
}

/** The caller (a background job) was cancelled while waiting for the request budget. */
export class CatalogueCancelledError extends Error {
  override readonly name: string = "CatalogueCancelledError";
}

/** Too many requests: either our own budget is spent, or the source answered 429. */
export class CatalogueRateLimitError extends CatalogueUnavailableError {
  override readonly name: string = "CatalogueRateLimitError";
  /** How long until a request would be allowed again (best estimate), in ms. */
  readonly retryAfterMs: number;

  constructor(message: string, opts: { source: string; status: number | null; retryAfterMs: number }) {
    super(message, { source: opts.source, status: opts.status, reason: "rate-limited" });
    this.retryAfterMs = opts.retryAfterMs;
  }
}
