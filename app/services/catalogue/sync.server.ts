// Keeps catalogue_models in step with the model-sharing site, so pages read our table and never fail with the API.
import { and, eq, sql } from "drizzle-orm";
import { catalogueModels } from "../../../db/schema";
import { getDb, unlessWriteLocked } from "~/utils/db.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import {
  CatalogueRateLimitError,
  CatalogueUnavailableError,
  getCatalogueSource,
  takeVisitorSlot,
  visitorSlotsLeft,
  type CatalogueModel,
  type CatalogueSort,
  type CatalogueSource,
} from "./index.server";

export const CATALOGUE_SOURCE = "thingiverse" as const;
/** A page waits at most this long for the site; the adapter's own 8 s limit is for batch work. */
export const CATALOGUE_TIMEOUT_MS = 2_500;
/** A listing (sort, term, page) is asked again after this long. */
export const LISTING_TTL_MS = 5 * 60_000;
/** A model's full details (licence, counts) are asked again after this long. */
export const DETAIL_TTL_MS = 60 * 60_000;
/** After a failure the site is left alone for this long, so a dead API costs one timeout, not one per page. */
export const FAILURE_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;

export const BROWSE_TYPES = ["featured", "newest", "popular"] as const;
export type BrowseType = (typeof BROWSE_TYPES)[number];

/**
 * One visitor (a signed-in user, or else a client IP) may make the site be asked this many times
 * per window; past that their pages are served from our table. It is a twentieth of the visitors'
 * part of the site's budget (100 of 300 requests / 5 min), so a few busy visitors leave the rest
 * to everyone else.
 */
export const VISITOR_SYNC_LIMIT = 5;
export const VISITOR_SYNC_WINDOW_MS = 5 * 60_000;
/** The most listing keys and missing ids remembered; the oldest are forgotten first. */
export const MAX_REMEMBERED = 5_000;

/**
 * What happened with the site: the page may show a small notice for "unavailable".
 * "limited": this visitor has used up their share, so the site was not asked (no notice).
 * "deferred": another connection held the write lock, so the visitor's page did not wait to store (no notice).
 */
export type SyncOutcome = "updated" | "cached" | "missing" | "unavailable" | "limited" | "not-configured" | "deferred";

export interface SyncDeps {
  /** undefined: the configured source (THINGIVERSE_TOKEN); null: none. */
  source?: CatalogueSource | null;
  now?: () => number;
  timeoutMs?: number;
  /**
   * The visitor, when a page or API call triggers the sync: asking the site then counts against their
   * share. Without it (scripts, imports) nothing is counted.
   */
  visitor?: CatalogueVisitor;
}

/** Who made a page or API call ask the site: the signed-in user's id (or null), and the client's address. */
export interface CatalogueVisitor {
  userId: number | null;
  clientIp: string;
}

const SORT_FOR: Record<BrowseType, CatalogueSort> = { featured: "relevant", newest: "newest", popular: "popular" };

/** listing key → when the site was last asked for it */
const listingSeenAt = new Map<string, number>();
/** sourceId → until when the site's "no such thing" is believed */
const missingUntil = new Map<number, number>();
let unavailableUntil = 0;

/** Forget listing freshness, missing ids and back-off (tests, and an admin import that wants fresh data). */
export function resetCatalogueSync() {
  listingSeenAt.clear();
  missingUntil.clear();
  unavailableUntil = 0;
}

/** How much the in-memory caches hold (tests and diagnostics). */
export function catalogueSyncMemory() {
  return { listings: listingSeenAt.size, missing: missingUntil.size };
}

