// In-memory sliding-window rate limiter (per process).
//
// Thingiverse allows 300 requests per 5 minutes. We keep the timestamp of every request granted
// in the last window; a new request is allowed while fewer than `limit` timestamps are younger
// than `windowMs`. When the budget is spent we wait only if the next slot frees up soon
// (`maxWaitMs`); otherwise we refuse at once with a CatalogueRateLimitError carrying the wait,
// so a page render never hangs for minutes.
//
// Per process only: with several server processes each gets its own budget, so set `limit`
// to (API limit / process count) if the app is ever scaled out.

import { CatalogueCancelledError, CatalogueRateLimitError } from "./errors";

export interface Clock {
  /** Milliseconds, monotonic enough for windows of minutes. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface SlidingWindowOptions {
  limit: number;
  windowMs: number;
  /** Longest a caller of acquire() may be kept waiting, in ms. 0 = never wait. */
  maxWaitMs?: number;
  clock?: Clock;
  /** Named in errors, e.g. 'thingiverse'. */
  source?: string;
}

/** What an adapter asks before each request to the site's API: a slot of the budget. */
export interface RequestBudget {
  acquire(): Promise<void>;
}

export interface AcquireOptions {
  /** checked between waits: when true, acquire gives up with a CatalogueCancelledError */
  isCancelled?: () => boolean;
  /** the longest single wait before checking isCancelled again (default 1 s) */
  sliceMs?: number;
  /** this caller's longest wait in total, instead of the limiter's `maxWaitMs` */
  maxWaitMs?: number;
}

export type TryAcquireResult = { ok: true } | { ok: false; retryAfterMs: number };

export class SlidingWindowRateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxWaitMs: number;
  private readonly clock: Clock;
  private readonly source: string;
  /** Grant times, oldest first. */
  private granted: number[] = [];

  constructor(opts: SlidingWindowOptions) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new RangeError("limit must be a positive integer");
    if (!(opts.windowMs > 0)) throw new RangeError("windowMs must be positive");
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.maxWaitMs = Math.max(0, opts.maxWaitMs ?? 0);
    this.clock = opts.clock ?? systemClock;
    this.source = opts.source ?? "catalogue";
  }

  /** Drops grants that have left the window at `now`. A grant at t counts during [t, t + windowMs). */
  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.granted.length && this.granted[drop]! <= cutoff) drop++;
    if (drop > 0) this.granted.splice(0, drop);
  }

  /** Requests still allowed right now. */
  remaining(): number {
    this.prune(this.clock.now());
    return Math.max(0, this.limit - this.granted.length);
  }

  /** Takes a slot if one is free; never waits. */
  tryAcquire(): TryAcquireResult {
    const now = this.clock.now();
    this.prune(now);
    if (this.granted.length < this.limit) {
      this.granted.push(now);
      return { ok: true };
    }
    // The oldest grant that must expire before a slot frees up.
    const blocking = this.granted[this.granted.length - this.limit]!;
    return { ok: false, retryAfterMs: Math.max(1, blocking + this.windowMs - now) };
  }

  /**
   * Takes a slot, waiting up to `maxWaitMs` in total. Throws CatalogueRateLimitError (without
   * waiting) when the slot will not be free within that time.
   */
  async acquire(options: AcquireOptions = {}): Promise<void> {
    const deadline = this.clock.now() + Math.max(0, options.maxWaitMs ?? this.maxWaitMs);
    const sliceMs = Math.max(1, options.sliceMs ?? 1_000);
    for (;;) {
      if (options.isCancelled?.())
        throw new CatalogueCancelledError(`${this.source}: stopped while waiting for the request budget`);
      const result = this.tryAcquire();
      if (result.ok) return;
      const now = this.clock.now();
      if (now + result.retryAfterMs > deadline) {
        throw new CatalogueRateLimitError(
          `${this.source}: request budget of ${this.limit} per ${Math.round(this.windowMs / 1000)} s is spent; ` +
            `retry in ${Math.ceil(result.retryAfterMs / 1000)} s`,
          { source: this.source, status: null, retryAfterMs: result.retryAfterMs },
        );
      }
      // Waits in short slices so a cancelled caller stops soon; another waiter may take the slot
      // first, then we loop and re-check against the deadline.
      await this.clock.sleep(Math.min(result.retryAfterMs, sliceMs));
    }
  }

  /** Forget all grants (tests). */
  reset(): void {
    this.granted = [];
  }
}

/** Thingiverse's documented budget: 300 requests per 5 minutes. */
export const THINGIVERSE_RATE_LIMIT = { limit: 300, windowMs: 5 * 60 * 1000 } as const;
