// The durable job runner against a real libSQL file: claim races, lease expiry and resume after
// a worker process dies, retries with backoff, cancel, idempotent and periodic enqueueing.
import { spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, test, vi } from "vitest";
import { backgroundTasks } from "../../db/schema";
import {
  cancelTask,
  enqueueTask,
  getTask,
  PermanentTaskError,
  registerTaskHandler,
  runDueTasks,
  schedulePeriodic,
  startWorker,
} from "../../app/services/jobs/index.server";
import { enqueuePeriodicTasks } from "../../app/services/jobs/enqueue.server";
import { claimTask } from "../../app/services/jobs/runner.server";
import { databaseConfig, getClient, getDb, openDatabase } from "../../app/utils/db.server";
import { ensureWorkLog, ITEMS_TASK, itemsHandler } from "../fixtures/jobs/items-handler";
import { atTime } from "../setup/clock";
import { waitFor } from "../setup/wait";

/** A handler's pause between pieces of its work (not a test's wait). */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the task's lease runs out, as stored. */
async function leaseExpiry(id: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ lease: backgroundTasks.leaseExpiresAt })
    .from(backgroundTasks)
    .where(eq(backgroundTasks.id, id));
  return row.lease?.getTime() ?? 0;
}

const others: { close(): void }[] = [];
afterAll(() => others.forEach((c) => c.close()));

describe("claiming", () => {
  test("two workers on two connections racing for one task: exactly one gets it", async () => {
    const second = (await openDatabase({ ...process.env })).client;
    others.push(second);
    for (let round = 0; round < 10; round++) {
      const { id } = await enqueueTask("test.race", { round });
      const [a, b] = await Promise.all([
        claimTask("worker-a", ["test.race"], 30_000),
        claimTask("worker-b", ["test.race"], 30_000, Date.now(), second),
      ]);
      const winners = [a, b].filter(Boolean);
      expect(winners).toHaveLength(1);
      expect(winners[0]!.id).toBe(id);
      const task = await getTask(id);
      expect(task!.status).toBe("running");
      await getClient().then((c) => c.execute({ sql: "UPDATE background_tasks SET status = 'done' WHERE id = ?", args: [id] }));
    }
    expect(databaseConfig().url).toContain("test-");
  });

  test("two workers draining 30 tasks run each task once", async () => {
    const runs = new Map<number, number>();
    registerTaskHandler<{ n: number }>("test.drain", async (ctx) => {
      runs.set(ctx.taskId, (runs.get(ctx.taskId) ?? 0) + 1);
      await sleep(2);
      return { n: ctx.payload.n };
    });
    const ids = [];
    for (let n = 0; n < 30; n++) ids.push((await enqueueTask("test.drain", { n })).id);
    await Promise.all([
      runDueTasks({ workerId: "w1", types: ["test.drain"] }),
      runDueTasks({ workerId: "w2", types: ["test.drain"] }),
    ]);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    const db = await getDb();
    const rows = await db.select().from(backgroundTasks).where(eq(backgroundTasks.kind, "test.drain"));
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
  });

  test("a task that is not yet due is not claimed", async () => {
    await enqueueTask("test.later", {}, { runAt: Date.now() + 60_000 });
    expect(await claimTask("w", ["test.later"], 1000)).toBeNull();
    expect(await claimTask("w", ["test.later"], 1000, Date.now() + 61_000)).not.toBeNull();
  });
});

