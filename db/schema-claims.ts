// Claims after delivery and the refunds of captured payments (decision 040). db/schema.ts re-exports
// them, so drizzle and the migrations see one schema.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CLAIM_ESCALATIONS, CLAIM_REASONS, CLAIM_STATUSES, OWNER_RESPONSES } from "../app/domain/claims";
import { PAYMENT_PROVIDERS, REFUND_STATUSES } from "../app/domain/payments";
import { printJobs, users } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const stamp = (name: string) => integer(name, { mode: "timestamp_ms" });
const createdAt = () => stamp("created_at").notNull().default(now);
const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`"${column}" IN (${values.map((v) => `'${v}'`).join(", ")})`);

/**
 * A refund of a job's captured payment, full or partial; claimed by its insert, which keeps the sum
 * of a payment's refunds within its amount, then sent to the provider with the row id as its key.
 */
export const refunds = sqliteTable(
  "refunds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    /** the claim it settles: one refund per claim */
    claimId: integer("claim_id")
      .unique()
      .references(() => claims.id, { onDelete: "set null" }),
    providerPaymentId: text("provider_payment_id").notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    providerRefundId: text("provider_refund_id"),
    /** what this refund took back from the owner's payout */
    reversedCents: integer("reversed_cents").notNull().default(0),
    createdAt: createdAt(),
    refundedAt: stamp("refunded_at"),
  },
  (t) => [
    index("refunds_job_idx").on(t.jobId),
    index("refunds_status_idx").on(t.status),
    check("refunds_status_check", oneOf("status", REFUND_STATUSES)),
    check("refunds_amount_check", sql`amount_cents > 0 AND reversed_cents >= 0`),
  ],
);

/** A customer's report of a problem with a delivered order, its answers and its outcome (decision 040). */
export const claims = sqliteTable(
  "claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: CLAIM_REASONS }).notNull(),
    description: text("description").notNull(),
    /** storage keys of the customer's photos, as a JSON array */
    photoKeys: text("photo_keys", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    status: text("status", { enum: CLAIM_STATUSES }).notNull().default("open"),
    ownerResponse: text("owner_response", { enum: OWNER_RESPONSES }),
    /** the refund the owner offered, in cents */
    offeredCents: integer("offered_cents"),
    ownerMessage: text("owner_message"),
    answeredAt: stamp("answered_at"),
    acceptedAt: stamp("accepted_at"),
    escalatedAt: stamp("escalated_at"),
    escalatedBy: text("escalated_by", { enum: CLAIM_ESCALATIONS }),
    adminNote: text("admin_note"),
    decidedById: integer("decided_by_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: stamp("decided_at"),
    /** what the claim's outcome refunds, in cents (0: none) */
    refundCents: integer("refund_cents"),
    resolvedAt: stamp("resolved_at"),
    /** the owner asked for the payout while the claim was open: it is sent once the claim is resolved */
    payoutRequestedAt: stamp("payout_requested_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("claims_job_idx").on(t.jobId, t.createdAt),
    index("claims_status_idx").on(t.status, t.createdAt),
    // one claim at a time per order
    uniqueIndex("claims_one_pending_idx")
      .on(t.jobId)
      .where(sql`status <> 'resolved'`),
    check("claims_status_check", oneOf("status", CLAIM_STATUSES)),
    check("claims_reason_check", oneOf("reason", CLAIM_REASONS)),
  ],
);
