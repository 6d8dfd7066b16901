// The claims sweep, a periodic task of the job runner: claims the printer's owner left unanswered for
// OWNER_ANSWER_MS go to the admins. It only escalates: refunds left pending and payouts that waited for a
// claim are the money reconciliation's to finish.
import { OWNER_ANSWER_MS } from "~/domain/claims";
import { schedulePeriodic } from "~/services/jobs/enqueue.server";
import { registerTaskHandler } from "~/services/jobs/runner.server";
import { escalateUnanswered } from "./claims.server";

export async function sweepClaims(now = Date.now()) {
  return { escalated: await escalateUnanswered(now - OWNER_ANSWER_MS, now) };
}

export const CLAIMS_SWEEP_TASK = "orders.claims-sweep";
const SWEEP_EVERY_MS = 15 * 60 * 1000;

registerTaskHandler(CLAIMS_SWEEP_TASK, async () => sweepClaims());
schedulePeriodic(CLAIMS_SWEEP_TASK, SWEEP_EVERY_MS);