describe("lease expiry and resume", () => {
  test("a worker process killed mid-task: another picks the task up after the lease and finishes each item once", async () => {
    await ensureWorkLog();
    const { id } = await enqueueTask(ITEMS_TASK, { total: 10 });
    const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/jobs/dying-worker.ts"], {
      env: { ...process.env, LEASE_MS: "30000", DIE_AFTER: "4" },
      stdio: "ignore",
    });
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    expect(exit).toBe("SIGKILL");

    const dead = await getTask(id);
    expect(dead!.status).toBe("running"); // still holds its lease: nobody cleaned up
    expect(dead!.progress).toEqual({ processed: 4, total: 10, counts: { done: 4 } });
    // while the lease lasts, nobody else may take it
    expect(await claimTask("survivor", [ITEMS_TASK], 30_000)).toBeNull();
    registerTaskHandler(ITEMS_TASK, itemsHandler("survivor"));
    // the clock moves past the dead worker's lease
    const outcomes = await atTime((await leaseExpiry(id)) + 1, () => runDueTasks({ workerId: "survivor", types: [ITEMS_TASK] }));
    expect(outcomes).toEqual(["done"]);

    const task = await getTask(id);
    expect(task!.status).toBe("done");
    expect(task!.attempts).toBe(2);
    expect(task!.progress).toEqual({ processed: 10, total: 10, counts: { done: 10 } });
    const log = await (
      await getClient()
    ).execute({
      sql: "SELECT item, worker FROM job_work_log WHERE task_id = ? ORDER BY CAST(item AS INTEGER)",
      args: [id],
    });
    expect(log.rows.map((r) => r.item)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(log.rows.filter((r) => r.worker === "dying")).toHaveLength(4);
  }, 30_000);

  test("a live worker's heartbeat keeps its lease: no one else claims it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    registerTaskHandler("test.long", async () => {
      await gate;
      return "ok";
    });
    const { id } = await enqueueTask("test.long", {});
    const worker = startWorker({ workerId: "holder", leaseMs: 150, pollMs: 20, types: ["test.long"] });
    await waitFor(
      () => getTask(id),
      (t) => t!.status === "running",
    );
    // a heartbeat after the first lease ran out renewed it (from then on, 150 ms): a thief then finds nothing to take
    const firstLeaseEnds = await leaseExpiry(id);
    await waitFor(
      () => leaseExpiry(id),
      (lease) => lease > firstLeaseEnds + 150,
    );
    expect(await claimTask("thief", ["test.long"], 150, firstLeaseEnds + 1)).toBeNull();
    release();
    await waitFor(
      () => getTask(id),
      (t) => t!.status === "done",
    );
    await worker.stop();
  });
});

