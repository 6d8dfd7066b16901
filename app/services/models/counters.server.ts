// View and download counts of library models, kept off the request path: a read adds to a count in
// memory, and a background flush writes all counts in one batch every few seconds. A flush that
// cannot write (a held write lock, a read-only moment) keeps the counts for the next one, so
// reading a model never waits for the writer, and never fails because of it.
import { getClient, withoutWaitingForLock } from "~/utils/db.server";

export const COUNTER_FLUSH_MS = 5_000;

type Counter = "views" | "downloads";
const pending: Record<Counter, Map<number, number>> = { views: new Map(), downloads: new Map() };
let timer: ReturnType<typeof setTimeout> | null = null;
let flushing: Promise<void> | null = null;

function add(counter: Counter, modelId: number) {
  const counts = pending[counter];
  counts.set(modelId, (counts.get(modelId) ?? 0) + 1);
  schedule();
}

export function countView(modelId: number): void {
  add("views", modelId);
}

export function countDownload(modelId: number): void {
  add("downloads", modelId);
}

/** Counts not yet written, which pages add to the stored ones. */
export function unwrittenCounts(modelId: number): { views: number; downloads: number } {
  return { views: pending.views.get(modelId) ?? 0, downloads: pending.downloads.get(modelId) ?? 0 };
}

function schedule() {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    void flushModelCounters().finally(() => {
      if (pending.views.size || pending.downloads.size) schedule();
    });
  }, COUNTER_FLUSH_MS);
  timer.unref?.();
}

const COLUMN: Record<Counter, string> = { views: "view_count", downloads: "download_count" };

/** Writes every pending count in one batch; what fails to write stays pending. */
export function flushModelCounters(): Promise<void> {
  flushing ??= (async () => {
    const taken = {
      views: new Map(pending.views),
      downloads: new Map(pending.downloads),
    };
    const statements = (Object.keys(taken) as Counter[]).flatMap((counter) =>
      [...taken[counter]].map(([id, n]) => ({
        sql: `UPDATE library_models SET ${COLUMN[counter]} = ${COLUMN[counter]} + ? WHERE id = ?`,
        args: [n, id],
      })),
    );
    if (statements.length === 0) return;
    try {
      // a held write lock is not waited for: the next flush tries again
      const client = await getClient();
      await withoutWaitingForLock(() => client.batch(statements, "write"));
    } catch (error) {
      // kept for the next flush; only the error's kind is logged
      console.warn("model counters not written yet:", (error as { code?: string }).code ?? "error");
      return;
    }
    for (const counter of Object.keys(taken) as Counter[]) {
      for (const [id, n] of taken[counter]) {
        const left = (pending[counter].get(id) ?? 0) - n;
        if (left > 0) pending[counter].set(id, left);
        else pending[counter].delete(id);
      }
    }
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}
