// Catalogue import and weight caching as background jobs. Everything goes through the catalogue
// adapter (search, files) with a request budget of its own, so a running import leaves the rest
// of the site's budget to visitors' pages; models are upserted on (source, source id), so an
// import never duplicates one. Weight caching downloads each model's printable file (https,
// allowed hosts, byte cap), analyses it in the worker threads, stores weight and print time,
// drops the bytes and skips models already cached. Handlers resume from their recorded items and
// the listing page saved as their checkpoint.
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { catalogueModels } from "../../../db/schema";
import { CATALOGUE_TASKS } from "~/domain/background-jobs";
import { AppError, isAppError } from "~/domain/app-error";
import { analyzeOffThread } from "~/services/designs/analysis-pool.server";
import {
  CatalogueCancelledError,
  CatalogueMalformedResponseError,
  catalogueSourceForJobs,
  CatalogueUnavailableError,
  type CatalogueModel,
  pickPrintableFile,
  type CatalogueSource,
} from "./index.server";
import { CATALOGUE_SOURCE, upsertCatalogueModels } from "./sync.server";
import { enqueueTask, PermanentTaskError, registerTaskHandler, type TaskContext } from "~/services/jobs/index.server";
import { MAX_DESIGN_BYTES } from "~/services/storage.server";
import { FILE_TOO_LARGE_MESSAGE } from "~/domain/upload-limits";
import { getDb } from "~/utils/db.server";

/** Admin input ranges and defaults. */
export const IMPORT_LIMITS = {
  popular: { min: 1, max: 200, default: 50 },
  category: { min: 1, max: 50, default: 20 },
  weightCount: { min: 1, max: 500, default: 100 },
  weightPage: { min: 1, max: 100, default: 1 },
  bulkTotal: { min: 100, max: 10_000, default: 1000 },
  bulkStartPage: { min: 1, max: 1000, default: 1 },
} as const;
export const BULK_PAGE_SIZE = 100;
const SEARCH_PAGE_SIZE = 100;

/** The catalogue adapter for this job (its budget, cancel-aware waits); a missing token fails the job at once. */
function sourceFor(ctx: TaskContext): CatalogueSource {
  const source = catalogueSourceForJobs({ isCancelled: () => ctx.isCancelled() });
  if (!source) throw new PermanentTaskError("Import failed. Please check API token and try again.");
  return source;
}

/**
 * Failures that may pass on a later attempt: the site or its CDN unreachable, slow or busy, our
 * analysis pool full, the job stopping. They fail the attempt (the job retries with backoff and
 * resumes from its recorded items) instead of being recorded as the model's final failure.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof CatalogueCancelledError) return true;
  if (error instanceof CatalogueMalformedResponseError) return false;
  if (error instanceof CatalogueUnavailableError) return error.status === null || error.status === 429 || error.status >= 500;
  return isAppError(error) && (error.code === "unavailable" || error.code === "busy");
}

export interface ImportStats {
  total: number;
  imported: number;
  updated: number;
  failed: number;
}

export interface WeightStats {
  total: number;
  calculated: number;
  cached: number;
  failed: number;
}

// ------------------------------------------------------------------------------------------
// Starting jobs (pages and API)
// ------------------------------------------------------------------------------------------

function whole(value: unknown, range: { min: number; max: number }, label: string): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < range.min || n > range.max) {
    throw new AppError("invalid", `${label} must be a whole number from ${range.min} to ${range.max}.`, { field: label });
  }
  return n;
}

export async function startPopularImport(input: { count: unknown }) {
  const count = whole(input.count ?? IMPORT_LIMITS.popular.default, IMPORT_LIMITS.popular, "count");
  return enqueueTask(CATALOGUE_TASKS.importPopular, { count }, { maxAttempts: 3 });
}

export async function startCategoryImport(input: { category: unknown; count: unknown }) {
  const category = typeof input.category === "string" ? input.category.trim() : "";
  if (!category) throw new AppError("invalid", "Please enter a category name", { field: "category" });
  if (category.length > 100) throw new AppError("invalid", "The category name is too long.", { field: "category" });
  const count = whole(input.count ?? IMPORT_LIMITS.category.default, IMPORT_LIMITS.category, "count");
  return enqueueTask(CATALOGUE_TASKS.importCategory, { category, count }, { maxAttempts: 3 });
}

export async function startWeightCaching(input: { count: unknown; page: unknown }) {
  const count = whole(input.count ?? IMPORT_LIMITS.weightCount.default, IMPORT_LIMITS.weightCount, "count");
  const page = whole(input.page ?? IMPORT_LIMITS.weightPage.default, IMPORT_LIMITS.weightPage, "page");
  return enqueueTask(CATALOGUE_TASKS.calculateWeights, { count, page }, { maxAttempts: 3 });
}

export async function startBulkCaching(input: { total: unknown; startPage: unknown }) {
  const total = whole(input.total ?? IMPORT_LIMITS.bulkTotal.default, IMPORT_LIMITS.bulkTotal, "total");
  const startPage = whole(input.startPage ?? IMPORT_LIMITS.bulkStartPage.default, IMPORT_LIMITS.bulkStartPage, "startPage");
  return enqueueTask(CATALOGUE_TASKS.bulkCache, { total, startPage }, { maxAttempts: 3 });
}

// ------------------------------------------------------------------------------------------
// Listing: which models a job covers
// ------------------------------------------------------------------------------------------

/**
 * The models at positions [offset, offset + count) of a listing, fetched in pages of 100. Once
 * the caller has handled a page, the next page is saved as the task's checkpoint, so a resumed
 * attempt skips the pages an earlier one finished (no listing request spent on them again).
 */
