// One model for its page or the API (library or catalogue), and what the signed-in viewer did with it.
import { and, desc, eq, sql } from "drizzle-orm";
import { categories, libraryModels, modelComments, modelFiles, modelLikes, modelRatings, users } from "../../../db/schema";
import { licenseRefusal, licenseAllowsCommercialPrinting } from "~/domain/licenses";
import { displayName, type ModelDetail, type ModelSource, type ViewerState } from "~/domain/models";
import { getDb } from "~/utils/db.server";
import { readFromPrimaryOnMiss } from "~/utils/replica.server";
import { countView, unwrittenCounts } from "./counters.server";
import { httpsUrl } from "../catalogue/index.server";
import { syncCatalogueModel, type CatalogueVisitor, type SyncDeps, type SyncOutcome } from "../catalogue/sync.server";
import {
  catalogueImageUrls,
  cataloguePublicUrl,
  catalogueSummary,
  findCatalogueRow,
  libraryImagePath,
  nameColumns,
} from "./shared.server";

/** The size the engine read from a stored file's analysis (its bounding box); null without one. */
function analyzedSize(analysis: unknown): ModelDetail["size"] {
  if (!analysis || typeof analysis !== "object") return null;
  const box = (analysis as { boundingBox?: unknown }).boundingBox;
  if (!box || typeof box !== "object") return null;
  const { x, y, z } = box as Record<string, unknown>;
  return typeof x === "number" && typeof y === "number" && typeof z === "number" ? { x, y, z } : null;
}

async function readLibraryDetail(id: number): Promise<ModelDetail | null> {
  const db = await getDb();
  // a model uploaded through another machine a moment ago (its upload redirects here)
  const row = await readFromPrimaryOnMiss(async () => {
    const [found] = await db
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
    return found;
  });
  if (!row) return null;
  const m = row.model;
  const [file] = await db
    .select({ name: modelFiles.name, format: modelFiles.format, sizeBytes: modelFiles.sizeBytes, analysis: modelFiles.analysis })
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
    creatorId: m.creatorId,
    creatorUrl: null,
    thumbnailUrl: image,
    imageUrls: image ? [image] : [],
    likeCount: m.likeCount,
    downloadCount: m.downloadCount,
    viewCount: m.viewCount,
    license: m.license,
    commercialUse: licenseAllowsCommercialPrinting(m.license),
    licenseRefusal: licenseRefusal(m.license),
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
    file: file ? { name: file.name, format: file.format, sizeBytes: file.sizeBytes } : null,
    size: analyzedSize(file?.analysis),
    comments: comments.map((c) => ({
      id: c.id,
      userId: c.userId,
      authorName: displayName(c),
      comment: c.comment,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

async function readCatalogueDetail(sourceId: number): Promise<ModelDetail | null> {
  const m = await findCatalogueRow(sourceId);
  if (!m) return null;
  const summary = catalogueSummary(m);
  const images = catalogueImageUrls(m);
  return {
    ...summary,
    creator: { firstName: summary.creatorName, lastName: null },
    creatorId: null,
    creatorUrl: httpsUrl(m.creatorUrl),
    imageUrls: images.length > 0 ? images : summary.thumbnailUrl ? [summary.thumbnailUrl] : [],
    licenseRefusal: licenseRefusal(m.license),
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
    // kept with the weight when its file was weighed; unknown before that
    size: m.sizeXMm !== null && m.sizeYMm !== null && m.sizeZMm !== null ? { x: m.sizeXMm, y: m.sizeYMm, z: m.sizeZMm } : null,
    comments: [],
  };
}

/** A library model's counts with the views and downloads not yet written added. */
function withUnwrittenCounts(model: ModelDetail): ModelDetail {
  const extra = unwrittenCounts(model.id);
  return { ...model, viewCount: model.viewCount + extra.views, downloadCount: model.downloadCount + extra.downloads };
}

/**
 * One model for its page or the API; a stale catalogue copy is refreshed from the site first.
 * Pass the `visitor` so that refresh counts against their share of the site's budget.
 */
export async function getModelDetail(
  source: ModelSource,
  id: number,
  options: { countView?: boolean; sync?: SyncDeps; visitor?: CatalogueVisitor } = {},
): Promise<{ model: ModelDetail | null; sync: SyncOutcome | null }> {
  if (source === "library") {
    const model = await readLibraryDetail(id);
    if (model && options.countView) countView(id);
    return { model: model && withUnwrittenCounts(model), sync: null };
  }
  // refreshing writes; when the database can't take the write now, the stored copy is served as is
  const sync = await syncCatalogueModel(id, { visitor: options.visitor, ...options.sync }).catch((error: unknown) => {
    console.warn("catalogue model not refreshed:", (error as { code?: string }).code ?? "error");
    return "unavailable" as const;
  });
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
