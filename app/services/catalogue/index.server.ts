// Entry point for the rest of the app: which external catalogue (if any) is configured.

import { SlidingWindowRateLimiter, THINGIVERSE_RATE_LIMIT } from "./rate-limit";
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
  if (cached?.token !== token) cached = { token, source: createThingiverseSource({ token }) };
  return cached.source;
}

// ------------------------------------------------------------------------------------------
// The catalogue as background jobs use it
// ------------------------------------------------------------------------------------------

/**
 * The jobs' share of the catalogue's request budget: 200 of its 300 requests per 5 minutes;
 * visitors' pages keep the rest. CATALOGUE_JOB_BUDGET changes it (the benchmark lifts it). The
 * budget lives in the worker process: each machine that runs a worker has its own.
 */
export function jobBudget(env: Env = process.env): number {
  const configured = Number(env.CATALOGUE_JOB_BUDGET);
  return Number.isInteger(configured) && configured > 0 ? configured : 200;
}

let jobLimiter: SlidingWindowRateLimiter | null = null;

function jobLimiterFor(budget: number): SlidingWindowRateLimiter {
  if (jobLimiter?.limit !== budget) {
    jobLimiter = new SlidingWindowRateLimiter({
      limit: budget,
      windowMs: THINGIVERSE_RATE_LIMIT.windowMs,
      // a job waits for budget instead of failing; visitors never wait behind it
      maxWaitMs: THINGIVERSE_RATE_LIMIT.windowMs,
      source: "thingiverse (jobs)",
    });
  }
  return jobLimiter;
}

/**
 * The adapter for one background job: the configured token and the jobs' budget (searches,
 * file lists and downloads from the API host all take a slot). The job waits for a slot in
 * short slices and gives up as soon as `isCancelled` says so. Null when no token is configured.
 */
export function catalogueSourceForJobs(
  options: { isCancelled?: () => boolean; sliceMs?: number } = {},
  env: Env = process.env,
): CatalogueSource | null {
  const token = catalogueToken(env);
  if (!token) return null;
  const limiter = jobLimiterFor(jobBudget(env));
  return createThingiverseSource({
    token,
    limiter: { acquire: () => limiter.acquire({ isCancelled: options.isCancelled, sliceMs: options.sliceMs }) },
  });
}

/** Forgets the jobs' budget spent so far (tests). */
export function resetJobBudget(): void {
  jobLimiter = null;
}
