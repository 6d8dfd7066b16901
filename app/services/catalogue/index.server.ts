// Entry point for the rest of the app: which external catalogue (if any) is configured.

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
 * The Thingiverse adapter when THINGIVERSE_TOKEN is set, otherwise null — callers then serve only
 * what our database holds. The placeholder 'mock-token' only counts in mock mode (MOCKS=true):
 * outside it, it would just earn 401s from the real API, so it is treated as "not configured".
 */
export function getCatalogueSource(env: Env = process.env): CatalogueSource | null {
  const token = env.THINGIVERSE_TOKEN?.trim();
  if (!token) return null;
  if (token === MOCK_THINGIVERSE_TOKEN && env.MOCKS !== "true") return null;
  if (cached?.token !== token) cached = { token, source: createThingiverseSource({ token }) };
  return cached.source;
}
