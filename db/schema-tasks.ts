// The durable job runner's tasks and their finished items, batched mail windows and handled webhook
// events. db/schema.ts re-exports them, so drizzle and the migrations see one schema.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TASK_STATES } from "../app/domain/background-jobs";
import { bool, createdAt, now, oneOf, stamp, updatedAt } from "./schema-columns";

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
