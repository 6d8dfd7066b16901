// npm run bench:pages — builds the app, serves it on a seeded scratch database and reports each
// page's gzipped HTML and the gzipped JavaScript it loads against the budgets of
// docs/decisions/005-page-budgets.md. The run fails (exit 1) when a page is over budget or does
// not answer 200 (a redirect, e.g. to the sign-in page, counts as a failure).
//   --no-build   reuse the last build in build-bench/
//   /path ...    measure these paths instead of the default pages
//   --as=EMAIL   measure them signed in as this demo user (the default signed-in pages always are)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const PAGES = ["/", "/auth", "/models", "/browse"];
/** Pages measured signed in as a demo user; {submitted} and {confirmed} are demo orders looked up after seeding. */
export const SIGNED_IN_PAGES = [
  { path: "/checkout?orderId={submitted}", as: "casey@printnear.test" },
  { path: "/order/{confirmed}", as: "bella@printnear.test" },
  { path: "/printer-dashboard", as: "bella@printnear.test" },
  { path: "/messages", as: "casey@printnear.test" },
  { path: "/messages?jobId={conversation}", as: "casey@printnear.test" },
];
const DEMO_PASSWORD = "printnear-demo";
export const HTML_BUDGET_KB = 14;
export const JS_BUDGET_KB = 110;
const KB = 1024;

const PREFERRED_PORT = 3299;
let ORIGIN = `http://localhost:${PREFERRED_PORT}`;
const BUILD_DIR = "build-bench";
const DB_FILE = "tests/.tmp/bench-pages.db";
const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(PREFERRED_PORT),
  MOCKS: "true",
  DATABASE_URL: `file:${DB_FILE}`,
  REMIX_BUILD_DIR: BUILD_DIR,
  // a fixed secret, so the run never writes data/.session-secret
  SESSION_SECRET: "bench-pages-session-secret",
};

export const gzipSize = (text: string | Uint8Array) => gzipSync(text, { level: 6 }).length;

/** Script URLs a Remix document loads up front: modulepreload links, module script src, and the inline module's imports. */
export function scriptUrlsOf(html: string): string[] {
  const urls = new Set<string>();
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    if (/\brel=["']?modulepreload/i.test(tag)) {
      const href = /\bhref=["']([^"']+)["']/i.exec(tag)?.[1];
      if (href) urls.add(href);
    }
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes, body] = match;
    if (!/\btype=["']?module/i.test(attributes!)) continue;
    const src = /\bsrc=["']([^"']+)["']/i.exec(attributes!)?.[1];
    if (src) urls.add(src);
    for (const url of importsOf(body!)) urls.add(url);
  }
  return [...urls];
}

// Only path-like .js specifiers count: minified code has "import"/"from" inside strings too.
const SPECIFIER = String.raw`["']((?:\.{1,2}/|/)[^"'\s]+?\.js)["']`;
const STATIC_IMPORT = new RegExp(String.raw`\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?` + SPECIFIER, "g");
const DYNAMIC_IMPORT = new RegExp(String.raw`\bimport\(\s*` + SPECIFIER + String.raw`\s*\)`, "g");

/** Static `import ... from "./x.js"` / `import "./x.js"` and dynamic `import("./x.js")` specifiers of a module's source. */
export function importsOf(source: string, { dynamic = true }: { dynamic?: boolean } = {}): string[] {
  const found = [...source.matchAll(STATIC_IMPORT)].map((m) => m[1]!);
  if (dynamic) found.push(...[...source.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]!));
  return found;
}

interface PageResult {
  path: string;
  status: number;
  htmlGz: number;
  jsGz: number;
  jsFiles: number;
  lazyGz: number;
  error?: string;
}

async function fetchText(url: string, cookie?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: res.status, text: await res.text() };
}

