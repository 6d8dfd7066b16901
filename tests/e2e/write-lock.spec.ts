// Another process holding the database's write lock does not freeze the server (decision 031): while it
// holds the lock, static files, /healthz and pages that only read answer at once, a write answers 503
// with Retry-After once it has waited its time, and after the lock is released writes go through again.
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { expect, test } from "./fixtures";
import { freePort, startOwnServer } from "./helpers";

/**
 * An answer that did not wait for the lock: a blocked event loop stalled every request for the 5 s a write waits
 * (LOCK_WAIT_MS), and the spare room is for a loaded 2-core machine running two of these servers side by side.
 */
const QUICK_MS = 2000;

/** A second process that takes the write lock; resolves once it holds it. Closing its stdin releases it. */
async function holdWriteLock(db: string): Promise<ChildProcess> {
  const holder = spawn("node_modules/.bin/tsx", ["tests/fixtures/database/hold-write-lock.ts", `file:${db}`], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: holder.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => line === "locked" && resolve());
    holder.once("exit", (code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  return holder;
}

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
}

test("a write lock held by another process leaves reads quick and answers writes 503 with Retry-After @no-browser", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const db = `tests/.tmp/e2e-write-lock-${testInfo.project.name}.db`;
  for (const suffix of ["", "-wal", "-shm", "-uploads", "-outbox"]) rmSync(`${db}${suffix}`, { recursive: true, force: true });
  // the job runner polls (and writes) often, as a busy server's would; in mock mode /models refreshes its
  // listing from the catalogue (a write) as it reads
  const server = startOwnServer(port, db, { WORKER_POLL_MS: "200" });
  let holder: ChildProcess | undefined;
  try {
    await expect
      .poll(async () => (await fetch(`${origin}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
      .toBe(200);
    const register = (name: string) =>
      fetch(`${origin}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: name, email: `${name}@e2e.test`, password: "lock-test-password-1" }),
      });
    const signedUp = await register("lock_reader");
    expect(signedUp.status).toBe(201);
    const cookie = signedUp.headers.get("set-cookie")!.split(";")[0];
    // a signed-in visitor's pages are rendered for them (no micro-cache); /models also asks the catalogue
    const probes = ["/favicon.svg", "/healthz", "/dashboard", "/models?q=vase"];
    /** Asks every probe in turn, round after round while `more()` says so; the slowest answer of each. */
    const slowestOf = async (more: (round: number) => boolean) => {
      const slowest = new Map<string, { status: number; ms: number }>();
      for (let round = 0; round === 0 || more(round); round++) {
        for (const path of probes) {
          const result = await timed(`${origin}${path}`, { headers: { cookie } });
          if (result.ms >= (slowest.get(path)?.ms ?? -1)) slowest.set(path, result);
        }
      }
      return slowest;
    };
    const unlocked = await slowestOf((round) => round < 3);
    for (const path of probes) expect(unlocked.get(path), path).toMatchObject({ status: 200 });

    holder = await holdWriteLock(db);
    let writeAnswered = false;
    const write = register("lock_writer").finally(() => (writeAnswered = true));
    const slowest = await slowestOf(() => !writeAnswered);
    const refused = await write;
    console.log(
      `slowest answers without the lock: ${JSON.stringify(Object.fromEntries(unlocked))}; ` +
        `while another process held it: ${JSON.stringify(Object.fromEntries(slowest))}`,
    );
    for (const path of probes) {
      expect(slowest.get(path), path).toMatchObject({ status: 200 });
      expect(slowest.get(path)!.ms, path).toBeLessThan(QUICK_MS);
    }
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ message: "The site is busy right now. Please try again in a few seconds." });

    const released = new Promise((resolve) => holder!.once("exit", resolve));
    holder.stdin!.end();
    await released;
    expect((await register("lock_writer")).status).toBe(201);
  } finally {
    holder?.kill();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
});
