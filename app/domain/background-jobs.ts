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

export const CATALOGUE_TASKS = {
  importPopular: "catalogue.import-popular",
  importCategory: "catalogue.import-category",
  calculateWeights: "catalogue.calculate-weights",
  bulkCache: "catalogue.bulk-cache",
} as const;

export const NEWSLETTER_TASK = "newsletter.send";

export const TASK_TYPE_LABELS: Record<string, string> = {
  [CATALOGUE_TASKS.importPopular]: "Import Popular Models",
  [CATALOGUE_TASKS.importCategory]: "Import by Category",
  [CATALOGUE_TASKS.calculateWeights]: "Quick Weight Caching",
  [CATALOGUE_TASKS.bulkCache]: "Bulk Weight Caching",
  [NEWSLETTER_TASK]: "Newsletter",
  "mail.send": "E-mail",
};

export const taskTypeLabel = (type: string) => TASK_TYPE_LABELS[type] ?? type;

/** What the admin sees about one job: plain data for pages, components and the API. */
export interface JobSummary {
  id: number;
  type: string;
  label: string;
  status: TaskState;
  attempts: number;
  progress: TaskProgress | null;
  percent: number;
  elapsedMs: number | null;
  timeLeftMs: number | null;
  result: { message?: string; stats?: Record<string, number> } | null;
  lastError: string | null;
  createdAt: number;
  finished: boolean;
}

export function summarizeJob(
  task: {
    id: number;
    type: string;
    status: TaskState;
    attempts: number;
    progress: TaskProgress | null;
    result: unknown;
    lastError: string | null;
    createdAt: number;
    startedAt: number | null;
    finishedAt: number | null;
  },
  now = Date.now(),
): JobSummary {
  const finished = FINISHED_TASK_STATES.includes(task.status);
  const elapsedMs = task.startedAt ? (task.finishedAt ?? now) - task.startedAt : null;
  return {
    id: task.id,
    type: task.type,
    label: taskTypeLabel(task.type),
    status: task.status,
    attempts: task.attempts,
    progress: task.progress,
    percent: progressPercent(task.progress, task.status === "done"),
    elapsedMs,
    timeLeftMs: finished ? 0 : estimateTimeLeftMs(task.progress, elapsedMs ?? 0),
    result: (task.result as JobSummary["result"]) ?? null,
    lastError: task.lastError,
    createdAt: task.createdAt,
    finished,
  };
}

/** One item a job could not do, as its page lists it: the model (when known) and why. */
export interface JobFailure {
  key: string;
  /** the item's name, e.g. the catalogue model's; null when it is not known */
  name: string | null;
  /** the item's own page, when it has one */
  href: string | null;
  reason: string;
}

/** The documented message a finished job shows (title and description), or null while it runs. */
export function jobOutcomeMessage(
  job: Pick<JobSummary, "type" | "status" | "result" | "lastError">,
): { title: string; description: string; variant: "default" | "destructive" } | null {
  const stats = job.result?.stats ?? {};
  const s = (name: string) => stats[name] ?? 0;
  if (job.status === "done") {
    switch (job.type) {
      case CATALOGUE_TASKS.importPopular:
      case CATALOGUE_TASKS.importCategory:
        return { title: "Import Successful", description: job.result?.message ?? "", variant: "default" };
      case CATALOGUE_TASKS.calculateWeights:
        return {
          title: "Weight Calculation Complete",
          description: `Calculated: ${s("calculated")}, Cached: ${s("cached")}, Failed: ${s("failed")}`,
          variant: "default",
        };
      case CATALOGUE_TASKS.bulkCache:
        return {
          title: "Bulk Caching Complete",
          description: `Processed: ${s("total")}, Calculated: ${s("calculated")}, Cached: ${s("cached")}, Failed: ${s("failed")}`,
          variant: "default",
        };
      case NEWSLETTER_TASK:
        return {
          title: "Newsletter Sent!",
          description: `Successfully sent to ${s("sent")} subscribers`,
          variant: "default",
        };
      default:
        return { title: "Done", description: job.result?.message ?? "", variant: "default" };
    }
  }
  if (job.status === "failed" || job.status === "cancelled") {
    const description = job.status === "cancelled" ? "The job was cancelled." : (job.lastError ?? "");
    switch (job.type) {
      case CATALOGUE_TASKS.importPopular:
      case CATALOGUE_TASKS.importCategory:
        return { title: "Import Failed", description, variant: "destructive" };
      case CATALOGUE_TASKS.calculateWeights:
        return { title: "Calculation Failed", description, variant: "destructive" };
      case CATALOGUE_TASKS.bulkCache:
        return { title: "Bulk Cache Failed", description, variant: "destructive" };
      case NEWSLETTER_TASK:
        return { title: "Send Failed", description: description || "Failed to send newsletter", variant: "destructive" };
      default:
        return { title: "Failed", description, variant: "destructive" };
    }
  }
  return null;
}
