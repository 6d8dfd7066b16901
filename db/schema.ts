// The whole product's data model; its enums come from app/domain/.
// Money is integer cents; times are UTC epoch milliseconds; booleans are 0/1 integers.
import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { JOB_STATUSES } from "../app/domain/job-status";
import { MESSAGE_SENDER_TYPES } from "../app/domain/messages";
import { DESIGN_SOURCE_KINDS } from "../app/domain/models";
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
export * from "./schema-catalogue"; // the model library and the catalogue (categories, models, files, likes, comments, ratings)
export * from "./schema-tasks"; // the durable job runner's tasks, mail batches and handled webhook events

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

/**
 * Drafts and orders: one row per print job, its status says which. Triggers keep job_counts (jobs by status and
 * month of submission, drizzle/0014_marketplace_scale.sql); a migration that rebuilds this table must create them again.
 */
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
    /**
     * The id of the order's newest message, kept by the messages_last triggers (drizzle/0016_newest_threads.sql):
     * /messages lists the newest conversations from the two indexes below instead of from every message.
     */
    lastMessageId: integer("last_message_id"),
  },
  (t) => [
    index("print_jobs_customer_idx").on(t.customerId, t.status, t.createdAt),
    index("print_jobs_printer_idx").on(t.printerId, t.status, t.createdAt),
    // an owner's orders of one status by when they were paid (or made): the tracking tabs and the dashboard's newest
    // completed orders read a page from the newest end instead of sorting all of them (decision 036, eighth round)
    index("print_jobs_printer_paid_idx").on(
      t.printerId,
      t.status,
      sql`coalesce(${t.confirmedAt}, ${t.createdAt})`,
      t.deliveryMethod,
    ),
    index("print_jobs_customer_threads_idx")
      .on(t.customerId, t.lastMessageId)
      .where(sql`last_message_id IS NOT NULL`),
    index("print_jobs_printer_threads_idx")
      .on(t.printerId, t.lastMessageId)
      .where(sql`last_message_id IS NOT NULL`),
    index("print_jobs_status_idx").on(t.status, t.createdAt),
    // the admin's order list, newest first, read a page at a time from the newest end
    index("print_jobs_created_idx").on(t.createdAt, t.id),
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
    /**
     * The other party of the order, set by the messages_recipient trigger (drizzle/0015_unread_by_recipient.sql) on
     * every insert: the header's unread count starts from it instead of from each of the reader's orders.
     */
    recipientId: integer("recipient_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("messages_job_idx").on(t.jobId, t.sentAt),
    // the unread ones first within each recipient; also what deleting a user looks up to clear recipient_id
    index("messages_recipient_idx").on(t.recipientId, t.readAt),
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
