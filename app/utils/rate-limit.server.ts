// Fixed-window rate limits kept in the database, so every server instance counts together.
import { getClient } from "./db.server";

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
  /** when the window this attempt was counted in began (for refundRateLimit) */
  windowStart: number;
}

/** Counts one attempt for `key`; allowed while at most `limit` attempts fall in the window. */
export async function hitRateLimit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
  const client = await getClient();
  const stale = now - windowMs;
  // one statement: concurrent attempts cannot both see the old count
  const result = await client.execute({
    sql: `INSERT INTO rate_limits (key, count, window_start) VALUES (?1, 1, ?2)
          ON CONFLICT(key) DO UPDATE SET
            count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
            window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
          RETURNING count, window_start`,
    args: [key, now, stale],
  });
  const row = result.rows[0];
  const count = Number(row.count);
  const windowStart = Number(row.window_start);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  return { allowed: count <= limit, retryAfterSeconds, windowStart };
}

/** Takes back one attempt counted by hitRateLimit, unless its window has started over since. */
export async function refundRateLimit(key: string, hit: RateLimitResult) {
  const client = await getClient();
  await client.execute({
    sql: "UPDATE rate_limits SET count = max(count - 1, 0) WHERE key = ? AND window_start = ?",
    args: [key, hit.windowStart],
  });
}

/** Forgets a key's attempts (a successful sign-in clears its e-mail's failures). */
export async function clearRateLimit(key: string) {
  const client = await getClient();
  await client.execute({ sql: "DELETE FROM rate_limits WHERE key = ?", args: [key] });
}

/** Set by server/client-address.ts from the socket (or Fly's header when TRUST_PROXY=fly); any incoming value is overwritten. */
export const CLIENT_IP_HEADER = "x-printnear-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "local";
}

export function minutesText(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/**
 * Counts one failure for `key` and stamps its time (the row's window_start is the last failure);
 * failures older than `forgetAfterMs` start the count over.
 */
export async function recordFailure(key: string, forgetAfterMs: number, now = Date.now()): Promise<number> {
  const client = await getClient();
  const result = await client.execute({
    sql: `INSERT INTO rate_limits (key, count, window_start) VALUES (?1, 1, ?2)
          ON CONFLICT(key) DO UPDATE SET
            count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
            window_start = ?2
          RETURNING count`,
    args: [key, now, now - forgetAfterMs],
  });
  return Number(result.rows[0].count);
}

/** How many failures `key` has had and when the last one was (none when older than `forgetAfterMs`). */
export async function failureState(key: string, forgetAfterMs: number, now = Date.now()) {
  const client = await getClient();
  const result = await client.execute({ sql: "SELECT count, window_start FROM rate_limits WHERE key = ?", args: [key] });
  const row = result.rows[0];
  if (!row || Number(row.window_start) <= now - forgetAfterMs) return { count: 0, lastAt: 0 };
  return { count: Number(row.count), lastAt: Number(row.window_start) };
}
