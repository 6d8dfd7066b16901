// The durable job runner on the database (decision 012). Tasks are rows of background_tasks:
// claimed by one guarded UPDATE that takes a lease, kept alive by heartbeats, picked up again
// by any worker once a dead worker's lease expires, retried with exponential backoff, cancelled
// on request. Handlers resume: their per-item results and a cursor are stored as they go.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Client, Row } from "@libsql/client";
import { retryDelayMs, type TaskProgress, type TaskState } from "~/domain/background-jobs";
import { getClient } from "~/utils/db.server";
import { redactText } from "~/utils/log-redaction";
import { enqueuePeriodicTasks } from "./enqueue.server";
import { syncWithPrimary } from "~/utils/replica.server";

export interface TaskContext<P = unknown> {
  taskId: number;
  payload: P;
  /** 1 on the first run, 2 on the first retry or resume ... */
  attempt: number;
  /** true on the last attempt the task gets: a failure now ends it, so record what can be recorded instead */
  lastAttempt: boolean;
  /** the resume point the handler saved with saveCheckpoint on an earlier attempt (null at first) */
  checkpoint: unknown;
  /** stores progress (and renews the lease) */
  reportProgress(progress: TaskProgress): Promise<void>;
  /** stores a resume point (a cursor) that the next attempt receives as `checkpoint` */
  saveCheckpoint(value: unknown): Promise<void>;
  /** records that one item is finished with its outcome; false when it was recorded before */
  recordItem(key: string, outcome: string, detail?: unknown): Promise<boolean>;
  /** changes the outcome of an item recorded before (e.g. "sending" → "sent"); false when the task is no longer ours */
  updateItem(key: string, outcome: string): Promise<boolean>;
  /** removes an item recorded before, so a later attempt does it again (it was not done after all) */
  forgetItem(key: string): Promise<boolean>;
  /** the items finished so far (by this task, over all its attempts): key → outcome */
  doneItems(): Promise<Map<string, string>>;
  /** true once the task was cancelled, the lease was lost or the worker is stopping: return soon */
  isCancelled(): boolean;
  /** renews the lease by hand (reportProgress does it too; a timer does it meanwhile) */
  heartbeat(): Promise<void>;
}

export type TaskHandler<P = unknown> = (ctx: TaskContext<P>) => Promise<unknown>;

/** Thrown by a handler when retrying can't help (bad payload): the task fails at once. */
export class PermanentTaskError extends Error {}

const handlers = new Map<string, TaskHandler<never>>();

export function registerTaskHandler<P>(type: string, handler: TaskHandler<P>): void {
  handlers.set(type, handler as TaskHandler<never>);
}

export function registeredTaskTypes(): string[] {
  return [...handlers.keys()];
}

export interface ClaimedTask {
  id: number;
  type: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  checkpoint: unknown;
}

const json = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : null);

function claimedOf(row: Row): ClaimedTask {
  return {
    id: Number(row.id),
    type: String(row.kind),
    payload: json(row.payload),
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    checkpoint: json(row.checkpoint),
  };
}

/**
 * Claims one due task of these types in one guarded UPDATE: a queued task whose time has come,
 * or a running one whose lease expired (its worker died). Two workers never get the same task.
 */
export async function claimTask(
  workerId: string,
  types: string[],
  leaseMs: number,
  now = Date.now(),
  client?: Client,
): Promise<ClaimedTask | null> {
  if (types.length === 0) return null;
  client ??= await getClient();
  const marks = types.map(() => "?").join(", ");
  const due = `kind IN (${marks}) AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at < ?))`;
  const result = await client.execute({
    sql: `UPDATE background_tasks
          SET status = 'running', locked_by = ?, locked_at = ?, lease_expires_at = ?, heartbeat_at = ?,
              attempts = attempts + 1, started_at = coalesce(started_at, ?), updated_at = ?
          WHERE id = (SELECT id FROM background_tasks WHERE ${due} ORDER BY run_at, id LIMIT 1) AND ${due}
          RETURNING id, kind, payload, attempts, max_attempts, checkpoint`,
    args: [workerId, now, now + leaseMs, now, now, now, ...types, now, now, ...types, now, now],
  });
  return result.rows.length > 0 ? claimedOf(result.rows[0]) : null;
}

export interface RunOptions {
  workerId: string;
  leaseMs: number;
  backoffBaseMs?: number;
  /** set when the worker is stopping: the handler should return, the task is handed back */
  stopping?: () => boolean;
}