/** The page's up-front scripts plus everything they import statically; chunks only reachable through import() are "lazy". */
async function measurePage(path: string, cookie?: string): Promise<PageResult> {
  const page = await fetchText(`${ORIGIN}${path}`, cookie);
  const result: PageResult = { path, status: page.status, htmlGz: gzipSize(page.text), jsGz: 0, jsFiles: 0, lazyGz: 0 };
  const eager = new Set<string>();
  const lazy = new Set<string>();
  const queue = scriptUrlsOf(page.text).map((u) => new URL(u, `${ORIGIN}${path}`).href);
  const sources = new Map<string, string>();

  while (queue.length > 0) {
    const url = queue.shift()!;
    if (eager.has(url)) continue;
    eager.add(url);
    const asset = await fetchText(url);
    if (asset.status !== 200) throw new Error(`${url} answered ${asset.status}`);
    sources.set(url, asset.text);
    result.jsGz += gzipSize(asset.text);
    for (const spec of importsOf(asset.text, { dynamic: false })) queue.push(new URL(spec, url).href);
  }
  for (const [url, source] of sources) {
    for (const spec of importsOf(source)) {
      const target = new URL(spec, url).href;
      if (target.endsWith(".js") && !eager.has(target)) lazy.add(target);
    }
  }
  for (const url of lazy) {
    const asset = await fetchText(url);
    if (asset.status === 200) result.lazyGz += gzipSize(asset.text);
  }
  result.jsFiles = eager.size;
  return result;
}

function run(command: string, args: string[], label: string) {
  const started = Date.now();
  const out = spawnSync(command, args, { env: ENV, encoding: "utf8" });
  if (out.status !== 0) {
    process.stderr.write(`${out.stdout ?? ""}${out.stderr ?? ""}`);
    throw new Error(`${label} failed (exit ${out.status})`);
  }
  console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The preferred port if nothing listens there, else one the OS hands out: never measure someone else's server. */
function freePort(preferred: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(null));
      probe.listen(port, () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : null));
      });
    });
  return tryListen(preferred).then((port) => port ?? tryListen(0).then((any) => any ?? preferred));
}

async function waitForHealth(server: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const res = await fetch(`${ORIGIN}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${ORIGIN}/healthz did not answer within ${timeoutMs / 1000} s`);
}

/** Ends the server's process group (npx → tsx → node, started detached): SIGTERM, then SIGKILL after 5 s. */
async function stop(server: ChildProcess | undefined) {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
  // npx may exit before its children: make sure nothing of the group is left
  signalGroup("SIGKILL");
}

