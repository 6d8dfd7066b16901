// Library and catalogue models (lists, detail, likes, comments, ratings, uploads, licence rule), shared by pages and the API.
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { ModelCardData } from "~/components/model-card";
import {
  catalogueModels,
  categories,
  libraryModels,
  modelComments,
  modelFiles,
  modelLikes,
  modelRatings,
  users,
} from "../../db/schema";
import { COMMENT_MAX_LENGTH } from "~/components/model-feedback";
import { DEFAULT_MODEL_SORT, type ModelSort } from "~/components/model-filters";
import { DIFFICULTIES, LICENSES } from "~/domain/model-library";
import { quotePrice, type PriceQuote } from "~/domain/pricing";
import { getDb } from "~/utils/db.server";
import { licenseAllowsCommercialPrinting } from "./catalogue/index.server";
import { httpsUrl } from "./catalogue/thingiverse.server";
import { CATALOGUE_SOURCE, syncCatalogueModel, type SyncDeps, type SyncOutcome } from "./catalogue-sync.server";

export const MODEL_SOURCES = ["library", "thingiverse"] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];
export { MODEL_SORTS, parseModelSort, type ModelSort } from "~/components/model-filters";

export const MODEL_PAGE_SIZE = 24;

/** Document 000, model detail: the estimate's assumptions when a model records no weight or time. */
export const MODEL_DEFAULT_WEIGHT_GRAMS = 50;
export const MODEL_DEFAULT_PRINT_MINUTES = 60;

export type Difficulty = (typeof DIFFICULTIES)[number];
export type LibraryLicense = (typeof LICENSES)[number];

export function parseModelSource(value: string | null | undefined): ModelSource | null {
  return (MODEL_SOURCES as readonly string[]).includes(value ?? "") ? (value as ModelSource) : null;
}

/** A positive integer id from a URL, or null. */
export function parseModelId(value: string | number | null | undefined): number | null {
  const text = String(value ?? "");
  if (!/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

// ---------------------------------------------------------------------------------------------
// Licences
// ---------------------------------------------------------------------------------------------

/** Why a model cannot be ordered as a paid print, or null when its licence allows it. */
export function licenceRefusal(license: string | null | undefined): string | null {
  if (licenseAllowsCommercialPrinting(license)) return null;
  if (!license || license === "Other") {
    return "We couldn't confirm that this model's licence allows commercial use, so it can't be ordered as a paid print.";
  }
  return `This model is licensed ${license}, which does not allow commercial use, so it can't be ordered as a paid print. You can still download it and print it yourself.`;
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** What a card shows, plus what the API answers (id: library id, or the catalogue's sourceId). */
export interface ModelSummary extends ModelCardData {
  source: ModelSource;
  description: string;
  createdAt: string | null;
}

export interface ModelPage {
  models: ModelSummary[];
  total: number;
  page: number;
  pageCount: number;
}

export async function listCategories() {
  const db = await getDb();
  return db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.id));
}

export async function categoryExists(id: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).limit(1);
  return Boolean(row);
}

/** Free text as an FTS5 query: every word must match, as a prefix; operators typed by users are inert. */
export function ftsQuery(text: string | null | undefined): string | null {
  const words = (text ?? "").normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, 12)
    .map((w) => `"${w}"*`)
    .join(" ");
}

/** The user columns a name is made of, for selects joined to users. */
const nameColumns = { firstName: users.firstName, lastName: users.lastName, username: users.username };

function displayName(person: { firstName: string | null; lastName: string | null; username: string | null } | undefined): string {
  const full = [person?.firstName, person?.lastName].filter((p) => p && p.trim()).join(" ");
  return full || person?.username || "Printnear member";
}

export function libraryImagePath(id: number) {
  return `/models/library/${id}/image`;
}

function pageOf(requested: number | null | undefined) {
  return Math.max(1, Math.min(10_000, Math.floor(Number(requested) || 1)));
}