/** Runs one claimed task to its end (done, retry later, failed, cancelled, or handed back). */
export async function runClaimedTask(task: ClaimedTask, options: RunOptions): Promise<TaskState | "released"> {
  const client = await getClient();
  const { workerId, leaseMs } = options;
  let cancelRequested = false;
  let leaseLost = false;
  const stopping = options.stopping ?? (() => false);

  const renew = async (extra = "", extraArgs: (string | number | null)[] = []) => {
    const now = Date.now();
    const result = await client.execute({
      sql: `UPDATE background_tasks SET lease_expires_at = ?, heartbeat_at = ?, updated_at = ?${extra}
            WHERE id = ? AND locked_by = ? AND status = 'running' RETURNING cancel_requested`,
      args: [now + leaseMs, now, now, ...extraArgs, task.id, workerId],
    });
    if (result.rows.length === 0) leaseLost = true;
    else cancelRequested = Number(result.rows[0].cancel_requested) === 1;
  };
  const ours = `EXISTS (SELECT 1 FROM background_tasks WHERE id = ? AND locked_by = ? AND status = 'running')`;

  const ctx: TaskContext = {
    taskId: task.id,
    payload: task.payload,
    attempt: task.attempts,
    lastAttempt: task.attempts >= task.maxAttempts,
    checkpoint: task.checkpoint,
    reportProgress: (progress) => renew(", progress = ?", [JSON.stringify(progress)]),
    saveCheckpoint: (value) => renew(", checkpoint = ?", [JSON.stringify(value ?? null)]),
    async recordItem(key, outcome, detail) {
      const result = await client.execute({
        sql: `INSERT INTO background_task_items (task_id, item_key, outcome, detail)
              SELECT ?, ?, ?, ? WHERE ${ours} ON CONFLICT DO NOTHING`,
        args: [task.id, key, outcome, detail === undefined ? null : JSON.stringify(detail), task.id, workerId],
      });
      return result.rowsAffected > 0;
    },
    async updateItem(key, outcome) {
      const result = await client.execute({
        sql: `UPDATE background_task_items SET outcome = ?, done_at = ? WHERE task_id = ? AND item_key = ? AND ${ours}`,
        args: [outcome, Date.now(), task.id, key, task.id, workerId],
      });
      return result.rowsAffected > 0;
    },
    async forgetItem(key) {
      const result = await client.execute({
        sql: `DELETE FROM background_task_items WHERE task_id = ? AND item_key = ? AND ${ours}`,
        args: [task.id, key, task.id, workerId],
      });
      return result.rowsAffected > 0;
    },
    async doneItems() {
      const result = await client.execute({
        sql: "SELECT item_key, outcome FROM background_task_items WHERE task_id = ?",
        args: [task.id],
      });
      return new Map(result.rows.map((row) => [String(row.item_key), String(row.outcome)]));
    },
    isCancelled: () => cancelRequested || leaseLost || stopping(),
    heartbeat: () => renew(),
  };

  if (task.attempts > task.maxAttempts) {
    // its workers died on every attempt: stop picking it up
    await client.execute({
      sql: `UPDATE background_tasks SET status = 'failed', locked_by = NULL, lease_expires_at = NULL, finished_at = ?,
            last_error = coalesce(last_error, 'The worker stopped during every attempt') WHERE id = ? AND locked_by = ?`,
      args: [Date.now(), task.id, workerId],
    });
    return "failed";
  }
  await renew(); // reads a cancel asked for before the claim
  // a resumed task's items were recorded through the machine that ran it before: a replica syncs to see them
  if (task.attempts > 1) await syncWithPrimary();
  const timer = setInterval(() => void renew().catch(() => {}), Math.max(50, Math.floor(leaseMs / 3)));
  let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, result: await handlerFor(task.type)(ctx) };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    clearInterval(timer);
  }
  if (!leaseLost) await renew().catch(() => {});
  if (leaseLost) return "released"; // another worker holds it now

  const now = Date.now();
  const finish = (status: TaskState, extra: string, args: (string | number | null)[]) =>
    client.execute({
      sql: `UPDATE background_tasks SET status = '${status}', locked_by = NULL, lease_expires_at = NULL,
            updated_at = ?${extra} WHERE id = ? AND locked_by = ? AND status = 'running'`,
      args: [now, ...args, task.id, workerId],
    });

  if (cancelRequested) {
    await finish("cancelled", ", finished_at = ?", [now]);
    return "cancelled";
  }
  if (stopping()) {
    // handed back without counting the attempt; the next worker resumes from the stored items
    await finish("queued", ", attempts = max(attempts - 1, 0), run_at = ?", [now]);
    return "released";
  }
  if (outcome.ok) {
    await finish("done", ", result = ?, finished_at = ?, last_error = NULL", [JSON.stringify(outcome.result ?? null), now]);
    return "done";
  }
  const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  const permanent = outcome.error instanceof PermanentTaskError;
  if (!permanent && task.attempts < task.maxAttempts) {
    const runAt = now + retryDelayMs(task.attempts, options.backoffBaseMs);
    await finish("queued", ", run_at = ?, last_error = ?", [runAt, message.slice(0, 1000)]);
    console.warn(
      `Task ${task.id} (${task.type}) failed on attempt ${task.attempts}; retrying at ${new Date(runAt).toISOString()}`,
    );
    return "queued";
  }
  await finish("failed", ", finished_at = ?, last_error = ?", [now, message.slice(0, 1000)]);
  // a mail server's refusal may quote the address: the log line goes without it
  console.error(`Task ${task.id} (${task.type}) failed for good after ${task.attempts} attempts: ${redactText(message)}`);
  return "failed";
}

