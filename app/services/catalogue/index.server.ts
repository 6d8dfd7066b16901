// Entry point for the rest of the app: which external catalogue (if any) is configured.

import { SlidingWindowRateLimiter, THINGIVERSE_RATE_LIMIT, type RequestBudget } from "./rate-limit";
import { createThingiverseSource } from "./thingiverse.server";
import type { CatalogueSource } from "./types";

export * from "./types";
export * from "./errors";
export { createThingiverseSource, sharedThingiverseLimiter } from "./thingiverse.server";

/** Where the catalogue's pictures are served from: the pages show them directly (the server's img-src allows them). */
export const CATALOGUE_IMAGE_SOURCES = ["https://*.thingiverse.com"];
export { SlidingWindowRateLimiter, THINGIVERSE_RATE_LIMIT, type Clock } from "./rate-limit";
export { httpsUrl } from "./thingiverse.server";
export {
  allowedThingiverseUrl as allowedDownloadUrl,
  downloadThingiverseUrl as downloadCatalogueFile,
  THINGIVERSE_DOWNLOAD_HOSTS as CATALOGUE_DOWNLOAD_HOSTS,
  thingPageUrl as catalogueModelPageUrl,
} from "./thingiverse-files.server";

/** The placeholder token used with MOCKS=true; msw answers instead of Thingiverse. */
export const MOCK_THINGIVERSE_TOKEN = "mock-token";

type Env = Record<string, string | undefined>;

let cached: { token: string; source: CatalogueSource } | null = null;

/**
 * The token the adapter uses: THINGIVERSE_TOKEN, or in mock mode (MOCKS=true) the placeholder when none
 * is set, so the demo answers the whole catalogue from the mocks. The placeholder only counts in mock
 * mode: outside it, it would just earn 401s from the real API, so it is treated as "not configured".
 */
export function catalogueToken(env: Env = process.env): string | null {
  const mock = env.MOCKS === "true";
  const token = env.THINGIVERSE_TOKEN?.trim() || (mock ? MOCK_THINGIVERSE_TOKEN : "");
  if (!token) return null;
  if (token === MOCK_THINGIVERSE_TOKEN && !mock) return null;
  return token;
}

/** The Thingiverse adapter when a token is configured, otherwise null — callers then serve only what our database holds. */
export function getCatalogueSource(env: Env = process.env): CatalogueSource | null {
  const token = catalogueToken(env);
  if (!token) return null;
  if (cached?.token !== token) cached = { token, source: createThingiverseSource({ token, limiter: siteSlot }) };
  return cached.source;
}

// ------------------------------------------------------------------------------------------
// The site's request budget: everyone's, the jobs' part and the visitors' part
// ------------------------------------------------------------------------------------------

/**
 * The site's limit as this process keeps it: every request to its API passes it, whoever asks
 * (visitors' pages, jobs, scripts), so together they never exceed it. 300 per 5 minutes;
 * CATALOGUE_SITE_LIMIT changes it (the benchmark, answered by mocks, lifts it).
 */
export function siteBudget(env: Env = process.env): number {
  const configured = Number(env.CATALOGUE_SITE_LIMIT);
  return Number.isInteger(configured) && configured > 0 ? configured : THINGIVERSE_RATE_LIMIT.limit;
}

/**
 * The jobs' part of the site's budget: 200 of its 300 requests per 5 minutes. CATALOGUE_JOB_BUDGET
 * changes it (the benchmark lifts it). The budget lives in the worker process: each machine that
 * runs a worker has its own.
 */
export function jobBudget(env: Env = process.env): number {
  const configured = Number(env.CATALOGUE_JOB_BUDGET);
  return Number.isInteger(configured) && configured > 0 ? configured : 200;
}

/** The visitors' part: what the jobs' part leaves of the site's budget (100 of 300), shared by every visitor. */
export function visitorsBudget(env: Env = process.env): number {
  return Math.max(0, siteBudget(env) - jobBudget(env));
}

const limiters = new Map<"site" | "jobs" | "visitors", SlidingWindowRateLimiter>();

/** The process's limiter for one part of the budget, made again when its configured size changes. */
function limiterFor(part: "site" | "jobs" | "visitors", limit: number, maxWaitMs: number): SlidingWindowRateLimiter {
  const current = limiters.get(part);
  if (current?.limit === limit) return current;
  const fresh = new SlidingWindowRateLimiter({
    limit,
    windowMs: THINGIVERSE_RATE_LIMIT.windowMs,
    maxWaitMs,
    source: part === "site" ? "thingiverse" : `thingiverse (${part})`,
  });
  limiters.set(part, fresh);
  return fresh;
}

/** Everyone's budget: a page waits at most 2 s for a slot, then falls back to our table. */
function siteLimiter(env: Env = process.env): SlidingWindowRateLimiter {
  return limiterFor("site", siteBudget(env), 2_000);
}

const siteSlot: RequestBudget = { acquire: () => siteLimiter().acquire() };

/** Slots of the visitors' part left in this window; 0 means visitors' pages are served from our table. */
export function visitorSlotsLeft(env: Env = process.env): number {
  const limit = visitorsBudget(env);
  return limit === 0 ? 0 : limiterFor("visitors", limit, 0).remaining();
}

/** Takes one slot of the visitors' part for a visitor's ask of the site; false when visitors have spent it. */
export function takeVisitorSlot(env: Env = process.env): boolean {
  const limit = visitorsBudget(env);
  return limit > 0 && limiterFor("visitors", limit, 0).tryAcquire().ok;
}

/**
 * The adapter for one background job: the configured token, a slot of the jobs' part and then
 * one of the site's budget for every request (searches, file lists and downloads from the API
 * host). The job waits for its slots in short slices, at most `maxWaitMs` (default: the budget's
 * window), and gives up as soon as `isCancelled` says so. Null when no token is configured.
 */
export function catalogueSourceForJobs(
  options: { isCancelled?: () => boolean; sliceMs?: number; maxWaitMs?: number } = {},
  env: Env = process.env,
): CatalogueSource | null {
  const token = catalogueToken(env);
  if (!token) return null;
  const wait = {
    isCancelled: options.isCancelled,
    sliceMs: options.sliceMs,
    maxWaitMs: options.maxWaitMs ?? THINGIVERSE_RATE_LIMIT.windowMs,
  };
  const jobs = limiterFor("jobs", jobBudget(env), THINGIVERSE_RATE_LIMIT.windowMs);
  return createThingiverseSource({
    token,
    limiter: {
      async acquire() {
        await jobs.acquire(wait);
        await siteLimiter(env).acquire(wait);
      },
    },
  });
}

/** Forgets the budget spent so far: everyone's, the jobs' and the visitors' (tests). */
export function resetCatalogueBudgets(): void {
  limiters.clear();
}
