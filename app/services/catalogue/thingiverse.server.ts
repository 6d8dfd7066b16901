// Thingiverse adapter: speaks https://api.thingiverse.com and answers in our catalogue shapes.
//
// Endpoints used (the /newest, /popular and /featured listings are deprecated and not used):
//   GET /search/{term}/?type=things&sort=newest|popular|relevant&page=&per_page=
//   GET /search/?type=things&sort=…            (browse: no term)
//   GET /things/{id}
//   GET /things/{id}/files
//   GET /things/{id}/images
// Auth: `Authorization: Bearer <app token>`. See docs/decisions/004-catalogue-adapter.md.

import type { ZodType, ZodTypeDef } from "zod";
import { CatalogueMalformedResponseError, CatalogueRateLimitError, CatalogueUnavailableError } from "./errors";
import { toPlainText } from "./plain-text";
import { SlidingWindowRateLimiter, THINGIVERSE_RATE_LIMIT, type RequestBudget } from "./rate-limit";
import { downloadThingiverseFile, THINGIVERSE_SITE, thingPageUrl } from "./thingiverse-files.server";
import {
  arraySchema,
  fileSchema,
  imageSchema,
  searchSchema,
  thingSchema,
  type TvFile,
  type TvImage,
  type TvThing,
} from "./thingiverse.schema";
import {
  fileFormatFromName,
  normalizeLicense,
  type CatalogueFile,
  type CatalogueImage,
  type CatalogueModel,
  type CatalogueSearchOptions,
  type CatalogueSearchResult,
  type CatalogueSource,
} from "./types";

export const THINGIVERSE_API_BASE = "https://api.thingiverse.com";
export { THINGIVERSE_SITE };
const SOURCE = "thingiverse";

export const DEFAULT_TIMEOUT_MS = 8_000;
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** The limiter of an adapter built without one; the app's adapters take the budget parts of index.server.ts. */
export const sharedThingiverseLimiter = new SlidingWindowRateLimiter({
  ...THINGIVERSE_RATE_LIMIT,
  maxWaitMs: 2_000,
  source: SOURCE,
});

export interface ThingiverseSourceOptions {
  token: string;
  /** Defaults to https://api.thingiverse.com. */
  baseUrl?: string;
  /** Per request; defaults to 8 s. */
  timeoutMs?: number;
  /** Defaults to sharedThingiverseLimiter (300 requests / 5 min, waits at most 2 s). */
  limiter?: RequestBudget;
  /** Defaults to global fetch (which msw intercepts in tests and MOCKS=true). */
  fetch?: typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// Mapping: Thingiverse → our shapes
// ---------------------------------------------------------------------------------------------

/** Thingiverse dates: "2019-10-15T13:12:43+00:00" (things) or "2019-08-09 11:41:43" (files, UTC). */
export function parseThingiverseDate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let s = raw.trim();
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s)) s = `${s.replace(" ", "T")}Z`;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * The URL when it is an absolute https URL, else null. Whatever the site sends ends up in
 * <a href> and <img src>, where React 18 still renders `javascript:` and `data:` URLs.
 */
