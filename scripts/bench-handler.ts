// npm run bench:handler — each signed-in page of bench:load through Remix's request handler in one process,
// beside the minimal Remix page (scripts/bench-minimal) the same way: no HTTP, no load generator, no other
// process between them, so the CPU time per request is steadier than bench:load's req/s on a shared machine
// and an A/B of two builds can see a few per cent. Each page runs in a child process of its own: after a
// warm-up, 20 rounds of requests, each round's CPU time (user + system) per request; the lowest round
// and the median are printed (other work on the machine only adds time).
//   --no-build     reuse the builds of the last bench:load or bench:handler
//   --requests=N   requests per page after the warm-up (default 2000)
//   /path ...      measure these paths as the demo customer instead of bench:load's pages
//   --marketplace=N  first add N paid jobs of other demo users, two messages each (one unread), as a marketplace
//                  of that size would hold: a signed-in page should cost about what it costs on the demo data
//   --history=N    first give the demo customer N finished orders at the demo owner's printer (two messages each):
//                  a long history of the visitors' own; /dashboard?tab=completed and /printer-tracking?tab=payouts
//                  are measured too, and a page should cost about what it costs on the demo data
//   --compare=DIR  also measure each page on another production build of the app, in the same child process, in
//                  alternate batches: both builds meet the same moments of the machine, so their ratio holds where
//                  the machine's speed drifts. DIR is inside the project, so that the build finds node_modules:
//                  at the other commit, REMIX_BUILD_DIR=DIR NODE_ENV=production npx remix vite:build
import { createClient } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  APP_BUILD,
  DB_FILE,
  demoSessions,
  MINIMAL_BUILD,
  OWNER,
  prepareBuildsAndData,
  SIGNED_IN_AS,
  SIGNED_IN_PAGES,
} from "./bench-load";
import { withDemoIds } from "./bench-session";
import { PAID_STATUSES } from "../app/domain/job-status";

const ROUNDS = 20;
const WARM_UP = 300;
/** Requests before measuring: fewer when fewer are measured (a slow build's pages at --history). */
const warmUp = (requests: number) => Math.min(WARM_UP, requests);

interface Measured {
  minMs: number;
  medianMs: number;
  bytes: number;
}

/** Batches per build in a comparison: each holds requests / COMPARE_BATCHES requests. */
const COMPARE_BATCHES = 40;

interface Compared {
  /** this build, then the other */
  builds: [Measured, Measured];
  /** the other build's CPU per request over this one's, batch by batch: the median and the quartiles */
  ratio: { median: number; low: number; high: number };
}

/** The value at fraction `at` (0 to 1) of the sorted values, by the nearest rank below. */
function quantile(sorted: number[], at: number): number {
  return sorted[Math.floor(at * (sorted.length - 1))]!;
}

/** B's time over A's, batch by batch (A's batch i and B's batch i ran next to each other). */
export function pairedRatios(a: number[], b: number[]): Compared["ratio"] {
  if (a.length === 0 || a.length !== b.length) throw new Error("paired batches need equal, non-empty lists");
  const ratios = a.map((time, i) => b[i]! / time).sort((x, y) => x - y);
  return { median: quantile(ratios, 0.5), low: quantile(ratios, 0.25), high: quantile(ratios, 0.75) };
}

/** The lowest and the median of per-request times. */
export function lowestAndMedian(times: number[]): Pick<Measured, "minMs" | "medianMs"> {
  const sorted = [...times].sort((x, y) => x - y);
  return { minMs: sorted[0]!, medianMs: quantile(sorted, 0.5) };
}