async function* listModels(
  ctx: TaskContext,
  source: CatalogueSource,
  query: { term: string; sort: "popular" | "relevant" },
  offset: number,
  count: number,
): AsyncGenerator<CatalogueModel[]> {
  const first = Math.floor(offset / SEARCH_PAGE_SIZE) + 1;
  const last = Math.floor((offset + count - 1) / SEARCH_PAGE_SIZE) + 1;
  const saved = (ctx.checkpoint as { nextPage?: unknown } | null)?.nextPage;
  const resumeAt = typeof saved === "number" && Number.isInteger(saved) ? Math.max(first, saved) : first;
  for (let page = resumeAt; page <= last; page++) {
    if (ctx.isCancelled()) return;
    const result = await source.search(query.term, { sort: query.sort, page, perPage: SEARCH_PAGE_SIZE });
    const start = (page - 1) * SEARCH_PAGE_SIZE;
    const models = result.models.filter((_, i) => start + i >= offset && start + i < offset + count);
    yield models;
    if (ctx.isCancelled()) return; // the caller stopped inside the page: it is not finished
    await ctx.saveCheckpoint({ nextPage: page + 1 });
    // the listing ended: judged by the hits the site sent, malformed ones (dropped) included
    if ((result.pageHits ?? result.models.length) < SEARCH_PAGE_SIZE) return;
  }
}

async function existingSourceIds(ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ sourceId: catalogueModels.sourceId })
    .from(catalogueModels)
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), inArray(catalogueModels.sourceId, ids)));
  return new Set(rows.map((r) => r.sourceId));
}

// ------------------------------------------------------------------------------------------
// Import
// ------------------------------------------------------------------------------------------

async function importListing(ctx: TaskContext, term: string, sort: "popular" | "relevant", count: number) {
  const source = sourceFor(ctx);
  const done = await ctx.doneItems();
  const stats: ImportStats = { total: count, imported: 0, updated: 0, failed: 0 };
  for (const outcome of done.values()) if (outcome in stats) stats[outcome as keyof ImportStats] += 1;
  let processed = done.size;
  await ctx.reportProgress({ processed, total: count, counts: countsOf(stats) });
  for await (const models of listModels(ctx, source, { term, sort }, 0, count)) {
    const fresh = models.filter((m) => !done.has(String(m.sourceId)));
    const known = await existingSourceIds(fresh.map((m) => m.sourceId));
    await upsertCatalogueModels(fresh, "summary");
    for (const m of fresh) {
      const outcome = known.has(m.sourceId) ? "updated" : "imported";
      if (await ctx.recordItem(String(m.sourceId), outcome)) stats[outcome] += 1;
      processed += 1;
    }
    await ctx.reportProgress({ processed, total: count, counts: countsOf(stats) });
  }
  await reportListingEnd(ctx, processed, stats);
  stats.total = processed;
  return stats;
}

/** The listing ended: the job's total becomes what the catalogue really had, so a finished bar is full. */
async function reportListingEnd(ctx: TaskContext, processed: number, stats: object) {
  if (!ctx.isCancelled()) await ctx.reportProgress({ processed, total: processed, counts: countsOf(stats) });
}

const countsOf = (stats: object) =>
  Object.fromEntries(Object.entries(stats).filter(([k]) => k !== "total")) as Record<string, number>;

registerTaskHandler<{ count: number }>(CATALOGUE_TASKS.importPopular, async (ctx) => {
  const stats = await importListing(ctx, "", "popular", ctx.payload.count);
  return { message: `Imported ${stats.imported} new models (${stats.updated} already in the catalogue were refreshed).`, stats };
});

registerTaskHandler<{ category: string; count: number }>(CATALOGUE_TASKS.importCategory, async (ctx) => {
  const stats = await importListing(ctx, ctx.payload.category, "relevant", ctx.payload.count);
  return {
    message: `Imported ${stats.imported} new "${ctx.payload.category}" models (${stats.updated} were already in the catalogue).`,
    stats,
  };
});

