// The whole product's data model; its enums come from app/domain/.
// Money is integer cents; times are UTC epoch milliseconds; booleans are 0/1 integers.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TASK_STATES } from "../app/domain/background-jobs";
import { JOB_STATUSES } from "../app/domain/job-status";
import { MESSAGE_SENDER_TYPES } from "../app/domain/messages";
import { LIBRARY_LICENSES as LICENSES } from "../app/domain/licenses";
import { CATALOGUE_SOURCES, DESIGN_SOURCE_KINDS, DIFFICULTIES } from "../app/domain/models";
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES, PAYOUT_STATUSES } from "../app/domain/payments";
import { USER_TYPES } from "../app/domain/users";
import { SUPPORT_MODES } from "../app/domain/mesh/types";
import { DELIVERY_METHODS } from "../app/domain/pricing";
import type { DeliveryAddress } from "../app/domain/address";
import { DESIGN_UNITS } from "../app/domain/design-scale";

import { bool, createdAt, now, oneOf, stamp, updatedAt } from "./schema-columns";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    userType: text("user_type", { enum: USER_TYPES }).notNull().default("customer"),
    isAdmin: bool("is_admin").notNull().default(false),
    zipCode: text("zip_code"),
    stripeAccountId: text("stripe_account_id"),
    newsletterSubscribed: bool("newsletter_subscribed").notNull().default(false),
    /** notification kinds the user turned e-mail off for (JSON array; see app/domain/notification-kinds.ts) */
    emailOff: text("email_off", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    check("users_user_type_check", oneOf("user_type", USER_TYPES)),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** random, unguessable; the only thing the cookie holds */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: stamp("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

// the server's own bookkeeping (rate-limit counters, the health probe's row, live-stream leases)
export * from "./schema-bookkeeping";
// the money reconciliation's log of repairs (decision 039)
export * from "./schema-money";
export * from "./schema-claims"; // claims after delivery and refunds of captured payments (decision 040)
export * from "./schema-addresses"; // address books (decision 037)
export * from "./schema-newsletter";

/** Listed printers. drizzle/0002 adds printers_rtree, an R*Tree over latitude/longitude kept in step by triggers. */
export const printers = sqliteTable(
  "printers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    model: text("model").notNull(),
    description: text("description"),
    buildVolumeX: integer("build_volume_x").notNull(),
    buildVolumeY: integer("build_volume_y").notNull(),
    buildVolumeZ: integer("build_volume_z").notNull(),
    /** the build volume's sides sorted ascending, so "fits in some orientation" is an indexed test */
    fitSmall: integer("fit_small").notNull(),
    fitMid: integer("fit_mid").notNull(),
    fitLarge: integer("fit_large").notNull(),
    /** JSON array of material names */
    materials: text("materials", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** the owner's price, as cents per kilogram (a $0.12/g printer is 12000) */
    ratePerKgCents: integer("rate_per_kg_cents").notNull(),
    location: text("location").notNull(),
    city: text("city"),
    state: text("state"),
    zip: text("zip"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    isAvailable: bool("is_available").notNull().default(true),
    imageKey: text("image_key"),
    rating: real("rating"),
    totalReviews: integer("total_reviews").notNull().default(0),
    totalJobs: integer("total_jobs").notNull().default(0),
    hourlyRateCents: integer("hourly_rate_cents"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("printers_owner_idx").on(t.ownerId),
    index("printers_geo_idx").on(t.latitude, t.longitude),
    index("printers_available_idx").on(t.isAvailable, t.latitude, t.longitude),
    index("printers_fit_idx").on(t.fitSmall, t.fitMid, t.fitLarge),
    check("printers_build_volume_check", sql`build_volume_x > 0 AND build_volume_y > 0 AND build_volume_z > 0`),
    check("printers_rate_check", sql`rate_per_kg_cents >= 0`),
  ],
);

export const filamentInventory = sqliteTable(
  "filament_inventory",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    printerId: integer("printer_id")
      .notNull()
      .references(() => printers.id, { onDelete: "cascade" }),
    material: text("material").notNull(),
    color: text("color").notNull(),
    grams: integer("grams").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("filament_inventory_unique").on(t.printerId, t.material, t.color),
    index("filament_inventory_lookup_idx").on(t.material, t.color, t.grams),
    check("filament_inventory_grams_check", sql`grams >= 0`),
  ],
);

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

/** A customer's review of the printer that made one of their jobs: one per job, editable. */
export const printerReviews = sqliteTable(
  "printer_reviews",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    printerId: integer("printer_id")
      .notNull()
      .references(() => printers.id, { onDelete: "cascade" }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    review: text("review"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("printer_reviews_one_per_job").on(t.jobId),
    index("printer_reviews_printer_idx").on(t.printerId, t.createdAt),
    check("printer_reviews_range", sql`rating BETWEEN 1 AND 5`),
  ],
);

/** Drafts and orders: one row per print job, its status says which. */
export const printJobs = sqliteTable(
  "print_jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    printerId: integer("printer_id").references(() => printers.id, { onDelete: "set null" }),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("draft"),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull().default(0),
    fileFormat: text("file_format"),
    /** our own storage key for the design file; never the uploaded name */
    fileKey: text("file_key"),
    previewKey: text("preview_key"),
    /** where the design came from */
    sourceKind: text("source_kind", { enum: DESIGN_SOURCE_KINDS }).notNull().default("upload"),
    sourceModelId: integer("source_model_id"),
    /** the analysis engine's full result as JSON */
    analysis: text("analysis", { mode: "json" }),
    material: text("material").notNull().default("PLA"),
    filamentColor: text("filament_color").notNull().default("Black"),
    deliveryMethod: text("delivery_method", { enum: DELIVERY_METHODS }).notNull().default("pickup"),
    specialInstructions: text("special_instructions"),
    quality: text("quality"),
    layerHeight: real("layer_height").notNull().default(0.2),
    infillPercent: integer("infill_percent").notNull().default(20),
    supports: text("supports", { enum: SUPPORT_MODES }).notNull().default("auto"),
    numberOfColors: integer("number_of_colors").notNull().default(1),
    /** copies, the file's units (a 3MF names its own) and scale; time and weight are every copy's, the box one copy's (decision 038) */
    quantity: integer("quantity").notNull().default(1),
    units: text("units", { enum: DESIGN_UNITS }).notNull().default("mm"),
    scalePercent: integer("scale_percent").notNull().default(100),
    printTimeMinutes: integer("print_time_minutes").notNull().default(60),
    estimatedWeightGrams: real("estimated_weight_grams").notNull().default(25),
    boundingBoxX: real("bounding_box_x"),
    boundingBoxY: real("bounding_box_y"),
    boundingBoxZ: real("bounding_box_z"),
    /** the print's price (printer profit + platform fee), computed on the server */
    totalCostCents: integer("total_cost_cents").notNull().default(0),
    printerProfitCents: integer("printer_profit_cents").notNull().default(0),
    platformFeeCents: integer("platform_fee_cents").notNull().default(0),
    deliveryFeeCents: integer("delivery_fee_cents").notNull().default(0),
    /** what the customer is charged: totalCost + delivery */
    amountDueCents: integer("amount_due_cents").notNull().default(0),
    shippingCarrier: text("shipping_carrier"),
    shippingService: text("shipping_service"),
    deliveryZip: text("delivery_zip"),
    /** a copy of the address the order goes to, taken when it was placed: later address-book edits leave it alone */
    deliveryAddress: text("delivery_address", { mode: "json" }).$type<DeliveryAddress>(),
    trackingNumber: text("tracking_number"),
    ownerMessage: text("owner_message"),
    cancelReason: text("cancel_reason"),
    /** the provider's id of the payment that confirmed the order: the one hold it keeps and captures */
    confirmedPaymentId: text("confirmed_payment_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    submittedAt: stamp("submitted_at"),
    confirmedAt: stamp("confirmed_at"),
    acceptedAt: stamp("accepted_at"),
    rejectedAt: stamp("rejected_at"),
    printingStartedAt: stamp("printing_started_at"),
    completedAt: stamp("completed_at"),
    readyAt: stamp("ready_at"),
    pickedUpAt: stamp("picked_up_at"),
    shippedAt: stamp("shipped_at"),
    cancelledAt: stamp("cancelled_at"),
  },
  (t) => [
    index("print_jobs_customer_idx").on(t.customerId, t.status, t.createdAt),
    index("print_jobs_printer_idx").on(t.printerId, t.status, t.createdAt),
    index("print_jobs_status_idx").on(t.status, t.createdAt),
    check("print_jobs_status_check", oneOf("status", JOB_STATUSES)),
    check("print_jobs_delivery_check", oneOf("delivery_method", DELIVERY_METHODS)),
    check("print_jobs_supports_check", oneOf("supports", SUPPORT_MODES)),
    check("print_jobs_source_check", oneOf("source_kind", DESIGN_SOURCE_KINDS)),
    check(
      "print_jobs_money_check",
      sql`total_cost_cents >= 0 AND printer_profit_cents >= 0 AND platform_fee_cents >= 0 AND delivery_fee_cents >= 0 AND amount_due_cents >= 0`,
    ),
    check("print_jobs_colors_check", sql`number_of_colors BETWEEN 1 AND 8`),
    check("print_jobs_quantity_check", sql`quantity BETWEEN 1 AND 50`),
    check("print_jobs_units_check", oneOf("units", DESIGN_UNITS)),
    check("print_jobs_scale_check", sql`scale_percent BETWEEN 10 AND 1000`),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    senderType: text("sender_type", { enum: MESSAGE_SENDER_TYPES }).notNull(),
    content: text("content").notNull(),
    sentAt: stamp("sent_at").notNull().default(now),
    readAt: stamp("read_at"),
  },
  (t) => [
    index("messages_job_idx").on(t.jobId, t.sentAt),
    check("messages_sender_type_check", oneOf("sender_type", MESSAGE_SENDER_TYPES)),
    check("messages_not_blank", sql`length(trim(content)) > 0`),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull(),
    link: text("link"),
    /** what it is about (app/domain/notification-kinds.ts), for e-mail settings */
    kind: text("kind"),
    isRead: bool("is_read").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt), index("notifications_unread_idx").on(t.userId, t.isRead)],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerPaymentId: text("provider_payment_id").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("requires_payment"),
    failureMessage: text("failure_message"),
    authorizedAt: stamp("authorized_at"),
    capturedAt: stamp("captured_at"),
    releasedAt: stamp("released_at"),
    refundedAt: stamp("refunded_at"),
    /** card authorisations lapse (7 days); the job is cancelled before then */
    authorizationExpiresAt: stamp("authorization_expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("payments_job_idx").on(t.jobId),
    index("payments_status_idx").on(t.status, t.authorizationExpiresAt),
    check("payments_status_check", oneOf("status", PAYMENT_STATUSES)),
    check("payments_amount_check", sql`amount_cents >= 0`),
  ],
);

export const payouts = sqliteTable(
  "payouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** unique: each job is paid out at most once */
    jobId: integer("job_id")
      .notNull()
      .unique()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerTransferId: text("provider_transfer_id"),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    /** the provider's refusal, shown to the owner, who may ask again */
    failureMessage: text("failure_message"),
    /** when the payout was last claimed: a pending one older than the reconciliation's grace was cut short */
    claimedAt: stamp("claimed_at"),
    /** taken back from the owner by transfer reversals after a refund (decision 040) */
    reversedCents: integer("reversed_cents").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("payouts_owner_idx").on(t.ownerId, t.createdAt),
    check("payouts_status_check", oneOf("status", PAYOUT_STATUSES)),
    check("payouts_amount_check", sql`amount_cents >= 0`),
  ],
);

/** Webhook events already handled, so a delivery that arrives twice changes nothing twice. */
export const webhookEvents = sqliteTable("webhook_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  processedAt: stamp("processed_at").notNull().default(now),
});

/**
 * Slow work (imports, weight caching, mail, newsletters, authorisation expiry) run by the
 * durable job runner (app/services/jobs/, decision 012): claimed with a lease, resumable.
 */
export const backgroundTasks = sqliteTable(
  "background_tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** the task type a handler is registered for */
    kind: text("kind").notNull(),
    payload: text("payload", { mode: "json" }),
    status: text("status", { enum: TASK_STATES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: stamp("run_at").notNull().default(now),
    /** while queued or running, at most one task holds a given key (idempotent enqueue) */
    dedupeKey: text("dedupe_key"),
    /** periodic tasks: one row per type and period, whatever its status */
    periodKey: text("period_key").unique(),
    lockedBy: text("locked_by"),
    lockedAt: stamp("locked_at"),
    leaseExpiresAt: stamp("lease_expires_at"),
    heartbeatAt: stamp("heartbeat_at"),
    cancelRequested: bool("cancel_requested").notNull().default(false),
    /** {processed, total, counts} as the handler reports it */
    progress: text("progress", { mode: "json" }),
    /** the handler's resume point (a cursor), kept across attempts */
    checkpoint: text("checkpoint", { mode: "json" }),
    lastError: text("last_error"),
    result: text("result", { mode: "json" }),
    startedAt: stamp("started_at"),
    finishedAt: stamp("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("background_tasks_due_idx").on(t.status, t.runAt),
    index("background_tasks_kind_idx").on(t.kind, t.createdAt),
    uniqueIndex("background_tasks_dedupe_unique")
      .on(t.dedupeKey)
      .where(sql`dedupe_key IS NOT NULL AND status IN ('queued', 'running')`),
    check("background_tasks_status_check", oneOf("status", TASK_STATES)),
  ],
);

/** Items a task has finished (per-item results), so a resumed task never does one twice. */
export const backgroundTaskItems = sqliteTable(
  "background_task_items",
  {
    taskId: integer("task_id")
      .notNull()
      .references(() => backgroundTasks.id, { onDelete: "cascade" }),
    itemKey: text("item_key").notNull(),
    outcome: text("outcome").notNull(),
    detail: text("detail", { mode: "json" }),
    doneAt: stamp("done_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.itemKey] })],
);

/** Batched mail: at most one message per key per window (e.g. one per conversation per 15 minutes). */
export const mailBatches = sqliteTable("mail_batches", {
  batchKey: text("batch_key").primaryKey(),
  windowEndsAt: stamp("window_ends_at").notNull(),
});

/** The contact form's messages (stored and acknowledged). */
export const contactMessages = sqliteTable("contact_messages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  subject: text("subject").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type Printer = typeof printers.$inferSelect;
export type PrintJob = typeof printJobs.$inferSelect;