/** A session cookie for a demo user, through the sign-in API. */
async function signIn(email: string): Promise<string> {
  const res = await fetch(`${ORIGIN}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!res.ok || !cookie) throw new Error(`signing in as ${email} failed (HTTP ${res.status})`);
  return cookie;
}

const kb = (bytes: number) => (bytes / KB).toFixed(1);

/** Why each failing page fails: no answer, an answer other than 200 (redirects included), or over a budget. */
export function failuresOf(results: PageResult[]): string[] {
  const failures: string[] = [];
  for (const r of results) {
    if (r.error) failures.push(`${r.path}: ${r.error}`);
    else if (r.status !== 200) failures.push(`${r.path}: HTTP ${r.status}, not 200`);
    else {
      if (r.htmlGz > HTML_BUDGET_KB * KB) failures.push(`${r.path}: HTML ${kb(r.htmlGz)} KB over ${HTML_BUDGET_KB} KB`);
      if (r.jsGz > JS_BUDGET_KB * KB) failures.push(`${r.path}: JS ${kb(r.jsGz)} KB over ${JS_BUDGET_KB} KB`);
    }
  }
  return failures;
}

export function formatTable(results: PageResult[]): string {
  const header = [
    "page",
    "HTTP",
    `HTML gz KB (budget ${HTML_BUDGET_KB})`,
    `JS gz KB (budget ${JS_BUDGET_KB})`,
    "JS files",
    "lazy JS gz KB",
    "status",
  ];
  const rows = results.map((r) => {
    if (r.error) return [r.path, "-", "-", "-", "-", "-", `ERROR: ${r.error}`];
    const over = [r.htmlGz > HTML_BUDGET_KB * KB ? "HTML" : null, r.jsGz > JS_BUDGET_KB * KB ? "JS" : null].filter(Boolean);
    const verdict = over.length ? `OVER (${over.join(", ")})` : "OK";
    const status =
      r.status === 404
        ? `404 page (route not built yet), ${verdict}`
        : r.status !== 200
          ? `HTTP ${r.status}, ${verdict}`
          : verdict;
    return [r.path, String(r.status), kb(r.htmlGz), kb(r.jsGz), String(r.jsFiles), kb(r.lazyGz), status];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/** Sessions for the demo users of SIGNED_IN_PAGES in the bench database, and the demo order ids. */
async function signedInPages(): Promise<{ path: string; cookie: string }[]> {
  process.env.DATABASE_URL = ENV.DATABASE_URL;
  process.env.SESSION_SECRET = ENV.SESSION_SECRET;
  const { demoPageIds, sessionCookieFor, withDemoIds } = await import("./bench-session");
  const ids = await demoPageIds();
  const out: { path: string; cookie: string }[] = [];
  for (const page of SIGNED_IN_PAGES) out.push({ path: withDemoIds(page.path, ids), cookie: await sessionCookieFor(page.as) });
  return out;
}

/** Measures the pages and prints the table; resolves to the failures. */
async function main(): Promise<string[]> {
  const skipBuild = process.argv.includes("--no-build");
  if (!skipBuild) run("npx", ["remix", "vite:build"], `build into ${BUILD_DIR}/`);

  mkdirSync("tests/.tmp", { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_FILE}${suffix}`, { force: true });
  run("npx", ["tsx", "db/seed.ts"], `seed ${DB_FILE}`);

  const port = await freePort(PREFERRED_PORT);
  if (port !== PREFERRED_PORT) console.log(`port ${PREFERRED_PORT} is busy; serving on ${port}`);
  ENV.PORT = String(port);
  ORIGIN = `http://localhost:${port}`;

  let server: ChildProcess | undefined;
  const onSignal = () => void stop(server).then(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    server = spawn("npx", ["tsx", "server/index.ts"], { env: ENV, detached: true, stdio: ["ignore", "ignore", "pipe"] });
    let serverErrors = "";
    server.stderr?.on("data", (chunk: Buffer) => (serverErrors = (serverErrors + chunk.toString()).slice(-4000)));
    await waitForHealth(server).catch((error: Error) => {
      throw new Error(`${error.message}\n${serverErrors}`);
    });

    const requested = process.argv.slice(2).filter((arg) => arg.startsWith("/"));
    const as = process.argv.find((arg) => arg.startsWith("--as="))?.slice("--as=".length);
    const signedIn = as ? await signIn(as) : undefined;
    const plan: Array<{ path: string; cookie?: string }> =
      requested.length > 0 ? requested.map((path) => ({ path, cookie: signedIn })) : PAGES.map((path) => ({ path }));
    const results: PageResult[] = [];
    for (const { path, cookie } of plan) {
      try {
        results.push({ ...(await measurePage(path, cookie)), path: cookie ? `${path} (signed in)` : path });
      } catch (error) {
        results.push({ path, status: 0, htmlGz: 0, jsGz: 0, jsFiles: 0, lazyGz: 0, error: (error as Error).message });
      }
    }
    if (requested.length === 0) {
      for (const signedIn of await signedInPages()) {
        try {
          results.push({ ...(await measurePage(signedIn.path, signedIn.cookie)), path: `${signedIn.path} (signed in)` });
        } catch (error) {
          const path = signedIn.path;
          results.push({ path, status: 0, htmlGz: 0, jsGz: 0, jsFiles: 0, lazyGz: 0, error: (error as Error).message });
        }
      }
    }
    console.log(`\nPage budgets (gzip level 6, 1 KB = ${KB} bytes; lazy JS is loaded only on demand and is not counted):\n`);
    console.log(formatTable(results));
    return failuresOf(results);
  } finally {
    await stop(server);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    (failures) => {
      if (failures.length === 0) process.exit(0);
      console.error(`\nbench:pages failed:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
      process.exit(1);
    },
    (error: Error) => {
      console.error(`bench:pages could not measure: ${error.message}`);
      process.exit(1);
    },
  );
}
