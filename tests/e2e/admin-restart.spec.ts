// A server killed in the middle of a weight-caching job: started again, it resumes the job after
// the dead worker's lease expires and finishes with every model weighed exactly once.
import { rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { waitFor } from "../setup/wait";
import { expect, test } from "./fixtures";
import { startOwnServer } from "./helpers";

const BASE_PORT = Number(process.env.E2E_PORT || 3005) + 100;

function startServer(port: number, db: string, env: Record<string, string>) {
  return startOwnServer(port, db, { THINGIVERSE_TOKEN: "mock-token", WORKER_LEASE_MS: "2000", WORKER_POLL_MS: "200", ...env });
}

/** A started server and its worker take their time on a loaded machine. */
const until = <T>(read: () => Promise<T>, ok: (v: T) => boolean) => waitFor(read, ok, 40_000);

test("a weight-caching job survives the server being killed and finishes with each model weighed once @no-browser", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const port = BASE_PORT + testInfo.parallelIndex + (testInfo.project.name === "js" ? 0 : 10);
  const db = `tests/.tmp/e2e-restart-${testInfo.project.name}.db`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });

  // a budget of 5 catalogue requests: the listing and four models' file lists (their files come
  // from the CDN, which spends no budget), then the job waits for budget
  let server = startServer(port, db, { CATALOGUE_JOB_BUDGET: "5" });
  const health = () => fetch(`http://localhost:${port}/healthz`).then((r) => r.status);
  await until(health, (s) => s === 200);
  // the server writes at start-up and from its worker: this connection waits for its lock like the app does
  const client = createClient({ url: `file:${db}`, timeout: 5000 });
  try {
    const inserted = await client.execute(
      `INSERT INTO background_tasks (kind, payload) VALUES ('catalogue.calculate-weights', '{"count":9,"page":1}') RETURNING id`,
    );
    const taskId = Number(inserted.rows[0].id);
    const progress = async () => {
      const row = (
        await client.execute({ sql: "SELECT progress, status, attempts FROM background_tasks WHERE id = ?", args: [taskId] })
      ).rows[0];
      return {
        ...(JSON.parse(String(row.progress ?? "null")) ?? { processed: 0 }),
        status: String(row.status),
        attempts: Number(row.attempts),
      };
    };
    const midway = await until(progress, (p) => p.processed >= 4);
    expect(midway.status).toBe("running");
    expect(midway.processed).toBeLessThan(9);

    process.kill(-server.pid!, "SIGKILL"); // no clean shutdown: the lease is left behind
    const killedAt = Date.now();
    await until(
      () => health().catch(() => 0),
      (s) => s === 0,
    );
    const weighedBefore = (
      await client.execute("SELECT source_id, weight_computed_at FROM catalogue_models WHERE estimated_weight_grams IS NOT NULL")
    ).rows.map((r) => ({ id: Number(r.source_id), at: Number(r.weight_computed_at) }));

    server = startServer(port, db, { CATALOGUE_JOB_BUDGET: "1000" });
    await until(health, (s) => s === 200);
    const done = await until(progress, (p) => p.status === "done");
    expect(done.attempts).toBe(2);
    expect(done.processed).toBe(9);

    const items = (
      await client.execute({ sql: "SELECT item_key, outcome FROM background_task_items WHERE task_id = ?", args: [taskId] })
    ).rows;
    expect(items).toHaveLength(9);
    expect(new Set(items.map((i) => i.item_key)).size).toBe(9);
    const weighed = (
      await client.execute("SELECT source_id, weight_computed_at FROM catalogue_models WHERE estimated_weight_grams IS NOT NULL")
    ).rows.map((r) => ({ id: Number(r.source_id), at: Number(r.weight_computed_at) }));
    const calculated = items.filter((i) => i.outcome === "calculated").length;
    expect(weighed).toHaveLength(calculated);
    // the models weighed before the kill were not weighed again after the restart
    for (const before of weighedBefore) {
      expect(before.at).toBeLessThan(killedAt);
      expect(weighed.find((w) => w.id === before.id)?.at).toBe(before.at);
    }
    expect(weighed.length).toBeGreaterThan(weighedBefore.length);
  } finally {
    client.close();
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  }
});
