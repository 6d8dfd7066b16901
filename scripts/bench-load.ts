// npm run bench:load — the site's busiest pages under load, side by side with a minimal Remix 2
// page (scripts/bench-minimal: one loader returning a constant) built with the same toolchain.
// Both production servers run on loopback; autocannon (50 connections, no compression asked)
// hits each page and the minimal page alternately, so both share whatever else the machine does.
// It prints req/s, p99 and the ratio; the target is a ratio of at least 0.5 with p99 <= 150 ms.
// Two runs: signed out (the public pages, which the one-second micro-cache of server/page-cache.ts serves)
// and signed in as the demo customer (a session cookie written as tests/e2e/fixtures.ts does: every request
// takes the whole path, session lookup, loaders and render).
//   --no-build     reuse the last builds
//   --seconds=N    length of each measurement (default 8)
//   /path ...      measure these paths instead of the default pages
//   --signed-in-only / --signed-out-only   run one of the two
import autocannon from "autocannon";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";

export const LOAD_PAGES = ["/", "/models", "/browse", "/printers"];
export const TARGET_RATIO = 0.5;
export const TARGET_P99_MS = 150;
const CONNECTIONS = 50;

const APP_BUILD = "build-bench-load";
const MINIMAL_BUILD = "build-bench-minimal";
const DB_FILE = "tests/.tmp/bench-load.db";
/** the demo customer of db/seed.ts */
export const SIGNED_IN_AS = "casey@printnear.test";

export interface LoadResult {
  path: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface Comparison {
  page: LoadResult;
  minimal: LoadResult;
  ratio: number;
  meetsTarget: boolean;
}

export function compare(page: LoadResult, minimal: LoadResult): Comparison {
  const ratio = minimal.requestsPerSecond > 0 ? page.requestsPerSecond / minimal.requestsPerSecond : 0;
  const clean = page.errors === 0 && page.non2xx === 0;
  return { page, minimal, ratio, meetsTarget: clean && ratio >= TARGET_RATIO && page.p99Ms <= TARGET_P99_MS };
}

export function formatComparisons(rows: Comparison[]): string {
  const header = ["page", "req/s", "p99 ms", "minimal req/s", "minimal p99 ms", "ratio", "target"];
  const cells = rows.map((r) => [
    r.page.path,
    r.page.requestsPerSecond.toFixed(0),
    r.page.p99Ms.toFixed(0),
    r.minimal.requestsPerSecond.toFixed(0),
    r.minimal.p99Ms.toFixed(0),
    r.ratio.toFixed(2),
    r.meetsTarget
      ? "OK"
      : `MISSED${r.page.errors || r.page.non2xx ? ` (${r.page.errors} errors, ${r.page.non2xx} non-2xx)` : ""}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): string {
  const started = Date.now();
  const out = spawnSync(command, args, { env, encoding: "utf8" });
  if (out.status !== 0) {
    process.stderr.write(`${out.stdout ?? ""}${out.stderr ?? ""}`);
    throw new Error(`${label} failed (exit ${out.status})`);
  }
  console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out.stdout ?? "";
}

/** Each page against the minimal page, alternately, so both share whatever else the machine does. */
async function measure(label: string, appOrigin: string, minimalUrl: string, paths: string[], seconds: number, cookie?: string) {
  console.log(`\n${label}`);
  // warm the path (JIT, caches, the session's rows) before anything counts
  for (const path of paths) await load(`${appOrigin}${path}`, 2, cookie);
  const rows: Comparison[] = [];
  for (const path of paths) {
    const minimalRun = await load(minimalUrl, seconds);
    const pageRun = await load(`${appOrigin}${path}`, seconds, cookie);
    rows.push(compare(pageRun, { ...minimalRun, path: "minimal" }));
    console.log(
      `${path}: ${pageRun.requestsPerSecond.toFixed(0)} req/s, p99 ${pageRun.p99Ms} ms; minimal ${minimalRun.requestsPerSecond.toFixed(0)} req/s, p99 ${minimalRun.p99Ms} ms`,
    );
  }
  return rows;
}

function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn("npx", args, { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  return child;
}

async function waitFor(url: string, server: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server for ${url} exited with code ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Ends a server's process group (npx → tsx → node, started detached). */
async function stop(server: ChildProcess | undefined) {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
  signal("SIGKILL");
}

async function load(url: string, seconds: number, cookie?: string): Promise<LoadResult> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (cookie) headers.cookie = cookie;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return {
    path: new URL(url).pathname + new URL(url).search,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const build = !argv.includes("--no-build");
  const seconds = Number(argv.find((a) => a.startsWith("--seconds="))?.split("=")[1] ?? 8);
  const pages = argv.filter((a) => a.startsWith("/"));
  const paths = pages.length ? pages : LOAD_PAGES;

  const [appPort, minimalPort] = [await freePort(), await freePort()];
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(appPort),
    MOCKS: "true",
    DATABASE_URL: `file:${DB_FILE}`,
    REMIX_BUILD_DIR: APP_BUILD,
    SESSION_SECRET: "bench-load-session-secret",
    THINGIVERSE_TOKEN: process.env.THINGIVERSE_TOKEN || "mock-token",
  };
  const minimalEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(minimalPort),
    BENCH_MINIMAL_BUILD_DIR: MINIMAL_BUILD,
  };

  if (build) {
    run("npx", ["remix", "vite:build"], appEnv, "site build");
    run("npx", ["remix", "vite:build", "scripts/bench-minimal"], minimalEnv, "minimal page build");
  }
  mkdirSync("tests/.tmp", { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_FILE}${suffix}`, { force: true });
  run("npx", ["tsx", "db/seed.ts"], appEnv, "demo data");

  let app: ChildProcess | undefined;
  let minimal: ChildProcess | undefined;
  try {
    app = start(["tsx", "server/index.ts"], appEnv);
    minimal = start(["tsx", "scripts/bench-minimal/server.ts"], minimalEnv);
    const appOrigin = `http://127.0.0.1:${appPort}`;
    const minimalUrl = `http://127.0.0.1:${minimalPort}/`;
    await waitFor(`${appOrigin}/healthz`, app);
    await waitFor(minimalUrl, minimal);

    await load(minimalUrl, 2);

    const runs: Array<[string, Comparison[]]> = [];
    if (!argv.includes("--signed-in-only")) {
      runs.push([
        "signed out (public pages; the micro-cache serves them)",
        await measure("signed out", appOrigin, minimalUrl, paths, seconds),
      ]);
    }
    if (!argv.includes("--signed-out-only")) {
      const cookie = run(
        "npx",
        ["tsx", "scripts/bench-session.ts", SIGNED_IN_AS],
        appEnv,
        "session for the demo customer",
      ).trim();
      if (!cookie.startsWith("pn_session=")) throw new Error("no session cookie for the signed-in run");
      const label = `signed in as ${SIGNED_IN_AS} (no cache: the whole request path)`;
      runs.push([label, await measure("signed in", appOrigin, minimalUrl, paths, seconds, cookie)]);
    }
    console.log(
      `\n${CONNECTIONS} connections, ${seconds} s each, uncompressed, loopback; target: ratio >= ${TARGET_RATIO} and p99 <= ${TARGET_P99_MS} ms`,
    );
    for (const [label, rows] of runs) console.log(`\n${label}\n${formatComparisons(rows)}`);
    if (runs.some(([, rows]) => rows.some((r) => !r.meetsTarget))) process.exitCode = 1;
  } finally {
    await Promise.all([stop(app), stop(minimal)]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
