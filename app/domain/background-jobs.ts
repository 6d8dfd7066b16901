// Vocabulary and pure rules of background jobs: states, retry backoff, progress and time left.

export const TASK_STATES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const FINISHED_TASK_STATES: readonly TaskState[] = ["done", "failed", "cancelled"];

export const TASK_STATE_LABELS: Record<TaskState, string> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** What a handler reports as it goes: processed of total, with counts (e.g. calculated, cached, failed). */
export interface TaskProgress {
  processed: number;
  total: number;
  counts: Record<string, number>;
}

export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_MAX_MS = 30 * 60_000;

/** Wait before the next attempt after `attempt` failed ones: base, 2x, 4x ... capped. */
export function retryDelayMs(attempt: number, baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(maxMs, baseMs * 2 ** Math.min(exponent, 30));
}

/** Whole percent done, 0-100; an empty job that finished is 100. */
export function progressPercent(progress: TaskProgress | null | undefined, finished = false): number {
  if (!progress || progress.total <= 0) return finished ? 100 : 0;
  return Math.max(0, Math.min(100, Math.floor((progress.processed / progress.total) * 100)));
}

/** Milliseconds left at the rate seen so far, or null when no rate is known yet. */
export function estimateTimeLeftMs(progress: TaskProgress | null | undefined, elapsedMs: number): number | null {
  if (!progress || progress.processed <= 0 || progress.total <= 0 || elapsedMs <= 0) return null;
  const remaining = Math.max(0, progress.total - progress.processed);
  return Math.round((elapsedMs / progress.processed) * remaining);
}

/** "1 h 05 min", "3 min 20 s", "12 s". */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, "0")} s`;
  return `${s} s`;
}
