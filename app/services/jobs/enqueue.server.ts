// Putting tasks on the durable job runner's table (decision 012): one-off tasks (deduplicated by key while
// one is queued or running), a task written in the caller's own batch, one row per period of a periodic
// task (every worker enqueues it idempotently), and cancelling. runner.server.ts claims and runs them.
import type { InStatement } from "@libsql/client";
import { getClient } from "~/utils/db.server";

const periodics = new Map<string, { everyMs: number; payload: unknown }>();

export interface EnqueueOptions {
  /** not before this time (epoch ms or Date) */
  runAt?: number | Date;
  /** while a task with this key is queued or running, enqueueing again returns that task */
  dedupeKey?: string;
  /** attempts before the task fails for good (default 5) */
  maxAttempts?: number;
}

export async function enqueueTask(
  type: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<{ id: number; created: boolean }> {
  return insertTask(type, payload, { ...options, periodKey: undefined });
}

/**
 * The INSERT of one plain task (no dedupe or period key), for a caller that writes it in the same
 * batch as its own rows: `onlyIfChanged` adds the task only when the statement before it changed
 * a row. The result's rows hold the new id (none when it was not added).
 */
export function taskInsertStatement(
  type: string,
  payload: unknown,
  options: { runAt?: number; maxAttempts?: number; onlyIfChanged?: boolean } = {},
): InStatement {
  return {
    sql: `INSERT INTO background_tasks (kind, payload, run_at, max_attempts)
          SELECT ?, ?, ?, ?${options.onlyIfChanged ? " WHERE changes() > 0" : ""} RETURNING id`,
    args: [type, JSON.stringify(payload ?? null), options.runAt ?? Date.now(), options.maxAttempts ?? 5],
  };
}

async function insertTask(
  type: string,
  payload: unknown,
  options: EnqueueOptions & { periodKey: string | undefined },
): Promise<{ id: number; created: boolean }> {
  const client = await getClient();
  const runAt = options.runAt instanceof Date ? options.runAt.getTime() : (options.runAt ?? Date.now());
  const inserted = await client.execute({
    sql: `INSERT INTO background_tasks (kind, payload, run_at, dedupe_key, period_key, max_attempts)
          VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
    args: [
      type,
      JSON.stringify(payload ?? null),
      runAt,
      options.dedupeKey ?? null,
      options.periodKey ?? null,
      options.maxAttempts ?? 5,
    ],
  });
  if (inserted.rows.length > 0) return { id: Number(inserted.rows[0].id), created: true };
  const existing = await client.execute({
    sql: options.periodKey
      ? "SELECT id FROM background_tasks WHERE period_key = ?"
      : "SELECT id FROM background_tasks WHERE dedupe_key = ? AND status IN ('queued', 'running')",
    args: [options.periodKey ?? options.dedupeKey ?? null],
  });
  if (existing.rows.length === 0) return insertTask(type, payload, options); // the holder just finished
  return { id: Number(existing.rows[0].id), created: false };
}

/** Runs `type` every `everyMs`: one row per period, enqueued idempotently by every worker. */
export function schedulePeriodic(type: string, everyMs: number, payload: unknown = null): void {
  periodics.set(type, { everyMs, payload });
}

/** Enqueues the current period's row of each periodic task (a no-op when it exists). */
export async function enqueuePeriodicTasks(now = Date.now()): Promise<void> {
  for (const [type, { everyMs, payload }] of periodics) {
    const period = Math.floor(now / everyMs);
    await insertTask(type, payload, { periodKey: `${type}:${period}`, runAt: period * everyMs });
  }
}

/** Asks a task to stop: a queued one is cancelled at once, a running one at its next check. */
export async function cancelTask(id: number): Promise<boolean> {
  const client = await getClient();
  const now = Date.now();
  const queued = await client.execute({
    sql: `UPDATE background_tasks SET status = 'cancelled', cancel_requested = 1, finished_at = ?, updated_at = ?
          WHERE id = ? AND status = 'queued'`,
    args: [now, now, id],
  });
  if (queued.rowsAffected > 0) return true;
  const running = await client.execute({
    sql: "UPDATE background_tasks SET cancel_requested = 1, updated_at = ? WHERE id = ? AND status = 'running'",
    args: [now, id],
  });
  return running.rowsAffected > 0;
}
