// npm run bench:load — the site's busiest pages under load, side by side with a minimal Remix 2
// page (scripts/bench-minimal: one loader returning a constant) built with the same toolchain.
// Both production servers run on loopback; autocannon (50 connections, no compression asked)
// hits each page and the minimal page alternately, so both share whatever else the machine does.
// It prints req/s, p99 and the ratio to the minimal page, and exits non-zero when a page misses its run's target;
// beside them each server's CPU time per request (all its processes, from /proc), steadier than req/s when
// something else shares the machine.
// Two runs: signed out (the public pages, which the one-second micro-cache of server/page-cache.ts serves;
// target ratio >= 0.5, p99 <= 150 ms) and signed in as the demo customer or printer owner (session cookies
// written as tests/e2e/fixtures.ts does: every request takes the whole path, session lookup, loaders and
// render, nothing cached; target ratio >= 0.35, p99 <= 300 ms).
//   --no-build     reuse the last builds
//   --seconds=N    length of each measurement (default 8)
//   /path ...      measure these paths (signed in: as the demo customer) instead of the default pages
//   --signed-in-only / --signed-out-only   run one of the two
import autocannon from "autocannon";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { withDemoIds, type DemoPageIds } from "./bench-session";

export interface Target {
  ratio: number;
  p99Ms: number;
}

/** the public pages, served to signed-out visitors from the micro-cache */
export const LOAD_PAGES = ["/", "/models", "/browse", "/printers"];
export const SIGNED_OUT_TARGET: Target = { ratio: 0.5, p99Ms: 150 };
/** the demo customer of db/seed.ts */
export const SIGNED_IN_AS = "casey@printnear.test";
/** the Berthoud printer owner of db/seed.ts */
export const OWNER = "bella@printnear.test";
/** Pages as people who use the marketplace meet them; {conversation} is the demo customer's paid order with messages. */
export const SIGNED_IN_PAGES = [
  { path: "/", as: SIGNED_IN_AS },
  { path: "/models", as: SIGNED_IN_AS },
  { path: "/dashboard", as: SIGNED_IN_AS },
  { path: "/order/{conversation}", as: SIGNED_IN_AS },
  { path: "/messages", as: SIGNED_IN_AS },
  { path: "/printer-dashboard", as: OWNER },
];
export const SIGNED_IN_TARGET: Target = { ratio: 0.35, p99Ms: 300 };
const CONNECTIONS = 50;

export const APP_BUILD = "build-bench-load";
export const MINIMAL_BUILD = "build-bench-minimal";
export const DB_FILE = "tests/.tmp/bench-load.db";