export async function listLibraryModels(options: {
  q?: string | null;
  sort?: ModelSort;
  categoryId?: number | null;
  page?: number | null;
  pageSize?: number;
}): Promise<ModelPage> {
  const db = await getDb();
  const sort = options.sort ?? DEFAULT_MODEL_SORT;
  const pageSize = options.pageSize ?? MODEL_PAGE_SIZE;
  const page = pageOf(options.page);
  const match = ftsQuery(options.q);
  // bm25: lower is better; a hit in the name counts most, then tags, then description
  const rank = sql`bm25(library_models_fts, 10.0, 2.0, 5.0)`;

  const where = and(
    options.categoryId ? eq(libraryModels.categoryId, options.categoryId) : undefined,
    match ? sql`library_models_fts MATCH ${match}` : undefined,
  );
  const relevance: SQL[] = match ? [asc(rank)] : [];
  const order: SQL[] =
    sort === "newest"
      ? [desc(libraryModels.createdAt), ...relevance, desc(libraryModels.id)]
      : sort === "popular"
        ? [desc(libraryModels.likeCount), ...relevance, desc(libraryModels.createdAt), desc(libraryModels.id)]
        : [
            desc(libraryModels.featured),
            ...relevance,
            desc(libraryModels.likeCount),
            desc(libraryModels.createdAt),
            desc(libraryModels.id),
          ];

  let rows = db
    .select({
      id: libraryModels.id,
      name: libraryModels.name,
      description: libraryModels.description,
      imageKey: libraryModels.imageKey,
      likeCount: libraryModels.likeCount,
      downloadCount: libraryModels.downloadCount,
      viewCount: libraryModels.viewCount,
      license: libraryModels.license,
      featured: libraryModels.featured,
      createdAt: libraryModels.createdAt,
      categoryName: categories.name,
      ...nameColumns,
    })
    .from(libraryModels)
    .innerJoin(users, eq(users.id, libraryModels.creatorId))
    .innerJoin(categories, eq(categories.id, libraryModels.categoryId))
    .$dynamic();
  let total = db.select({ n: count() }).from(libraryModels).$dynamic();
  if (match) {
    rows = rows.innerJoin(sql`library_models_fts`, sql`library_models_fts.rowid = ${libraryModels.id}`);
    total = total.innerJoin(sql`library_models_fts`, sql`library_models_fts.rowid = ${libraryModels.id}`);
  }
  const [found, [{ n }]] = await Promise.all([
    rows
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    total.where(where),
  ]);

  return {
    total: n,
    page,
    pageCount: Math.max(1, Math.ceil(n / pageSize)),
    models: found.map((m) => ({
      source: "library" as const,
      id: m.id,
      name: m.name,
      description: m.description,
      creatorName: displayName(m),
      thumbnailUrl: m.imageKey ? libraryImagePath(m.id) : null,
      likeCount: m.likeCount,
      downloadCount: m.downloadCount,
      viewCount: m.viewCount,
      license: m.license,
      commercialUse: licenseAllowsCommercialPrinting(m.license),
      featured: m.featured,
      categoryName: m.categoryName,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

function escapeLike(word: string) {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Our stored catalogue; every word of the search must appear in the name, description, creator or tags. */
export async function listCatalogueModels(options: {
  q?: string | null;
  sort?: ModelSort;
  page?: number | null;
  pageSize?: number;
}): Promise<ModelPage> {
  const db = await getDb();
  const sort = options.sort ?? DEFAULT_MODEL_SORT;
  const pageSize = options.pageSize ?? MODEL_PAGE_SIZE;
  const page = pageOf(options.page);
  const words =
    (options.q ?? "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  const haystack = sql`lower(${catalogueModels.name} || ' ' || ${catalogueModels.description} || ' ' || ${catalogueModels.creatorName} || ' ' || ${catalogueModels.tags})`;
  const where = and(
    eq(catalogueModels.source, CATALOGUE_SOURCE),
    ...words.map((w) => sql`${haystack} LIKE ${`%${escapeLike(w)}%`} ESCAPE '\\'`),
  );
  const order: SQL[] =
    sort === "newest"
      ? [sql`${catalogueModels.sourceCreatedAt} IS NULL`, desc(catalogueModels.sourceCreatedAt), desc(catalogueModels.id)]
      : sort === "popular"
        ? [desc(catalogueModels.likeCount), desc(catalogueModels.id)]
        : [desc(catalogueModels.featured), desc(catalogueModels.likeCount), desc(catalogueModels.id)];

  const [found, [{ n }]] = await Promise.all([
    db
      .select()
      .from(catalogueModels)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(catalogueModels).where(where),
  ]);
  return {
    total: n,
    page,
    pageCount: Math.max(1, Math.ceil(n / pageSize)),
    models: found.map(catalogueSummary),
  };
}

const SAME_ORIGIN = "https://printnear.invalid";

/**
 * A stored catalogue URL fit for href and src: https, or a path on our own site (the demo seed's
 * images). Rows written before the adapter checked URLs may hold `javascript:` and the like; and a
 * search hit's coalesce() keeps an old value when the new one was dropped, so reads check again.
 */
export function safeCatalogueUrl(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  if (text.startsWith("/")) {
    try {
      // "//host", "/\host" and the like leave our origin once a browser resolves them
      const url = new URL(text, SAME_ORIGIN);
      return url.origin === SAME_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
    } catch {
      return null;
    }
  }
  return httpsUrl(text);
}

/** The site's page for a catalogue model: the stored link when it is https, else the one we build. */
function cataloguePublicUrl(m: Pick<typeof catalogueModels.$inferSelect, "publicUrl" | "sourceId">): string {
  return httpsUrl(m.publicUrl) ?? `https://www.thingiverse.com/thing:${m.sourceId}`;
}

function catalogueImageUrls(m: Pick<typeof catalogueModels.$inferSelect, "imageUrls">): string[] {
  return m.imageUrls.map(safeCatalogueUrl).filter((u): u is string => u !== null);
}

function catalogueSummary(m: typeof catalogueModels.$inferSelect): ModelSummary {
  return {
    source: "thingiverse",
    id: m.sourceId,
    name: m.name,
    description: m.description,
    creatorName: m.creatorName || "Unknown",
    // every stored URL is checked again on the way out: it goes into href and src
    thumbnailUrl: safeCatalogueUrl(m.thumbnailUrl) ?? catalogueImageUrls(m)[0] ?? null,
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: licenseAllowsCommercialPrinting(m.license),
    featured: m.featured,
    categoryName: m.categoryName,
    createdAt: m.sourceCreatedAt?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Detail
// ---------------------------------------------------------------------------------------------

export interface ModelComment {
  id: number;
  userId: number;
  authorName: string;
  comment: string;
  createdAt: string;
}

export interface ModelDetail extends ModelSummary {
  creator: { firstName: string | null; lastName: string | null };
  creatorUrl: string | null;
  imageUrls: string[];
  licenceRefusal: string | null;
  category: { id: number | null; name: string } | null;
  difficulty: Difficulty | null;
  supportRequired: boolean | null;
  tags: string[];
  /** as recorded; null when the model has none */
  printTimeMinutes: number | null;
  filamentWeightGrams: number | null;
  averageRating: number | null;
  totalRatings: number;
  /** catalogue: the model's page on the model-sharing site */
  publicUrl: string | null;
  /** library: the stored printable file */
  file: { name: string; format: string; sizeBytes: number } | null;
  comments: ModelComment[];
}

export interface ViewerState {
  liked: boolean;
  rating: { rating: number; review: string | null } | null;
}

async function readLibraryDetail(id: number): Promise<ModelDetail | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      model: libraryModels,
      categoryName: categories.name,
      ...nameColumns,
    })
    .from(libraryModels)
    .innerJoin(users, eq(users.id, libraryModels.creatorId))
    .innerJoin(categories, eq(categories.id, libraryModels.categoryId))
    .where(eq(libraryModels.id, id))
    .limit(1);
  if (!row) return null;
  const m = row.model;
  const [file] = await db
    .select({ name: modelFiles.name, format: modelFiles.format, sizeBytes: modelFiles.sizeBytes })
    .from(modelFiles)
    .where(and(eq(modelFiles.libraryModelId, id), sql`${modelFiles.storageKey} IS NOT NULL`))
    .orderBy(desc(modelFiles.id))
    .limit(1);
  const comments = await db
    .select({
      id: modelComments.id,
      userId: modelComments.userId,
      comment: modelComments.comment,
      createdAt: modelComments.createdAt,
      ...nameColumns,
    })
    .from(modelComments)
    .innerJoin(users, eq(users.id, modelComments.userId))
    .where(eq(modelComments.libraryModelId, id))
    .orderBy(desc(modelComments.createdAt), desc(modelComments.id))
    .limit(200);

  const image = m.imageKey ? libraryImagePath(m.id) : null;
  return {
    source: "library",
    id: m.id,
    name: m.name,
    description: m.description,
    creatorName: displayName(row),
    creator: { firstName: row.firstName, lastName: row.lastName },
    creatorUrl: null,
    thumbnailUrl: image,
    imageUrls: image ? [image] : [],
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: licenseAllowsCommercialPrinting(m.license),
    licenceRefusal: licenceRefusal(m.license),
    featured: m.featured,
    categoryName: row.categoryName,
    category: { id: m.categoryId, name: row.categoryName },
    difficulty: m.difficulty,
    supportRequired: m.supportRequired,
    tags: m.tags,
    printTimeMinutes: m.printTimeMinutes > 0 ? m.printTimeMinutes : null,
    filamentWeightGrams: m.filamentWeightGrams > 0 ? m.filamentWeightGrams : null,
    averageRating: m.ratingCount > 0 ? Math.round((m.ratingSum / m.ratingCount) * 10) / 10 : null,
    totalRatings: m.ratingCount,
    createdAt: m.createdAt.toISOString(),
    publicUrl: null,
    file: file ?? null,
    comments: comments.map((c) => ({
      id: c.id,
      userId: c.userId,
      authorName: displayName(c),
      comment: c.comment,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/** Our stored copy of a catalogue model, by the site's id. */
async function findCatalogueRow(sourceId: number) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(catalogueModels)
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), eq(catalogueModels.sourceId, sourceId)))
    .limit(1);
  return row ?? null;
}

async function readCatalogueDetail(sourceId: number): Promise<ModelDetail | null> {
  const m = await findCatalogueRow(sourceId);
  if (!m) return null;
  const summary = catalogueSummary(m);
  const images = catalogueImageUrls(m);
  return {
    ...summary,
    creator: { firstName: summary.creatorName, lastName: null },
    creatorUrl: httpsUrl(m.creatorUrl),
    imageUrls: images.length > 0 ? images : summary.thumbnailUrl ? [summary.thumbnailUrl] : [],
    licenceRefusal: licenceRefusal(m.license),
    category: m.categoryName ? { id: null, name: m.categoryName } : null,
    difficulty: null,
    supportRequired: null,
    tags: m.tags,
    printTimeMinutes: m.printTimeMinutes && m.printTimeMinutes > 0 ? m.printTimeMinutes : null,
    filamentWeightGrams: m.estimatedWeightGrams && m.estimatedWeightGrams > 0 ? m.estimatedWeightGrams : null,
    averageRating: null,
    totalRatings: 0,
    publicUrl: cataloguePublicUrl(m),
    file: null,
    comments: [],
  };
}

/**
 * One model for its page or the API; a stale catalogue copy is refreshed from the site first.
 * Pass the visitor's `request` so that refresh counts against their share of the site's budget.
 */
export async function getModelDetail(
  source: ModelSource,
  id: number,
  options: { countView?: boolean; sync?: SyncDeps; request?: Request } = {},
): Promise<{ model: ModelDetail | null; sync: SyncOutcome | null }> {
  if (source === "library") {
    if (options.countView) {
      const db = await getDb();
      await db
        .update(libraryModels)
        .set({ viewCount: sql`${libraryModels.viewCount} + 1` })
        .where(eq(libraryModels.id, id));
    }
    return { model: await readLibraryDetail(id), sync: null };
  }
  const sync = await syncCatalogueModel(id, { request: options.request, ...options.sync });
  return { model: await readCatalogueDetail(id), sync };
}

export async function getViewerState(modelId: number, userId: number): Promise<ViewerState> {
  const db = await getDb();
  const [[like], [rating]] = await Promise.all([
    db
      .select({ userId: modelLikes.userId })
      .from(modelLikes)
      .where(and(eq(modelLikes.libraryModelId, modelId), eq(modelLikes.userId, userId)))
      .limit(1),
    db
      .select({ rating: modelRatings.rating, review: modelRatings.review })
      .from(modelRatings)
      .where(and(eq(modelRatings.libraryModelId, modelId), eq(modelRatings.userId, userId)))
      .limit(1),
  ]);
  return { liked: Boolean(like), rating: rating ?? null };
}

export interface ModelEstimate {
  quote: PriceQuote;
  weightGrams: number;
  printTimeMinutes: number;
  colors: 1;
  /** true when the model records no weight or time and the document's defaults were used */
  assumedWeight: boolean;
  assumedTime: boolean;
}

/** The Print this Model card: the one engine, at the platform rate, one colour. */
export function modelEstimate(model: Pick<ModelDetail, "filamentWeightGrams" | "printTimeMinutes">): ModelEstimate {
  const weightGrams = model.filamentWeightGrams ?? MODEL_DEFAULT_WEIGHT_GRAMS;
  const printTimeMinutes = model.printTimeMinutes ?? MODEL_DEFAULT_PRINT_MINUTES;
  return {
    quote: quotePrice({ weightGrams, printTimeMinutes, colors: 1 }),
    weightGrams,
    printTimeMinutes,
    colors: 1,
    assumedWeight: model.filamentWeightGrams === null,
    assumedTime: model.printTimeMinutes === null,
  };
}

// ---------------------------------------------------------------------------------------------
// Ordering (the server side of /order-model)
// ---------------------------------------------------------------------------------------------

export interface OrderableModel {
  source: ModelSource;
  /** library id, or the catalogue's sourceId */
  id: number;
  name: string;
  license: string;
  /** null when the model records none: callers apply their own default */
  weightGrams: number | null;
  printTimeMinutes: number | null;
  /** library: the stored file to print (copy storageKey onto the job) */
  file: { id: number; name: string; format: string; sizeBytes: number; storageKey: string; analysis: unknown } | null;
  /** catalogue: our catalogue_models row id and the model's page on the site */
  catalogueModelId: number | null;
  publicUrl: string | null;
}

export type OrderCheck = { ok: true; model: OrderableModel } | { ok: false; status: 404 | 403; message: string };

export const MODEL_NOT_FOUND = "Model not found";

/** Whether a model may be ordered as a paid print, with what the order needs. Catalogue licences are refreshed first. */
export async function getOrderableModel(source: string, id: number | string, deps: SyncDeps = {}): Promise<OrderCheck> {
  const modelSource = parseModelSource(source);
  const modelId = parseModelId(id);
  if (!modelSource || !modelId) return { ok: false, status: 404, message: MODEL_NOT_FOUND };
  const db = await getDb();

  let model: OrderableModel;
  if (modelSource === "library") {
    const [row] = await db.select().from(libraryModels).where(eq(libraryModels.id, modelId)).limit(1);
    if (!row) return { ok: false, status: 404, message: MODEL_NOT_FOUND };
    const [file] = await db
      .select()
      .from(modelFiles)
      .where(and(eq(modelFiles.libraryModelId, modelId), sql`${modelFiles.storageKey} IS NOT NULL`))
      .orderBy(desc(modelFiles.id))
      .limit(1);
    model = {
      source: "library",
      id: row.id,
      name: row.name,
      license: row.license,
      weightGrams: row.filamentWeightGrams > 0 ? row.filamentWeightGrams : null,
      printTimeMinutes: row.printTimeMinutes > 0 ? row.printTimeMinutes : null,
      file: file
        ? {
            id: file.id,
            name: file.name,
            format: file.format,
            sizeBytes: file.sizeBytes,
            storageKey: file.storageKey!,
            analysis: file.analysis,
          }
        : null,
      catalogueModelId: null,
      publicUrl: null,
    };
  } else {
    await syncCatalogueModel(modelId, deps);
    const row = await findCatalogueRow(modelId);
    if (!row) return { ok: false, status: 404, message: MODEL_NOT_FOUND };
    model = {
      source: "thingiverse",
      id: row.sourceId,
      name: row.name,
      license: row.license,
      weightGrams: row.estimatedWeightGrams && row.estimatedWeightGrams > 0 ? row.estimatedWeightGrams : null,
      printTimeMinutes: row.printTimeMinutes && row.printTimeMinutes > 0 ? row.printTimeMinutes : null,
      file: null,
      catalogueModelId: row.id,
      publicUrl: cataloguePublicUrl(row),
    };
  }
  const refusal = licenceRefusal(model.license);
  if (refusal) return { ok: false, status: 403, message: refusal };
  return { ok: true, model };
}

/** The orderable model, or a thrown JSON Response ({ message }) with 404 or 403. */
export async function assertModelOrderable(source: string, id: number | string, deps: SyncDeps = {}): Promise<OrderableModel> {
  const check = await getOrderableModel(source, id, deps);
  if (!check.ok) throw Response.json({ message: check.message }, { status: check.status });
  return check.model;
}

// ---------------------------------------------------------------------------------------------
// Likes, comments, ratings (library models only)
// ---------------------------------------------------------------------------------------------

export async function libraryModelExists(id: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: libraryModels.id }).from(libraryModels).where(eq(libraryModels.id, id)).limit(1);
  return Boolean(row);
}

export const OWN_MODEL_RATING = "You can't rate your own model.";

/** Whether this user uploaded this library model (creators may not rate their own; see decision 007). */
export async function isLibraryModelCreator(modelId: number, userId: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: libraryModels.id })
    .from(libraryModels)
    .where(and(eq(libraryModels.id, modelId), eq(libraryModels.creatorId, userId)))
    .limit(1);
  return Boolean(row);
}

/** Sets the like to the wanted state (so a double submit changes nothing twice); null when the model is absent. */
export async function setLike(
  modelId: number,
  userId: number,
  liked: boolean,
): Promise<{ liked: boolean; likeCount: number } | null> {
  if (!(await libraryModelExists(modelId))) return null;
  const db = await getDb();
  if (liked) {
    await db.insert(modelLikes).values({ userId, libraryModelId: modelId }).onConflictDoNothing();
  } else {
    await db.delete(modelLikes).where(and(eq(modelLikes.libraryModelId, modelId), eq(modelLikes.userId, userId)));
  }
  // the count is recomputed from the rows, so concurrent likes can never drift it
  const [row] = await db
    .update(libraryModels)
    .set({ likeCount: sql`(select count(*) from ${modelLikes} where ${modelLikes.libraryModelId} = ${modelId})` })
    .where(eq(libraryModels.id, modelId))
    .returning({ likeCount: libraryModels.likeCount });
  return { liked, likeCount: row?.likeCount ?? 0 };
}

export async function toggleLike(modelId: number, userId: number) {
  const { liked } = await getViewerState(modelId, userId);
  return setLike(modelId, userId, !liked);
}

export async function addComment(modelId: number, userId: number, text: string): Promise<ModelComment | null> {
  const comment = text.trim();
  if (!comment) throw new RangeError("A comment cannot be blank.");
  if (!(await libraryModelExists(modelId))) return null;
  const db = await getDb();
  const [row] = await db
    .insert(modelComments)
    .values({ libraryModelId: modelId, userId, comment: comment.slice(0, COMMENT_MAX_LENGTH) })
    .returning();
  const [author] = await db.select(nameColumns).from(users).where(eq(users.id, userId));
  return {
    id: row!.id,
    userId,
    authorName: displayName(author),
    comment: row!.comment,
    createdAt: row!.createdAt.toISOString(),
  };
}

/**
 * One rating per user and model; a second one updates the first. null when the model is absent;
 * the model's creator gets a thrown JSON 403 `Response` ({ message: OWN_MODEL_RATING }), as
 * assertModelOrderable throws its refusals.
 */
export async function rateModel(
  modelId: number,
  userId: number,
  input: { rating: number; review?: string | null; hasPrinted?: boolean },
): Promise<{ rating: number; review: string | null; averageRating: number | null; totalRatings: number } | null> {
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5) throw new RangeError("A rating is 1 to 5 stars.");
  const db = await getDb();
  const [model] = await db
    .select({ creatorId: libraryModels.creatorId })
    .from(libraryModels)
    .where(eq(libraryModels.id, modelId))
    .limit(1);
  if (!model) return null;
  if (model.creatorId === userId) throw Response.json({ message: OWN_MODEL_RATING }, { status: 403 });
  const review = input.review?.trim() ? input.review.trim().slice(0, COMMENT_MAX_LENGTH) : null;
  const hasPrinted = input.hasPrinted ?? false;
  await db
    .insert(modelRatings)
    .values({ libraryModelId: modelId, userId, rating: input.rating, review, hasPrinted })
    .onConflictDoUpdate({
      target: [modelRatings.libraryModelId, modelRatings.userId],
      set: { rating: input.rating, review, hasPrinted, updatedAt: new Date() },
    });
  const [row] = await db
    .update(libraryModels)
    .set({
      ratingSum: sql`(select coalesce(sum(${modelRatings.rating}), 0) from ${modelRatings} where ${modelRatings.libraryModelId} = ${modelId})`,
      ratingCount: sql`(select count(*) from ${modelRatings} where ${modelRatings.libraryModelId} = ${modelId})`,
    })
    .where(eq(libraryModels.id, modelId))
    .returning({ ratingSum: libraryModels.ratingSum, ratingCount: libraryModels.ratingCount });
  const totalRatings = row?.ratingCount ?? 0;
  return {
    rating: input.rating,
    review,
    averageRating: totalRatings > 0 ? Math.round((row!.ratingSum / totalRatings) * 10) / 10 : null,
    totalRatings,
  };
}

// ---------------------------------------------------------------------------------------------
// Uploads, files and images
// ---------------------------------------------------------------------------------------------

export interface NewLibraryModel {
  creatorId: number;
  name: string;
  description: string;
  categoryId: number;
  difficulty: Difficulty;
  printTimeMinutes: number;
  filamentWeightGrams: number;
  supportRequired: boolean;
  license: LibraryLicense;
  tags: string[];
  imageKey?: string | null;
  file?: { name: string; sizeBytes: number; format: string; storageKey: string; analysis: unknown } | null;
}

export async function createLibraryModel(input: NewLibraryModel): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(libraryModels)
      .values({
        creatorId: input.creatorId,
        categoryId: input.categoryId,
        name: input.name,
        description: input.description,
        difficulty: input.difficulty,
        printTimeMinutes: input.printTimeMinutes,
        filamentWeightGrams: input.filamentWeightGrams,
        supportRequired: input.supportRequired,
        license: input.license,
        tags: input.tags,
        imageKey: input.imageKey ?? null,
      })
      .returning({ id: libraryModels.id });
    if (input.file) {
      await tx.insert(modelFiles).values({ libraryModelId: row!.id, ...input.file });
    }
    return row!.id;
  });
}