describe("retries and failures", () => {
  test("a failing task is retried with exponential backoff, then succeeds", async () => {
    let calls = 0;
    registerTaskHandler("test.flaky", async (ctx) => {
      calls += 1;
      if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt}`);
      return { attempt: ctx.attempt };
    });
    const { id } = await enqueueTask("test.flaky", {});
    const before = Date.now();
    expect(await runDueTasks({ types: ["test.flaky"], backoffBaseMs: 200 })).toEqual(["queued"]);
    let task = await getTask(id);
    expect(task!.status).toBe("queued");
    expect(task!.lastError).toBe("boom 1");
    expect(task!.runAt - before).toBeGreaterThanOrEqual(200);
    expect(task!.runAt - Date.now()).toBeLessThanOrEqual(200);
    // not due yet: nothing runs
    expect(await runDueTasks({ types: ["test.flaky"], backoffBaseMs: 200 })).toEqual([]);
    // the clock moves to each retry's time
    const second = task!.runAt;
    await atTime(second, async () => {
      expect(await runDueTasks({ types: ["test.flaky"], backoffBaseMs: 200 })).toEqual(["queued"]);
    });
    task = await getTask(id);
    expect(task!.runAt - second).toBeGreaterThanOrEqual(400); // doubled
    await atTime(task!.runAt, async () => {
      expect(await runDueTasks({ types: ["test.flaky"], backoffBaseMs: 200 })).toEqual(["done"]);
    });
    task = await getTask(id);
    expect(task!.status).toBe("done");
    expect(task!.result).toEqual({ attempt: 3 });
    expect(calls).toBe(3);
  });

  test("a task fails for good after maxAttempts, and at once on a PermanentTaskError", async () => {
    // each failure for good is logged (the task type and the error only)
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    registerTaskHandler("test.broken", async () => {
      throw new Error("always");
    });
    const { id } = await enqueueTask("test.broken", {}, { maxAttempts: 2 });
    await runDueTasks({ types: ["test.broken"], backoffBaseMs: 1 });
    await atTime((await getTask(id))!.runAt, () => runDueTasks({ types: ["test.broken"], backoffBaseMs: 1 }));
    expect(await getTask(id)).toMatchObject({ status: "failed", attempts: 2, lastError: "always" });

    registerTaskHandler("test.invalid", async () => {
      throw new PermanentTaskError("bad payload");
    });
    const invalid = await enqueueTask("test.invalid", {});
    await runDueTasks({ types: ["test.invalid"] });
    expect(await getTask(invalid.id)).toMatchObject({ status: "failed", attempts: 1, lastError: "bad payload" });
    expect(logged).toHaveBeenCalledTimes(2);
  });
});

describe("cancel", () => {
  test("a queued task is cancelled and never runs", async () => {
    let ran = false;
    registerTaskHandler("test.never", async () => {
      ran = true;
    });
    const { id } = await enqueueTask("test.never", {});
    expect(await cancelTask(id)).toBe(true);
    await runDueTasks({ types: ["test.never"] });
    expect(ran).toBe(false);
    expect((await getTask(id))!.status).toBe("cancelled");
  });

  test("a running task sees isCancelled, stops, and ends cancelled with its progress kept", async () => {
    registerTaskHandler("test.loop", async (ctx) => {
      for (let i = 1; i <= 1000; i++) {
        if (ctx.isCancelled()) return { stoppedAt: i };
        await ctx.reportProgress({ processed: i, total: 1000, counts: {} });
        await sleep(10);
      }
    });
    const { id } = await enqueueTask("test.loop", {});
    const worker = startWorker({ leaseMs: 300, pollMs: 20, types: ["test.loop"] });
    await waitFor(
      () => getTask(id),
      (t) => (t!.progress?.processed ?? 0) >= 3,
    );
    expect(await cancelTask(id)).toBe(true);
    const task = await waitFor(
      () => getTask(id),
      (t) => t!.status !== "running",
    );
    expect(task!.status).toBe("cancelled");
    expect(task!.progress!.processed).toBeLessThan(1000);
    expect(await cancelTask(id)).toBe(false); // finished tasks can't be cancelled again
    await worker.stop();
  });
});

describe("enqueueing", () => {
  test("a dedupe key makes enqueueing idempotent while the task is pending or running", async () => {
    registerTaskHandler("test.dedupe", async () => "ok");
    const a = await enqueueTask("test.dedupe", { n: 1 }, { dedupeKey: "sync:1" });
    const b = await enqueueTask("test.dedupe", { n: 2 }, { dedupeKey: "sync:1" });
    expect(b).toEqual({ id: a.id, created: false });
    await runDueTasks({ types: ["test.dedupe"] });
    const c = await enqueueTask("test.dedupe", { n: 3 }, { dedupeKey: "sync:1" });
    expect(c.created).toBe(true);
    expect(c.id).not.toBe(a.id);
  });

  test("periodic tasks: one row per period however many machines enqueue it", async () => {
    schedulePeriodic("test.sweep", 60_000);
    const now = Date.now();
    await Promise.all([enqueuePeriodicTasks(now), enqueuePeriodicTasks(now + 1), enqueuePeriodicTasks(now + 2)]);
    const db = await getDb();
    let rows = await db.select().from(backgroundTasks).where(eq(backgroundTasks.kind, "test.sweep"));
    expect(rows).toHaveLength(1);
    await enqueuePeriodicTasks(now + 60_000);
    rows = await db.select().from(backgroundTasks).where(eq(backgroundTasks.kind, "test.sweep"));
    expect(rows).toHaveLength(2);
  });

  test("stopping a worker hands its running task back to the queue, to be resumed", async () => {
    registerTaskHandler("test.stoppable", async (ctx) => {
      while (!ctx.isCancelled()) await sleep(10);
    });
    const { id } = await enqueueTask("test.stoppable", {});
    const worker = startWorker({ leaseMs: 1000, pollMs: 20, types: ["test.stoppable"] });
    await waitFor(
      () => getTask(id),
      (t) => t!.status === "running",
    );
    await worker.stop(2000);
    expect(await getTask(id)).toMatchObject({ status: "queued", attempts: 0 });
  });
});