/** Sets key → value as the newest entry, forgetting the oldest entries past MAX_REMEMBERED. */
function remember<K>(map: Map<K, number>, key: K, value: number) {
  map.delete(key); // re-inserting moves the key to the end of the Map's insertion order
  map.set(key, value);
  while (map.size > MAX_REMEMBERED) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

function resolve(deps: SyncDeps) {
  return {
    source: deps.source === undefined ? getCatalogueSource() : deps.source,
    now: deps.now ?? Date.now,
    timeoutMs: deps.timeoutMs ?? CATALOGUE_TIMEOUT_MS,
  };
}

/** Whose share an ask spends: the signed-in user's, or else the client IP's (visitors behind one address share it). */
function visitorKey(visitor: CatalogueVisitor): string {
  return visitor.userId !== null ? `catalogue:user:${visitor.userId}` : `catalogue:${visitor.clientIp}`;
}

/**
 * Counts one ask of the site against the visitor's share and the visitors' part of the budget;
 * false when either is used up (the caller then skips the sync).
 */
async function visitorMayAsk(visitor: CatalogueVisitor | undefined, now: number): Promise<boolean> {
  if (!visitor) return true;
  if (visitorSlotsLeft() === 0) return false; // spent by other visitors: this one's share stays unused
  const { allowed } = await hitRateLimit(visitorKey(visitor), VISITOR_SYNC_LIMIT, VISITOR_SYNC_WINDOW_MS, now);
  return allowed && takeVisitorSlot();
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  // the losing promise must not become an unhandled rejection
  work.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CatalogueUnavailableError(`catalogue: no answer within ${ms} ms`, {
            source: CATALOGUE_SOURCE,
            status: null,
            reason: "timeout",
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function noteFailure(error: unknown, now: number) {
  const wait =
    error instanceof CatalogueRateLimitError
      ? Math.min(MAX_BACKOFF_MS, Math.max(FAILURE_BACKOFF_MS, error.retryAfterMs))
      : FAILURE_BACKOFF_MS;
  unavailableUntil = now + wait;
  console.warn(`[catalogue] falling back to stored models: ${error instanceof Error ? error.message : String(error)}`);
}

/** The licence as we keep it: our normalised name, or the site's own words when we have no name for it. */
export function storedLicense(model: Pick<CatalogueModel, "license" | "licenseRaw">): string {
  if (model.license !== "Other") return model.license;
  return model.licenseRaw?.trim() || "Other";
}

/** Upserts what the site returned; search hits ("summary") lack licence, description and counts, so rows keep theirs. */
export async function upsertCatalogueModels(models: CatalogueModel[], kind: "summary" | "full") {
  if (models.length === 0) return;
  const db = await getDb();
  const statements = models.map((m) => {
    const base = {
      source: CATALOGUE_SOURCE,
      sourceId: m.sourceId,
      name: m.name,
      creatorName: m.creatorName,
      creatorUrl: m.creatorUrl ?? null,
      thumbnailUrl: m.thumbnailUrl || null,
      imageUrls: m.imageUrls,
      publicUrl: m.publicUrl,
      likeCount: m.likeCount,
      tags: m.tags,
      featured: m.isFeatured ?? false,
      sourceCreatedAt: new Date(m.createdAt),
    };
    if (kind === "full") {
      const full = {
        ...base,
        description: m.description,
        downloadCount: m.downloadCount,
        viewCount: m.viewCount,
        license: storedLicense(m),
        categoryName: m.categoryName ?? null,
        fetchedAt: new Date(),
      };
      return db
        .insert(catalogueModels)
        .values(full)
        .onConflictDoUpdate({
          target: [catalogueModels.source, catalogueModels.sourceId],
          set: {
            ...full,
            categoryName: sql`coalesce(excluded.category_name, ${catalogueModels.categoryName})`,
            featured: m.isFeatured === undefined ? sql`${catalogueModels.featured}` : m.isFeatured,
          },
        });
    }
    return (
      db
        .insert(catalogueModels)
        // epoch 0: details never fetched, so the model page asks for them
        .values({ ...base, license: "Other", fetchedAt: new Date(0) })
        .onConflictDoUpdate({
          target: [catalogueModels.source, catalogueModels.sourceId],
          set: {
            name: base.name,
            creatorName: base.creatorName,
            creatorUrl: sql`coalesce(excluded.creator_url, ${catalogueModels.creatorUrl})`,
            thumbnailUrl: sql`coalesce(excluded.thumbnail_url, ${catalogueModels.thumbnailUrl})`,
            publicUrl: base.publicUrl,
            likeCount: base.likeCount,
            tags: base.tags,
            featured: m.isFeatured === undefined ? sql`${catalogueModels.featured}` : m.isFeatured,
            sourceCreatedAt: base.sourceCreatedAt,
          },
        })
    );
  });
  const [first, ...rest] = statements;
  await db.batch([first!, ...rest]);
}

type ListingQuery = { type: BrowseType; q?: string; page?: number; perPage?: number };

/** A visitor's refresh is best-effort: it never waits for a held write lock, and their page reads what is stored. */
function bestEffortForVisitor(deps: SyncDeps, sync: () => Promise<SyncOutcome>): Promise<SyncOutcome> {
  return deps.visitor ? unlessWriteLocked(sync, () => "deferred" as const) : sync();
}

/** Asks the site for one listing page and stores it; the caller then reads our table. */
export function syncCatalogueListing(query: ListingQuery, deps: SyncDeps = {}): Promise<SyncOutcome> {
  return bestEffortForVisitor(deps, () => syncListing(query, deps));
}

async function syncListing(query: ListingQuery, deps: SyncDeps): Promise<SyncOutcome> {
  const { source, now, timeoutMs } = resolve(deps);
  if (!source) return "not-configured";
  const q = (query.q ?? "").trim();
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const key = `${query.type}|${q.toLowerCase()}|${page}|${query.perPage ?? ""}`;
  const seen = listingSeenAt.get(key);
  if (seen !== undefined && now() - seen < LISTING_TTL_MS) return "cached";
  if (now() < unavailableUntil) return "unavailable";
  if (!(await visitorMayAsk(deps.visitor, now()))) return "limited";

  let models: CatalogueModel[];
  try {
    const result = await withTimeout(source.search(q, { sort: SORT_FOR[query.type], page, perPage: query.perPage }), timeoutMs);
    models = result.models;
  } catch (error) {
    noteFailure(error, now());
    return "unavailable";
  }
  await upsertCatalogueModels(models, "summary");
  remember(listingSeenAt, key, now());
  return "updated";
}

/** Refreshes one model's full details when they are missing or stale. */
export function syncCatalogueModel(sourceId: number, deps: SyncDeps & { force?: boolean } = {}): Promise<SyncOutcome> {
  return bestEffortForVisitor(deps, () => syncModel(sourceId, deps));
}

async function syncModel(sourceId: number, deps: SyncDeps & { force?: boolean }): Promise<SyncOutcome> {
  const { source, now, timeoutMs } = resolve(deps);
  if (!source) return "not-configured";
  if (!deps.force) {
    const db = await getDb();
    const [row] = await db
      .select({ fetchedAt: catalogueModels.fetchedAt })
      .from(catalogueModels)
      .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), eq(catalogueModels.sourceId, sourceId)))
      .limit(1);
    if (row && now() - row.fetchedAt.getTime() < DETAIL_TTL_MS) return "cached";
    // the site's "no such thing" holds as long as details do, so made-up ids cost one call an hour each
    const until = missingUntil.get(sourceId);
    if (until !== undefined && now() < until) return "missing";
  }
  if (now() < unavailableUntil) return "unavailable";
  if (!(await visitorMayAsk(deps.visitor, now()))) return "limited";

  let model: CatalogueModel | null;
  try {
    model = await withTimeout(source.getModel(sourceId), timeoutMs);
  } catch (error) {
    noteFailure(error, now());
    return "unavailable";
  }
  if (!model) {
    remember(missingUntil, sourceId, now() + DETAIL_TTL_MS);
    return "missing";
  }
  missingUntil.delete(sourceId);
  await upsertCatalogueModels([model], "full");
  return "updated";
}