/** The stored file of a library model, or null when it has none. */
export async function libraryModelFile(id: number) {
  const db = await getDb();
  const [file] = await db
    .select({
      name: modelFiles.name,
      format: modelFiles.format,
      storageKey: modelFiles.storageKey,
      sizeBytes: modelFiles.sizeBytes,
    })
    .from(modelFiles)
    .where(and(eq(modelFiles.libraryModelId, id), sql`${modelFiles.storageKey} IS NOT NULL`))
    .orderBy(desc(modelFiles.id))
    .limit(1);
  return file?.storageKey ? { ...file, storageKey: file.storageKey } : null;
}

export async function countLibraryDownload(id: number) {
  const db = await getDb();
  await db
    .update(libraryModels)
    .set({ downloadCount: sql`${libraryModels.downloadCount} + 1` })
    .where(eq(libraryModels.id, id));
}

export async function libraryImageKey(id: number): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ imageKey: libraryModels.imageKey })
    .from(libraryModels)
    .where(eq(libraryModels.id, id))
    .limit(1);
  return row?.imageKey ?? null;
}

// ---------------------------------------------------------------------------------------------
// JSON shapes of document 000 section 3
// ---------------------------------------------------------------------------------------------

/** A catalogue model as the API answers it ("Featured model"): the site's field names. */
export function apiCatalogueModel(m: ModelSummary | ModelDetail) {
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    thumbnail: m.thumbnailUrl,
    creator: { name: m.creatorName },
    like_count: m.likeCount,
    download_count: m.downloadCount,
    view_count: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    featured: m.featured,
    category: m.categoryName,
    createdAt: m.createdAt,
  };
}