export interface LoadResult {
  path: string;
  requestsPerSecond: number;
  /** the server's CPU time (user + system, all its processes) per answered request, when known */
  cpuMsPerRequest?: number;
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

export function compare(page: LoadResult, minimal: LoadResult, target: Target): Comparison {
  const ratio = minimal.requestsPerSecond > 0 ? page.requestsPerSecond / minimal.requestsPerSecond : 0;
  const clean = page.errors === 0 && page.non2xx === 0;
  return { page, minimal, ratio, meetsTarget: clean && ratio >= target.ratio && page.p99Ms <= target.p99Ms };
}

export function formatComparisons(rows: Comparison[]): string {
  const header = [
    "page",
    "req/s",
    "p99 ms",
    "CPU ms/req",
    "minimal req/s",
    "minimal p99 ms",
    "minimal CPU ms/req",
    "ratio",
    "target",
  ];
  const cpu = (result: LoadResult) => (result.cpuMsPerRequest === undefined ? "-" : result.cpuMsPerRequest.toFixed(2));
  const cells = rows.map((r) => [
    r.page.path,
    r.page.requestsPerSecond.toFixed(0),
    r.page.p99Ms.toFixed(0),
    cpu(r.page),
    r.minimal.requestsPerSecond.toFixed(0),
    r.minimal.p99Ms.toFixed(0),
    cpu(r.minimal),
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

export function run(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): string {
  const started = Date.now();
  const out = spawnSync(command, args, { env, encoding: "utf8" });
  if (out.status !== 0) {
    process.stderr.write(`${out.stdout ?? ""}${out.stderr ?? ""}`);
    throw new Error(`${label} failed (exit ${out.status})`);
  }
  console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out.stdout ?? "";
}

interface Page {
  path: string;
  /** the Cookie header of the visitor, none signed out */
  cookie?: string;
}

interface Servers {
  appOrigin: string;
  minimalUrl: string;
  /** process groups of the two servers, whose CPU time is read from /proc */
  app?: number;
  minimal?: number;
}

/** Each page against the minimal page, alternately, so both share whatever else the machine does. */
async function measure(label: string, servers: Servers, pages: Page[], seconds: number, target: Target) {
  const { appOrigin, minimalUrl } = servers;
  console.log(`\n${label}`);
  // warm the path (JIT, caches, the session's rows) before anything counts
  for (const { path, cookie } of pages) await load(`${appOrigin}${path}`, 2, cookie);
  const rows: Comparison[] = [];
  for (const { path, cookie } of pages) {
    const minimalRun = await load(minimalUrl, seconds, undefined, servers.minimal);
    const pageRun = await load(`${appOrigin}${path}`, seconds, cookie, servers.app);
    rows.push(compare(pageRun, { ...minimalRun, path: "minimal" }, target));
    const cpu = (run: LoadResult) => (run.cpuMsPerRequest === undefined ? "" : `, ${run.cpuMsPerRequest.toFixed(2)} ms CPU/req`);
    console.log(
      `${path}: ${pageRun.requestsPerSecond.toFixed(0)} req/s, p99 ${pageRun.p99Ms} ms${cpu(pageRun)}; minimal ${minimalRun.requestsPerSecond.toFixed(0)} req/s, p99 ${minimalRun.p99Ms} ms${cpu(minimalRun)}`,
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

/** CPU time (user + system) in ms of every process in a process group, from /proc; undefined elsewhere. */
export function processGroupCpuMs(group: number | undefined, proc = "/proc"): number | undefined {
  if (!group) return undefined;
  let ticks = 0;
  try {
    for (const entry of readdirSync(proc)) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`${proc}/${entry}/stat`, "utf8");
      } catch {
        continue; // ended meanwhile
      }
      // fields after the command's closing parenthesis: state ppid pgrp … utime(14) stime(15)
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return undefined;
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** Linux's USER_HZ, the unit of /proc's CPU times */
const CLOCK_TICKS_PER_SECOND = 100;

async function load(url: string, seconds: number, cookie?: string, serverGroup?: number): Promise<LoadResult> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (cookie) headers.cookie = cookie;
  const cpuBefore = processGroupCpuMs(serverGroup);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const cpuAfter = processGroupCpuMs(serverGroup);
  const answered = result.requests.total;
  return {
    path: new URL(url).pathname + new URL(url).search,
    requestsPerSecond: result.requests.average,
    cpuMsPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined && answered > 0 ? (cpuAfter - cpuBefore) / answered : undefined,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The site's and the minimal page's production builds (unless `build` is false: the last ones are reused),
 * then a fresh database with the demo data. appEnv names the site's build and database, minimalEnv the
 * minimal page's build.
 */
export function prepareBuildsAndData(build: boolean, appEnv: NodeJS.ProcessEnv, minimalEnv: NodeJS.ProcessEnv) {
  if (build) {
    run("npx", ["remix", "vite:build"], appEnv, "site build");
    run("npx", ["remix", "vite:build", "scripts/bench-minimal"], minimalEnv, "minimal page build");
  }
  mkdirSync("tests/.tmp", { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_FILE}${suffix}`, { force: true });
  run("npx", ["tsx", "db/seed.ts"], appEnv, "demo data");
}

/** A session cookie for each demo user the plan signs in as, and the demo orders' ids for the page paths. */
export function demoSessions(plan: ReadonlyArray<{ as: string }>, env: NodeJS.ProcessEnv) {
  const emails = [...new Set(plan.map((p) => p.as))];
  return JSON.parse(run("npx", ["tsx", "scripts/bench-session.ts", ...emails], env, "sessions for the demo users")) as {
    cookies: Record<string, string>;
    ids: DemoPageIds;
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const build = !argv.includes("--no-build");
  const seconds = Number(argv.find((a) => a.startsWith("--seconds="))?.split("=")[1] ?? 8);
  const pages = argv.filter((a) => a.startsWith("/"));

  const [appPort, minimalPort] = [await freePort(), await freePort()];
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(appPort),
    // no MOCKS: msw wraps the global Request, Response and Headers constructors (3.6 % of a signed-in page's
    // CPU), which production does not have; the measured pages make no third-party calls
    DATABASE_URL: `file:${DB_FILE}`,
    REMIX_BUILD_DIR: APP_BUILD,
    SESSION_SECRET: "bench-load-session-secret",
  };
  const minimalEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(minimalPort),
    BENCH_MINIMAL_BUILD_DIR: MINIMAL_BUILD,
  };

  prepareBuildsAndData(build, appEnv, minimalEnv);

  let app: ChildProcess | undefined;
  let minimal: ChildProcess | undefined;
  try {
    app = start(["tsx", "server/index.ts"], appEnv);
    minimal = start(["tsx", "scripts/bench-minimal/server.ts"], minimalEnv);
    const appOrigin = `http://127.0.0.1:${appPort}`;
    const minimalUrl = `http://127.0.0.1:${minimalPort}/`;
    const servers: Servers = { appOrigin, minimalUrl, app: app.pid, minimal: minimal.pid };
    await waitFor(`${appOrigin}/healthz`, app);
    await waitFor(minimalUrl, minimal);

    await load(minimalUrl, 2);

    const runs: Array<[string, Target, Comparison[]]> = [];
    if (!argv.includes("--signed-in-only")) {
      const label = "signed out (public pages; the micro-cache serves them)";
      const signedOut = (pages.length ? pages : LOAD_PAGES).map((path) => ({ path }));
      runs.push([label, SIGNED_OUT_TARGET, await measure(label, servers, signedOut, seconds, SIGNED_OUT_TARGET)]);
    }
    if (!argv.includes("--signed-out-only")) {
      const plan = pages.length ? pages.map((path) => ({ path, as: SIGNED_IN_AS })) : SIGNED_IN_PAGES;
      const sessions = demoSessions(plan, appEnv);
      const signedIn = plan.map(({ path, as }) => {
        const cookie = sessions.cookies[as];
        if (!cookie?.startsWith("pn_session=")) throw new Error(`no session cookie for ${as}`);
        return { path: withDemoIds(path, sessions.ids), cookie };
      });
      const label = `signed in as ${Object.keys(sessions.cookies).join(" / ")} (no cache: the whole request path)`;
      runs.push([label, SIGNED_IN_TARGET, await measure(label, servers, signedIn, seconds, SIGNED_IN_TARGET)]);
    }
    console.log(`\n${CONNECTIONS} connections, ${seconds} s each, uncompressed, loopback`);
    for (const [label, target, rows] of runs) {
      console.log(`\n${label}; target: ratio >= ${target.ratio} and p99 <= ${target.p99Ms} ms\n${formatComparisons(rows)}`);
    }
    if (runs.some(([, , rows]) => rows.some((r) => !r.meetsTarget))) process.exitCode = 1;
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
