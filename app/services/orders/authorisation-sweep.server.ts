// Card authorisations lapse after 7 days. A paid order the printer hasn't answered a day before
// that is cancelled and its authorisation released, through the lifecycle like any other change.
// The sweep keeps no state of its own: after a restart the next run finds the same rows.
import { AUTHORIZATION_SAFETY_MS } from "~/domain/job-lifecycle";
import { AppError } from "~/domain/app-error";
import { getClient } from "~/utils/db.server";
import { transitionJob } from "./transitions.server";

export async function sweepExpiringAuthorisations(now = Date.now()): Promise<number[]> {
  const client = await getClient();
  const due = await client.execute({
    sql: `SELECT DISTINCT j.id FROM print_jobs j JOIN payments p ON p.job_id = j.id
          WHERE j.status = 'confirmed' AND p.status = 'authorized' AND p.authorization_expires_at <= ?
          ORDER BY j.id LIMIT 200`,
    args: [now + AUTHORIZATION_SAFETY_MS],
  });
  const cancelled: number[] = [];
  for (const row of due.rows) {
    const jobId = Number(row.id);
    try {
      if (await transitionJob({ jobId, by: "system", action: "expire", now })) cancelled.push(jobId);
    } catch (error) {
      // accepted or cancelled meanwhile: nothing to do
      if (!(error instanceof AppError && error.code === "conflict")) throw error;
    }
  }
  return cancelled;
}

const SWEEP_EVERY_MS = 15 * 60 * 1000;
let timer: NodeJS.Timeout | null = null;

/** Runs the sweep now and every 15 minutes (the server starts it). */
export function startAuthorisationSweep(): void {
  if (timer) return;
  const run = () =>
    sweepExpiringAuthorisations().catch((error: unknown) =>
      console.error("authorisation sweep failed", error instanceof Error ? error.message : "error"),
    );
  void run();
  timer = setInterval(run, SWEEP_EVERY_MS);
  timer.unref();
}