/** A library model list item ("Library model" without the comments). */
export function apiLibrarySummary(m: ModelSummary) {
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    featured: m.featured,
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    createdAt: m.createdAt,
    thumbnail: m.thumbnailUrl,
    creatorName: m.creatorName,
    category: m.categoryName,
  };
}

export function apiModelDetail(m: ModelDetail) {
  const estimate = modelEstimate(m);
  const priceEstimate = {
    ...estimate.quote,
    weightGrams: estimate.weightGrams,
    printTimeMinutes: estimate.printTimeMinutes,
    colors: 1,
  };
  if (m.source === "thingiverse") {
    return {
      ...apiCatalogueModel(m),
      images: m.imageUrls.map((url) => ({ url, sizes: [{ url }] })),
      public_url: m.publicUrl,
      tags: m.tags,
      estimatedWeight: m.filamentWeightGrams,
      printTime: m.printTimeMinutes,
      licenceRefusal: m.licenceRefusal,
      priceEstimate,
    };
  }
  return {
    id: m.id,
    source: m.source,
    name: m.name,
    description: m.description,
    featured: m.featured,
    difficulty: m.difficulty,
    supportRequired: m.supportRequired,
    printTime: m.printTimeMinutes ?? 0,
    filamentWeight: m.filamentWeightGrams ?? 0,
    averageRating: m.averageRating ?? 0,
    totalRatings: m.totalRatings,
    downloadCount: m.downloadCount,
    likeCount: m.likeCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: m.commercialUse,
    licenceRefusal: m.licenceRefusal,
    createdAt: m.createdAt,
    thumbnail: m.thumbnailUrl,
    images: m.imageUrls.map((url) => ({ url, sizes: [{ url }] })),
    creator: m.creator,
    comments: m.comments,
    category: m.category,
    tags: m.tags,
    file: m.file,
    priceEstimate,
  };
}