function handlerFor(type: string): TaskHandler {
  const handler = handlers.get(type);
  if (!handler) throw new PermanentTaskError(`No handler for task type ${type}`);
  return handler as TaskHandler;
}

export interface WorkerOptions {
  workerId?: string;
  /** tasks run at once by this worker (default 1: the machine serves pages too) */
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  backoffBaseMs?: number;
  /** task types this worker runs (default: every registered type) */
  types?: string[];
}

export interface Worker {
  readonly workerId: string;
  /** stops claiming, waits up to graceMs for running tasks, then hands the rest back */
  stop(graceMs?: number): Promise<void>;
  /** claims at once instead of waiting for the next poll */
  wake(): void;
}

export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function startWorker(options: WorkerOptions = {}): Worker {
  const workerId = options.workerId ?? defaultWorkerId();
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const running = new Set<Promise<unknown>>();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;

  const tick = async () => {
    if (stopping || ticking) return;
    ticking = true;
    try {
      await enqueuePeriodicTasks();
      while (!stopping && running.size < concurrency) {
        const task = await claimTask(workerId, options.types ?? registeredTaskTypes(), leaseMs);
        if (!task) break;
        const run = runClaimedTask(task, {
          workerId,
          leaseMs,
          backoffBaseMs: options.backoffBaseMs,
          stopping: () => stopping,
        })
          .catch((error) => console.error(`Task ${task.id} could not be finished:`, error))
          .finally(() => {
            running.delete(run);
            schedule(0);
          });
        running.add(run);
      }
    } catch (error) {
      console.error("Job worker: claiming failed:", error instanceof Error ? error.message : error);
    } finally {
      ticking = false;
    }
  };
  const schedule = (delay: number) => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      void tick().finally(() => schedule(pollMs));
    }, delay);
  };
  schedule(0);

  return {
    workerId,
    wake: () => schedule(0),
    async stop(graceMs = 10_000) {
      stopping = true;
      clearTimeout(timer);
      if (running.size === 0) return;
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(graceTimer);
      if (running.size > 0) {
        const client = await getClient();
        await client.execute({
          sql: `UPDATE background_tasks SET status = 'queued', locked_by = NULL, lease_expires_at = NULL,
                attempts = max(attempts - 1, 0), updated_at = ? WHERE locked_by = ? AND status = 'running'`,
          args: [Date.now(), workerId],
        });
      }
    },
  };
}

/** Claims and runs due tasks one by one until none is due (tests, scripts, benchmarks). */
export async function runDueTasks(options: Partial<RunOptions> & { types?: string[]; limit?: number } = {}) {
  const workerId = options.workerId ?? defaultWorkerId();
  const leaseMs = options.leaseMs ?? 30_000;
  const outcomes: (TaskState | "released")[] = [];
  for (let i = 0; i < (options.limit ?? 1000); i++) {
    const task = await claimTask(workerId, options.types ?? registeredTaskTypes(), leaseMs);
    if (!task) break;
    outcomes.push(await runClaimedTask(task, { ...options, workerId, leaseMs }));
  }
  return outcomes;
}
