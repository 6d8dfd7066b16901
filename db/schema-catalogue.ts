// The model library and the catalogue: categories, library and catalogue models, their files, likes,
// comments and ratings. db/schema.ts re-exports them, so drizzle and the migrations see one schema.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { LIBRARY_LICENSES as LICENSES } from "../app/domain/licenses";
import { CATALOGUE_SOURCES, DIFFICULTIES } from "../app/domain/models";
import { bool, createdAt, now, oneOf, stamp, updatedAt } from "./schema-columns";
import { users } from "./schema";

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  slug: text("slug").notNull().unique(),
});

export const libraryModels = sqliteTable(
  "library_models",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    name: text("name").notNull(),
    description: text("description").notNull(),
    difficulty: text("difficulty", { enum: DIFFICULTIES }).notNull().default("beginner"),
    printTimeMinutes: integer("print_time_minutes").notNull().default(0),
    filamentWeightGrams: real("filament_weight_grams").notNull().default(0),
    supportRequired: bool("support_required").notNull().default(false),
    license: text("license", { enum: LICENSES }).notNull().default("CC BY"),
    /** JSON array of trimmed tags */
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    featured: bool("featured").notNull().default(false),
    imageKey: text("image_key"),
    likeCount: integer("like_count").notNull().default(0),
    downloadCount: integer("download_count").notNull().default(0),
    viewCount: integer("view_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("library_models_category_idx").on(t.categoryId, t.createdAt),
    index("library_models_created_idx").on(t.createdAt),
    index("library_models_popular_idx").on(t.likeCount),
    index("library_models_featured_idx").on(t.featured, t.createdAt),
    index("library_models_creator_idx").on(t.creatorId),
    check("library_models_difficulty_check", oneOf("difficulty", DIFFICULTIES)),
    check("library_models_license_check", oneOf("license", LICENSES)),
    check("library_models_counts_check", sql`print_time_minutes >= 0 AND filament_weight_grams >= 0`),
  ],
);

/** Models of the model-sharing site seen through its API, kept so pages serve from our data. */
export const catalogueModels = sqliteTable(
  "catalogue_models",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    source: text("source", { enum: CATALOGUE_SOURCES }).notNull().default("thingiverse"),
    sourceId: integer("source_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    creatorName: text("creator_name").notNull().default(""),
    creatorUrl: text("creator_url"),
    thumbnailUrl: text("thumbnail_url"),
    imageUrls: text("image_urls", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    publicUrl: text("public_url"),
    likeCount: integer("like_count").notNull().default(0),
    downloadCount: integer("download_count").notNull().default(0),
    viewCount: integer("view_count").notNull().default(0),
    license: text("license").notNull().default("Other"),
    categoryName: text("category_name"),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    featured: bool("featured").notNull().default(false),
    /** weight cache: computed from the printable file by the analysis engine */
    estimatedWeightGrams: real("estimated_weight_grams"),
    printTimeMinutes: integer("print_time_minutes"),
    /** the printable file's bounding box in mm, kept with the weight so only printers that hold it are counted */
    sizeXMm: real("size_x_mm"),
    sizeYMm: real("size_y_mm"),
    sizeZMm: real("size_z_mm"),
    weightComputedAt: stamp("weight_computed_at"),
    sourceCreatedAt: stamp("source_created_at"),
    fetchedAt: stamp("fetched_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("catalogue_models_source_unique").on(t.source, t.sourceId),
    index("catalogue_models_newest_idx").on(t.sourceCreatedAt),
    index("catalogue_models_popular_idx").on(t.likeCount),
    index("catalogue_models_featured_idx").on(t.featured, t.likeCount),
  ],
);

/** Printable files of library models (stored by us) and of catalogue models (linked at the source). */
export const modelFiles = sqliteTable(
  "model_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    libraryModelId: integer("library_model_id").references(() => libraryModels.id, { onDelete: "cascade" }),
    catalogueModelId: integer("catalogue_model_id").references(() => catalogueModels.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sizeBytes: integer("size_bytes").notNull().default(0),
    format: text("format").notNull(),
    storageKey: text("storage_key"),
    sourceFileId: integer("source_file_id"),
    downloadUrl: text("download_url"),
    /** the analysis engine's result as JSON */
    analysis: text("analysis", { mode: "json" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("model_files_library_idx").on(t.libraryModelId),
    index("model_files_catalogue_idx").on(t.catalogueModelId),
    check("model_files_owner_check", sql`(library_model_id IS NULL) <> (catalogue_model_id IS NULL)`),
  ],
);

export const modelLikes = sqliteTable(
  "model_likes",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    libraryModelId: integer("library_model_id")
      .notNull()
      .references(() => libraryModels.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.libraryModelId] }), index("model_likes_model_idx").on(t.libraryModelId)],
);

export const modelComments = sqliteTable(
  "model_comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    libraryModelId: integer("library_model_id")
      .notNull()
      .references(() => libraryModels.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    comment: text("comment").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("model_comments_model_idx").on(t.libraryModelId, t.createdAt),
    check("model_comments_not_blank", sql`length(trim(comment)) > 0`),
  ],
);

export const modelRatings = sqliteTable(
  "model_ratings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    libraryModelId: integer("library_model_id")
      .notNull()
      .references(() => libraryModels.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    review: text("review"),
    hasPrinted: bool("has_printed").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("model_ratings_one_per_user").on(t.libraryModelId, t.userId),
    check("model_ratings_range", sql`rating BETWEEN 1 AND 5`),
  ],
);