// ------------------------------------------------------------------------------------------
// Weight caching
// ------------------------------------------------------------------------------------------

async function cachedSourceIds(ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ sourceId: catalogueModels.sourceId })
    .from(catalogueModels)
    .where(
      and(
        eq(catalogueModels.source, CATALOGUE_SOURCE),
        inArray(catalogueModels.sourceId, ids),
        isNotNull(catalogueModels.estimatedWeightGrams),
      ),
    );
  return new Set(rows.map((r) => r.sourceId));
}

/** Downloads one model's printable file, analyses it off the request thread and stores weight, time and size. */
export async function weighCatalogueModel(
  source: CatalogueSource,
  sourceId: number,
): Promise<{ grams: number; minutes: number }> {
  const file = pickPrintableFile(await source.getFiles(sourceId));
  if (!file) throw new AppError("unsupported", "The model has no STL, OBJ or 3MF file to weigh.");
  if (file.size > MAX_DESIGN_BYTES) throw new AppError("too_large", FILE_TOO_LARGE_MESSAGE);
  // the adapter fetches over https from the site's own hosts, redirects re-checked, under the byte cap
  const bytes = await source.downloadFile(file, { maxBytes: MAX_DESIGN_BYTES });
  const { analysis } = await analyzeOffThread(bytes, file.name); // the file is not kept
  const db = await getDb();
  await db
    .update(catalogueModels)
    .set({
      estimatedWeightGrams: analysis.estimatedWeight,
      printTimeMinutes: analysis.estimatedTimeMinutes,
      sizeXMm: analysis.boundingBox.x,
      sizeYMm: analysis.boundingBox.y,
      sizeZMm: analysis.boundingBox.z,
      weightComputedAt: new Date(),
    })
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), eq(catalogueModels.sourceId, sourceId)));
  return { grams: analysis.estimatedWeight, minutes: analysis.estimatedTimeMinutes };
}

export async function cacheWeights(ctx: TaskContext, offset: number, count: number): Promise<WeightStats> {
  const source = sourceFor(ctx);
  const done = await ctx.doneItems();
  const stats: WeightStats = { total: count, calculated: 0, cached: 0, failed: 0 };
  for (const outcome of done.values()) if (outcome in stats) stats[outcome as keyof WeightStats] += 1;
  let processed = done.size;
  await ctx.reportProgress({ processed, total: count, counts: countsOf(stats) });
  for await (const models of listModels(ctx, source, { term: "", sort: "popular" }, offset, count)) {
    const fresh = models.filter((m) => !done.has(String(m.sourceId)));
    await upsertCatalogueModels(fresh, "summary");
    const cached = await cachedSourceIds(fresh.map((m) => m.sourceId));
    for (const m of fresh) {
      if (ctx.isCancelled()) return { ...stats, total: processed };
      let outcome: "calculated" | "cached" | "failed" = "cached";
      let failure: { reason: string } | undefined;
      if (!cached.has(m.sourceId)) {
        try {
          await weighCatalogueModel(source, m.sourceId);
          outcome = "calculated";
        } catch (error) {
          // stopping, or a failure a later attempt may get past: not this model's final outcome, unless this
          // is the job's last attempt, when one model's host that keeps failing must not fail the whole job
          if (ctx.isCancelled() || (isTransient(error) && !ctx.lastAttempt)) throw error;
          outcome = "failed";
          failure = { reason: error instanceof Error ? error.message : String(error) };
          console.warn(`Weight caching: model ${m.sourceId} failed: ${failure.reason}`);
        }
      }
      // a failed model keeps its reason, which the job's page lists
      if (await ctx.recordItem(String(m.sourceId), outcome, failure)) stats[outcome] += 1;
      processed += 1;
      await ctx.reportProgress({ processed, total: count, counts: countsOf(stats) });
    }
  }
  await reportListingEnd(ctx, processed, stats);
  return { ...stats, total: processed };
}

registerTaskHandler<{ count: number; page: number }>(CATALOGUE_TASKS.calculateWeights, async (ctx) => {
  const { count, page } = ctx.payload;
  const stats = await cacheWeights(ctx, (page - 1) * count, count);
  return { message: `Calculated: ${stats.calculated}, Cached: ${stats.cached}, Failed: ${stats.failed}`, stats };
});

registerTaskHandler<{ total: number; startPage: number }>(CATALOGUE_TASKS.bulkCache, async (ctx) => {
  const { total, startPage } = ctx.payload;
  const stats = await cacheWeights(ctx, (startPage - 1) * BULK_PAGE_SIZE, total);
  return {
    message: `Processed: ${stats.total}, Calculated: ${stats.calculated}, Cached: ${stats.cached}, Failed: ${stats.failed}`,
    stats,
  };
});