/** In the child: a function that requests the page once through each build's request handler (as server/index.ts sets it up) and returns the body's length. */
async function pageRequesters(buildDirs: string[], path: string, cookie: string): Promise<Array<() => Promise<number>>> {
  const { createRequestHandler } = await import("@remix-run/node");
  const { installCachedRouteMatching } = await import("../server/route-matching");
  const { installSharedLoaderRequests } = await import("../server/loader-requests");
  const { withRequestScope } = await import("../app/utils/request-scope.server");
  // as server/index.ts does
  installCachedRouteMatching({ modulesFixed: true });
  installSharedLoaderRequests();
  const requesters: Array<() => Promise<number>> = [];
  for (const buildDir of buildDirs) {
    const build = await import(pathToFileURL(resolve(buildDir, "server/index.js")).href);
    const handler = createRequestHandler(build, "production");
    requesters.push(async () => {
      const headers: Record<string, string> = { accept: "text/html", host: "localhost" };
      if (cookie) headers.cookie = cookie;
      const response = await withRequestScope(() => handler(new Request(`http://localhost${path}`, { headers }), {}));
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status} on ${buildDir}`);
      return body.length;
    });
  }
  return requesters;
}

/** CPU time per request of `count` requests in a row. */
async function cpuPerRequest(once: () => Promise<number>, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await once();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

/** In the child: CPU time per request of one page through the build's request handler. */
async function measureHere(buildDir: string, path: string, cookie: string, requests: number): Promise<Measured> {
  const [once] = await pageRequesters([buildDir], path, cookie);
  for (let i = 0; i < warmUp(requests); i++) await once!();
  const perRequest: number[] = [];
  for (let round = 0; round < ROUNDS; round++) perRequest.push(await cpuPerRequest(once!, requests / ROUNDS));
  return { ...lowestAndMedian(perRequest), bytes: await once!() };
}

/** In the child: the page on two builds, in alternate batches (each pair in turn A then B, B then A). */
async function compareHere(buildDirs: [string, string], path: string, cookie: string, requests: number): Promise<Compared> {
  const [a, b] = (await pageRequesters(buildDirs, path, cookie)) as [() => Promise<number>, () => Promise<number>];
  for (let i = 0; i < warmUp(requests); i++) {
    await a();
    await b();
  }
  const perBatch = Math.max(1, Math.round(requests / COMPARE_BATCHES));
  const times: [number[], number[]] = [[], []];
  for (let batch = 0; batch < COMPARE_BATCHES; batch++) {
    const order = batch % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const k of order) times[k].push(await cpuPerRequest(k === 0 ? a : b, perBatch));
  }
  return {
    builds: [
      { ...lowestAndMedian(times[0]), bytes: await a() },
      { ...lowestAndMedian(times[1]), bytes: await b() },
    ],
    ratio: pairedRatios(times[0], times[1]),
  };
}

/**
 * Adds `jobs` paid orders that neither page's visitor takes part in (Leo ordering from Fran's printers), with
 * a message from each side, the owner's unread: the rows a grown marketplace holds around the visitor's own.
 * Their statuses go round the paid ones.
 */
async function growMarketplace(jobs: number) {
  const client = createClient({ url: `file:${DB_FILE}` });
  try {
    const ids = await client.execute(
      `SELECT (SELECT id FROM users WHERE email = 'leo@printnear.test') AS customer,
              (SELECT min(p.id) FROM printers p JOIN users u ON u.id = p.owner_id WHERE u.email = 'fran@printnear.test') AS printer,
              (SELECT id FROM users WHERE email = 'fran@printnear.test') AS owner`,
    );
    const { customer, printer, owner } = ids.rows[0]!;
    if (customer == null || printer == null || owner == null) throw new Error("the demo data has no Leo or Fran");
    const now = Date.now();
    const transaction = await client.transaction("write");
    for (let i = 0; i < jobs; i++) {
      const job = await transaction.execute({
        sql: `INSERT INTO print_jobs (customer_id, printer_id, status, file_name, submitted_at, confirmed_at)
              VALUES (?, ?, ?, 'grown-marketplace.stl', ?, ?) RETURNING id`,
        args: [customer, printer, PAID_STATUSES[i % PAID_STATUSES.length]!, now, now],
      });
      const jobId = job.rows[0]!.id;
      await transaction.execute({
        sql: `INSERT INTO messages (job_id, sender_id, sender_type, content, read_at)
              VALUES (?1, ?2, 'customer', 'Is it ready?', NULL), (?1, ?3, 'printer', 'Tomorrow.', ?4)`,
        args: [jobId, customer, owner, now],
      });
    }
    await transaction.commit();
  } finally {
    client.close();
  }
}

/**
 * Gives the demo customer `orders` finished orders at the demo owner's first printer, an hour apart and before
 * the demo's own, picked up (for pickup) and shipped in turn, each with a read message from either side, its
 * payment captured and its payout paid.
 */
async function growHistory(orders: number) {
  const client = createClient({ url: `file:${DB_FILE}` });
  try {
    const ids = await client.execute({
      sql: `SELECT (SELECT id FROM users WHERE email = ?1) AS customer,
                   (SELECT min(p.id) FROM printers p JOIN users u ON u.id = p.owner_id WHERE u.email = ?2) AS printer,
                   (SELECT id FROM users WHERE email = ?2) AS owner`,
      args: [SIGNED_IN_AS, OWNER],
    });
    const { customer, printer, owner } = ids.rows[0]!;
    if (customer == null || printer == null || owner == null) throw new Error("the demo data has no Casey or Bella");
    const transaction = await client.transaction("write");
    const start = Date.now() - (orders + 24) * 3_600_000;
    for (let i = 0; i < orders; i++) {
      const at = start + i * 3_600_000;
      const job = await transaction.execute({
        sql: `INSERT INTO print_jobs (customer_id, printer_id, status, delivery_method, file_name, estimated_weight_grams,
                                      amount_due_cents, printer_profit_cents, submitted_at, confirmed_at, created_at)
              VALUES (?1, ?2, ?3, ?4, 'long-history.stl', 42, 900, 550, ?5, ?5, ?5) RETURNING id`,
        args: [customer, printer, i % 2 ? "shipped" : "picked_up", i % 2 ? "shipping" : "pickup", at],
      });
      const jobId = job.rows[0]!.id;
      await transaction.execute({
        sql: `INSERT INTO messages (job_id, sender_id, sender_type, content, read_at)
              VALUES (?1, ?2, 'customer', 'Is it ready?', ?4), (?1, ?3, 'printer', 'Ready tomorrow.', ?4)`,
        args: [jobId, customer, owner, at],
      });
      // paid for and paid out, as a finished order is
      await transaction.execute({
        sql: `INSERT INTO payments (job_id, provider, provider_payment_id, amount_cents, status)
              VALUES (?1, 'test', 'pi_history_' || ?1, 900, 'captured')`,
        args: [jobId],
      });
      await transaction.execute({
        sql: `INSERT INTO payouts (job_id, owner_id, amount_cents, provider, status) VALUES (?1, ?2, 550, 'test', 'paid')`,
        args: [jobId, owner],
      });
    }
    await transaction.commit();
  } finally {
    client.close();
  }
}

/** The pages that list a visitor's own orders, measured too at --history. */
const HISTORY_PAGES = [
  { path: "/dashboard?tab=completed", as: SIGNED_IN_AS },
  { path: "/printer-tracking?tab=payouts", as: OWNER },
];

function runChild<T>(env: NodeJS.ProcessEnv, args: string[], what: string): T {
  const out = spawnSync("npx", ["tsx", "scripts/bench-handler.ts", ...args], { env, encoding: "utf8" });
  const last = (out.stdout ?? "").trim().split("\n").at(-1) ?? "";
  if (out.status !== 0 || !last.startsWith("{")) {
    process.stderr.write(`${out.stdout ?? ""}${out.stderr ?? ""}`);
    throw new Error(`measuring ${what} failed (exit ${out.status})`);
  }
  return JSON.parse(last) as T;
}

function measureInChild(env: NodeJS.ProcessEnv, buildDir: string, path: string, cookie: string, requests: number): Measured {
  return runChild(env, ["--child", buildDir, path, cookie, String(requests)], path);
}

function compareInChild(
  env: NodeJS.ProcessEnv,
  dirs: [string, string],
  path: string,
  cookie: string,
  requests: number,
): Compared {
  return runChild(env, ["--compare-child", dirs[0], dirs[1], path, cookie, String(requests)], path);
}

const ms = (m: Measured) => `${m.minMs.toFixed(2)}, ${m.medianMs.toFixed(2)}`;

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") {
    const [, buildDir, path, cookie, requests] = argv;
    console.log(JSON.stringify(await measureHere(buildDir!, path!, cookie ?? "", Number(requests))));
    return;
  }
  if (argv[0] === "--compare-child") {
    const [, dirA, dirB, path, cookie, requests] = argv;
    console.log(JSON.stringify(await compareHere([dirA!, dirB!], path!, cookie ?? "", Number(requests))));
    return;
  }
  const requests = Number(argv.find((a) => a.startsWith("--requests="))?.split("=")[1] ?? 2000);
  const other = argv.find((a) => a.startsWith("--compare="))?.slice("--compare=".length);
  if (other !== undefined && !existsSync(resolve(other, "server/index.js"))) {
    throw new Error(`--compare=${other}: no production build there (REMIX_BUILD_DIR=${other} npx remix vite:build)`);
  }
  const paths = argv.filter((a) => a.startsWith("/"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: `file:${DB_FILE}`,
    SESSION_SECRET: "bench-handler-session-secret",
    WORKER: "off",
  };
  prepareBuildsAndData(
    !argv.includes("--no-build"),
    { ...env, REMIX_BUILD_DIR: APP_BUILD },
    { ...env, BENCH_MINIMAL_BUILD_DIR: MINIMAL_BUILD },
  );
  const marketplace = Number(argv.find((a) => a.startsWith("--marketplace="))?.split("=")[1] ?? 0);
  if (marketplace > 0) await growMarketplace(marketplace);
  const history = Number(argv.find((a) => a.startsWith("--history="))?.split("=")[1] ?? 0);
  if (history > 0) await growHistory(history);
  const plan = paths.length
    ? paths.map((path) => ({ path, as: SIGNED_IN_AS }))
    : [...SIGNED_IN_PAGES, ...(history > 0 ? HISTORY_PAGES : [])];
  const grown = [
    marketplace > 0 ? `${marketplace} paid jobs of other users, with two messages each` : "",
    history > 0 ? `${history} finished orders of the demo customer at the demo owner's printer` : "",
  ].filter(Boolean);
  const sessions = demoSessions(plan, env);

  const minimal = measureInChild(env, MINIMAL_BUILD, "/", "", requests);
  if (other !== undefined) {
    const rows = plan.map(({ path, as }) => {
      const page = withDemoIds(path, sessions.ids);
      const compared = compareInChild(env, [APP_BUILD, other], page, sessions.cookies[as]!, requests);
      console.log(`${page}: ${ms(compared.builds[0])} ms here, ${ms(compared.builds[1])} ms on ${other}`);
      return [page, compared] as const;
    });
    console.log(
      `\nCPU per request through Remix's request handler, this tree's build (${APP_BUILD}) and ${other} in one process, ${COMPARE_BATCHES} alternate batches each (${requests} requests after ${warmUp(requests)}; lowest batch and median)`,
    );
    if (grown.length) console.log(`the demo data and ${grown.join(" and ")}`);
    console.log(`minimal page, alone: ${ms(minimal)} ms, ${minimal.bytes} bytes`);
    console.log(
      `| page | this build: CPU ms/request | ${other}: CPU ms/request | ${other} / this build, median of paired batches (quartiles) |`,
    );
    console.log("|---|---|---|---|");
    for (const [page, c] of rows) {
      console.log(
        `| ${page} | ${ms(c.builds[0])} | ${ms(c.builds[1])} | ${c.ratio.median.toFixed(3)} (${c.ratio.low.toFixed(3)}-${c.ratio.high.toFixed(3)}) |`,
      );
    }
    return;
  }
  const rows = plan.map(({ path, as }) => {
    const page = withDemoIds(path, sessions.ids);
    const measured = measureInChild(env, APP_BUILD, page, sessions.cookies[as]!, requests);
    console.log(`${page}: ${measured.minMs.toFixed(2)} ms (median ${measured.medianMs.toFixed(2)})`);
    return [page, measured] as const;
  });
  console.log(
    `\nCPU per request through Remix's request handler in one process (${requests} requests after ${warmUp(requests)}, lowest round of ${ROUNDS} and median)`,
  );
  if (grown.length) console.log(`the demo data and ${grown.join(" and ")}`);
  console.log(`minimal page: ${minimal.minMs.toFixed(2)} ms (median ${minimal.medianMs.toFixed(2)}), ${minimal.bytes} bytes`);
  console.log("| page | CPU ms/request (lowest, median) | bytes | minimal page's CPU / page's |");
  console.log("|---|---|---|---|");
  for (const [page, m] of rows) {
    console.log(
      `| ${page} | ${m.minMs.toFixed(2)}, ${m.medianMs.toFixed(2)} | ${m.bytes} | ${(minimal.minMs / m.minMs).toFixed(2)} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