export function httpsUrl(raw: string | null | undefined): string | null {
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

type Sizes = NonNullable<TvImage["sizes"]>;

function pickSize(sizes: Sizes | null | undefined, prefs: ReadonlyArray<readonly [string, string]>): string | null {
  if (!sizes?.length) return null;
  for (const [type, size] of prefs) {
    const hit = sizes.find((s) => s.type === type && s.size === size && httpsUrl(s.url));
    if (hit) return httpsUrl(hit.url);
  }
  return null;
}

const LARGE_PREFS = [
  ["display", "large"],
  ["preview", "large"],
  ["display", "medium"],
  ["preview", "featured"],
  ["thumb", "large"],
] as const;
const THUMB_PREFS = [
  ["thumb", "medium"],
  ["preview", "card"],
  ["thumb", "large"],
  ["display", "small"],
  ["display", "medium"],
] as const;

function isTruthyFlag(v: TvThing["is_featured"]): boolean | undefined {
  if (v == null) return undefined;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  return v === "1" || v.toLowerCase() === "true";
}

function nonEmpty(s: string | null | undefined): s is string {
  return typeof s === "string" && s.trim() !== "";
}

/** Returns null when the thing has no usable creation date (treated as a malformed item). */
export function mapThing(t: TvThing): CatalogueModel | null {
  const createdAt = parseThingiverseDate(t.added ?? t.created_at);
  if (!createdAt) return null;

  // every URL is kept only when it is https: a bad image is dropped, a bad page link replaced by ours
  const defaultLarge = pickSize(t.default_image?.sizes, LARGE_PREFS) ?? httpsUrl(t.default_image?.url);
  const imageUrls = [...new Set([defaultLarge, httpsUrl(t.preview_image)].filter(nonEmpty))];
  const thumbnailUrl =
    [httpsUrl(t.thumbnail), pickSize(t.default_image?.sizes, THUMB_PREFS), httpsUrl(t.preview_image), imageUrls[0]].find(
      nonEmpty,
    ) ?? "";

  const tags = (t.tags ?? [])
    .map((tag) => (typeof tag === "string" ? tag : (tag.name ?? tag.tag)))
    .filter(nonEmpty)
    .map((s) => s.trim());

  const creatorName = [t.creator?.name].find(nonEmpty) ?? "Unknown";
  const creatorUrl = httpsUrl(t.creator?.public_url);
  const categoryName = t.categories?.map((c) => c.name).find(nonEmpty);
  const isFeatured = isTruthyFlag(t.is_featured);
  const licenseRaw = nonEmpty(t.license) ? t.license : null;

  const model: CatalogueModel = {
    sourceId: t.id,
    name: t.name,
    description: toPlainText(nonEmpty(t.description) ? t.description : t.description_html),
    creatorName,
    thumbnailUrl,
    imageUrls,
    publicUrl: httpsUrl(t.public_url) ?? thingPageUrl(t.id),
    likeCount: t.like_count ?? 0,
    downloadCount: t.download_count ?? 0,
    viewCount: t.view_count ?? 0,
    license: normalizeLicense(licenseRaw),
    licenseRaw,
    tags: [...new Set(tags)],
    createdAt,
  };
  if (creatorUrl) model.creatorUrl = creatorUrl;
  if (categoryName) model.categoryName = categoryName;
  if (isFeatured !== undefined) model.isFeatured = isFeatured;
  return model;
}

/** Returns null when the file has no https download URL. */
export function mapFile(f: TvFile): CatalogueFile | null {
  const downloadUrl = httpsUrl(f.download_url);
  if (!downloadUrl) return null;
  const file: CatalogueFile = {
    id: f.id,
    name: f.name,
    size: f.size ?? 0,
    downloadUrl,
    format: fileFormatFromName(f.name),
  };
  const directUrl = httpsUrl(f.direct_url);
  if (directUrl) file.directUrl = directUrl;
  return file;
}

/** Returns null when the image has no https URL at all. */
export function mapImage(i: TvImage): CatalogueImage | null {
  const url =
    pickSize(i.sizes, LARGE_PREFS) ?? httpsUrl(i.url) ?? (i.sizes ?? []).map((s) => httpsUrl(s.url)).find(nonEmpty) ?? null;
  if (!url) return null;
  return {
    id: i.id,
    name: i.name ?? "",
    url,
    thumbnailUrl: pickSize(i.sizes, THUMB_PREFS) ?? url,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

function describeIssues(error: { issues: { path: (string | number)[]; message: string }[] }): string[] {
  return error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
}

function retryAfterMs(header: string | null): number {
  if (!header) return 60_000;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return Math.max(1, secs * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 60_000 : Math.max(1, at - Date.now());
}

/** Release an unread body without waiting on it (awaiting cancel() can stall on some streams). */
function discard(res: Response): void {
  res.body?.cancel().catch(() => {});
}

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}

export function createThingiverseSource(opts: ThingiverseSourceOptions): CatalogueSource {
  const token = opts.token.trim();
  if (!token) throw new Error("createThingiverseSource: token is required");
  const baseUrl = (opts.baseUrl ?? THINGIVERSE_API_BASE).replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limiter = opts.limiter ?? sharedThingiverseLimiter;
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));

  /** GET a JSON answer; `null` only for a 404 when `notFoundAsNull`. */
  async function getJson<T>(path: string, schema: ZodType<T, ZodTypeDef, unknown>, notFoundAsNull: boolean): Promise<T | null> {
    await limiter.acquire();
    const url = `${baseUrl}${path}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new CatalogueUnavailableError(
        timedOut ? `thingiverse: no answer within ${timeoutMs} ms (${path})` : `thingiverse: request failed (${path})`,
        { source: SOURCE, status: null, reason: timedOut ? "timeout" : "network", cause: err },
      );
    }

    if (res.status === 404 && notFoundAsNull) {
      discard(res);
      return null;
    }
    if (res.status === 429) {
      discard(res);
      throw new CatalogueRateLimitError(`thingiverse: rate limited by the API (${path})`, {
        source: SOURCE,
        status: 429,
        retryAfterMs: retryAfterMs(res.headers.get("retry-after")),
      });
    }
    if (!res.ok) {
      discard(res);
      throw new CatalogueUnavailableError(`thingiverse: HTTP ${res.status} (${path})`, {
        source: SOURCE,
        status: res.status,
        reason: "http",
      });
    }

    let body: unknown;
    try {
      body = await res.json();
    } catch (err) {
      // Includes a body cut short by the timeout while streaming.
      if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
        throw new CatalogueUnavailableError(`thingiverse: answer not complete within ${timeoutMs} ms (${path})`, {
          source: SOURCE,
          status: res.status,
          reason: "timeout",
          cause: err,
        });
      }
      throw new CatalogueMalformedResponseError(`thingiverse: answer is not JSON (${path})`, {
        source: SOURCE,
        status: res.status,
        issues: ["body: not valid JSON"],
        cause: err,
      });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new CatalogueMalformedResponseError(`thingiverse: unexpected answer shape (${path})`, {
        source: SOURCE,
        status: res.status,
        issues: describeIssues(parsed.error),
      });
    }
    return parsed.data;
  }

  /**
   * Validates list items one by one and keeps the good ones. A list where every item is bad is
   * treated as a malformed answer (the API changed shape), not as an empty list.
   */
  function keepValid<Raw, Out>(
    items: unknown[],
    schema: ZodType<Raw, ZodTypeDef, unknown>,
    map: (raw: Raw) => Out | null,
    path: string,
  ): Out[] {
    const out: Out[] = [];
    let firstIssues: string[] = [];
    for (const item of items) {
      const r = schema.safeParse(item);
      const mapped = r.success ? map(r.data) : null;
      if (mapped) out.push(mapped);
      else if (firstIssues.length === 0)
        firstIssues = r.success ? ["item: no usable date or https url"] : describeIssues(r.error);
    }
    if (items.length > 0 && out.length === 0) {
      throw new CatalogueMalformedResponseError(`thingiverse: no usable item in answer (${path})`, {
        source: SOURCE,
        status: 200,
        issues: firstIssues,
      });
    }
    return out;
  }

  return {
    id: "thingiverse",

    async search(term: string, options: CatalogueSearchOptions): Promise<CatalogueSearchResult> {
      const q = term.trim();
      const page = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page : 1));
      const perPage = Math.min(
        MAX_PER_PAGE,
        Math.max(1, Math.floor(Number.isFinite(options.perPage) ? options.perPage! : DEFAULT_PER_PAGE)),
      );
      const params = new URLSearchParams({
        type: "things",
        sort: options.sort,
        page: String(page),
        per_page: String(perPage),
      });
      const path = `${q ? `/search/${encodeURIComponent(q)}/` : "/search/"}?${params.toString()}`;
      const body = (await getJson(path, searchSchema, false))!;
      const hits = body.hits ?? [];
      const models = keepValid(hits, thingSchema, mapThing, path);
      return { total: body.total ?? models.length, models, pageHits: hits.length };
    },

    async getModel(id: number): Promise<CatalogueModel | null> {
      if (!validId(id)) return null;
      const path = `/things/${id}`;
      const thing = await getJson(path, thingSchema, true);
      if (!thing) return null;
      const model = mapThing(thing);
      if (!model) {
        throw new CatalogueMalformedResponseError(`thingiverse: thing has no usable date (${path})`, {
          source: SOURCE,
          status: 200,
          issues: ["added: missing or not a date"],
        });
      }
      return model;
    },

    async getFiles(id: number): Promise<CatalogueFile[]> {
      if (!validId(id)) return [];
      const path = `/things/${id}/files`;
      const items = await getJson(path, arraySchema, true);
      return items ? keepValid(items, fileSchema, mapFile, path) : [];
    },

    async getImages(id: number): Promise<CatalogueImage[]> {
      if (!validId(id)) return [];
      const path = `/things/${id}/images`;
      const items = await getJson(path, arraySchema, true);
      return items ? keepValid(items, imageSchema, mapImage, path) : [];
    },

    downloadFile(file: CatalogueFile, options: { maxBytes: number }): Promise<Uint8Array> {
      // the API host's download endpoint spends the budget like any API call; CDN hosts do not
      return downloadThingiverseFile(file, { token, fetch: opts.fetch, maxBytes: options.maxBytes, limiter });
    },
  };
}
