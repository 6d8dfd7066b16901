// Thingiverse's pages and file hosts: where a thing's page is, and how its printable files are
// downloaded (the API host takes the token and redirects to the CDN, which never sees it).
import { AppError } from "~/domain/app-error";
import { FILE_TOO_LARGE_MESSAGE, MAX_DESIGN_BYTES } from "~/domain/upload-limits";
import { allowedUrl, downloadChecked } from "./download.server";
import type { RequestBudget } from "./rate-limit";
import type { CatalogueFile } from "./types";

export const THINGIVERSE_SITE = "https://www.thingiverse.com";

/** Hosts a file may be fetched from, redirects included: Thingiverse's API, site, CDN and its older S3 asset host. */
export const THINGIVERSE_DOWNLOAD_HOSTS: readonly string[] = [
  "api.thingiverse.com",
  "www.thingiverse.com",
  "thingiverse.com",
  "cdn.thingiverse.com",
  "thingiverse-production-new.s3.amazonaws.com",
];
/** Only the API host gets the bearer token; CDNs never see it. */
const TOKEN_HOSTS: readonly string[] = ["api.thingiverse.com"];

/** A thing's page on the site. */
export function thingPageUrl(id: number): string {
  return `${THINGIVERSE_SITE}/thing:${id}`;
}

export function allowedThingiverseUrl(raw: string): URL | null {
  return allowedUrl(raw, THINGIVERSE_DOWNLOAD_HOSTS);
}

/** A URL's bytes under the site's rules; at most maxBytes (an upload's limit unless told). */
export function downloadThingiverseUrl(
  rawUrl: string,
  options: { token?: string; fetch?: typeof fetch; maxBytes?: number; timeoutMs?: number; limiter?: RequestBudget } = {},
): Promise<Uint8Array> {
  const { limiter, ...rest } = options;
  return downloadChecked(rawUrl, {
    ...rest,
    // a request to the API host takes a slot of the request budget, like every API call
    beforeTokenHostRequest: limiter ? () => limiter.acquire() : undefined,
    maxBytes: options.maxBytes ?? MAX_DESIGN_BYTES,
    hosts: THINGIVERSE_DOWNLOAD_HOSTS,
    tokenHosts: TOKEN_HOSTS,
  });
}

/** A listed file's bytes: its direct CDN link when that is on an allowed host, else the API's download endpoint. */
export function downloadThingiverseFile(
  file: CatalogueFile,
  options: { token: string; fetch?: typeof fetch; maxBytes: number; limiter?: RequestBudget },
): Promise<Uint8Array> {
  if (file.size > options.maxBytes) return Promise.reject(new AppError("too_large", FILE_TOO_LARGE_MESSAGE));
  const direct = file.directUrl ? allowedThingiverseUrl(file.directUrl) : null;
  return downloadThingiverseUrl(direct ? direct.href : file.downloadUrl, options);
}
