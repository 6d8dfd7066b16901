// Starts this machine's job worker with every handler registered, unless WORKER=off (a web-only
// machine when several run behind one database).
import "./handlers.server";
import { startWorker, type Worker } from "./runner.server";

export function startBackgroundWorker(env: NodeJS.ProcessEnv = process.env): Worker | null {
  if (env.WORKER === "off") return null;
  return startWorker({
    concurrency: Number(env.WORKER_CONCURRENCY || 2),
    pollMs: Number(env.WORKER_POLL_MS || 1000),
    leaseMs: Number(env.WORKER_LEASE_MS || 30_000),
  });
}
