// Tables the server keeps for itself rather than for the product: counters and leases shared by every
// process on the database. db/schema.ts re-exports them, so drizzle and the migrations see one schema.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

const stamp = (name: string) => integer(name, { mode: "timestamp_ms" });

/** Fixed-window counters for rate limits; in the database so every instance shares them. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: stamp("window_start").notNull(),
});

/** One row the health check rewrites: /healthz proves that a write can commit, not only that a read answers. */
export const healthChecks = sqliteTable("health_checks", {
  id: integer("id").primaryKey(),
  checkedAt: stamp("checked_at").notNull(),
});

/**
 * Live streams (/events) open on any server process: the per-user cap counts these rows, so it holds across
 * machines. Each is a lease its process renews while the stream is open; a dead process's rows expire.
 */
export const liveStreams = sqliteTable(
  "live_streams",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull(),
    expiresAt: stamp("expires_at").notNull(),
  },
  (t) => [index("live_streams_user_idx").on(t.userId, t.expiresAt), index("live_streams_expires_idx").on(t.expiresAt)],
);
