// Model lists: the library (full-text search) and our stored catalogue, categories, and the landing page's featured models.
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { catalogueModels, categories, libraryModels, users } from "../../../db/schema";
import { licenseAllowsCommercialPrinting } from "~/domain/licenses";
import {
  DEFAULT_MODEL_SORT,
  displayName,
  MODEL_PAGE_SIZE,
  MODEL_SORTS,
  type FeaturedModel,
  type ModelPage,
  type ModelSort,
} from "~/domain/models";
import { escapeLike } from "~/services/like-pattern.server";
import { getDb, preparedQuery } from "~/utils/db.server";
import { CATALOGUE_SOURCE } from "../catalogue/sync.server";
import { catalogueSummary, catalogueThumbnail, libraryImagePath, nameColumns, pageOf } from "./shared.server";

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

interface ListOptions {
  q?: string | null;
  sort?: ModelSort;
  page?: number | null;
  pageSize?: number;
}

/** The sort, page and page size a list asks for, with the defaults. */
function listing(options: ListOptions) {
  return { sort: options.sort ?? DEFAULT_MODEL_SORT, pageSize: options.pageSize ?? MODEL_PAGE_SIZE, page: pageOf(options.page) };
}

export async function listLibraryModels(options: ListOptions & { categoryId?: number | null }): Promise<ModelPage> {
  const db = await getDb();
  const { sort, pageSize, page } = listing(options);
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

function catalogueOrder(sort: ModelSort): SQL[] {
  return sort === "newest"
    ? [sql`${catalogueModels.sourceCreatedAt} IS NULL`, desc(catalogueModels.sourceCreatedAt), desc(catalogueModels.id)]
    : sort === "popular"
      ? [desc(catalogueModels.likeCount), desc(catalogueModels.id)]
      : [desc(catalogueModels.featured), desc(catalogueModels.likeCount), desc(catalogueModels.id)];
}

const ourCatalogue = eq(catalogueModels.source, CATALOGUE_SOURCE);

/** The catalogue without a search, a statement per sort built once: what /models shows most visitors. */
const browseCatalogue = new Map(
  MODEL_SORTS.map(({ id: sort }) => [
    sort,
    preparedQuery((db) =>
      db
        .select()
        .from(catalogueModels)
        .where(ourCatalogue)
        .orderBy(...catalogueOrder(sort))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    ),
  ]),
);
const countCatalogue = preparedQuery((db) => db.select({ n: count() }).from(catalogueModels).where(ourCatalogue).prepare());

/** Our stored catalogue; every word of the search must appear in the name, description, creator or tags. */
export async function listCatalogueModels(options: ListOptions): Promise<ModelPage> {
  const db = await getDb();
  const { sort, pageSize, page } = listing(options);
  const words =
    (options.q ?? "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  const haystack = sql`lower(${catalogueModels.name} || ' ' || ${catalogueModels.description} || ' ' || ${catalogueModels.creatorName} || ' ' || ${catalogueModels.tags})`;
  const where = and(ourCatalogue, ...words.map((w) => sql`${haystack} LIKE ${`%${escapeLike(w)}%`} ESCAPE '\\'`));

  const [found, [{ n }]] = await Promise.all(
    words.length === 0
      ? [browseCatalogue.get(sort)!(db).all({ limit: pageSize, offset: (page - 1) * pageSize }), countCatalogue(db).all()]
      : [
          db
            .select()
            .from(catalogueModels)
            .where(where)
            .orderBy(...catalogueOrder(sort))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          db.select({ n: count() }).from(catalogueModels).where(where),
        ],
  );
  return {
    total: n,
    page,
    pageCount: Math.max(1, Math.ceil(n / pageSize)),
    models: found.map(catalogueSummary),
  };
}

/** The landing page's carousel: featured catalogue models, their thumbnails through the safe-URL rule. */
const featuredModels = preparedQuery((db) =>
  db
    .select({
      sourceId: catalogueModels.sourceId,
      name: catalogueModels.name,
      creatorName: catalogueModels.creatorName,
      thumbnailUrl: catalogueModels.thumbnailUrl,
      imageUrls: catalogueModels.imageUrls,
      likeCount: catalogueModels.likeCount,
      downloadCount: catalogueModels.downloadCount,
      viewCount: catalogueModels.viewCount,
    })
    .from(catalogueModels)
    .where(and(eq(catalogueModels.source, CATALOGUE_SOURCE), eq(catalogueModels.featured, true)))
    .orderBy(desc(catalogueModels.likeCount), desc(catalogueModels.id))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

export async function listFeaturedModels(limit: number): Promise<FeaturedModel[]> {
  const rows = await featuredModels(await getDb()).all({ limit });
  return rows.map(({ imageUrls, ...m }) => ({
    ...m,
    thumbnailUrl: catalogueThumbnail({ thumbnailUrl: m.thumbnailUrl, imageUrls }),
  }));
}
