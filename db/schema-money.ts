// The money reconciliation's log (decision 039): what it finished or undid on an order after a crash
// cut a money step short. db/schema.ts re-exports it, so drizzle and the migrations see one schema.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MONEY_REPAIR_KINDS } from "../app/domain/payments";
import { printJobs } from "./schema";

const kinds = sql.raw(`"kind" IN (${MONEY_REPAIR_KINDS.map((k) => `'${k}'`).join(", ")})`);

/** What the money reconciliation finished or undid for an order (decision 039), shown on the admin order page. */
export const moneyRepairs = sqliteTable(
  "money_repairs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => printJobs.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MONEY_REPAIR_KINDS }).notNull(),
    /** the provider's id or message: never user content */
    detail: text("detail"),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [index("money_repairs_job_idx").on(t.jobId, t.createdAt), check("money_repairs_kind_check", kinds)],
);
