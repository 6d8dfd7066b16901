// The HTTP server: applies pending migrations, then serves the Remix app (Vite middleware in
// development, the built app in production) behind compression, security headers, the arrival
// rules for slow clients and the cross-site post check. MOCKS=true answers third-party HTTP with the msw handlers.
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { migrateDatabase } from "../db/migrate";
import { isCrossSiteRequest } from "../app/utils/origin";
import { installLogRedaction } from "../app/utils/log-redaction";
import { CATALOGUE_IMAGE_SOURCES } from "../app/services/catalogue/index.server";
import { mapTileUrl } from "../app/services/printers/search.server";
import { describeStorage, storageConfig } from "../app/services/storage/config.server";
import { sweepScratch } from "../app/services/storage/scratch.server";
import { setClientAddress } from "./client-address";
import { publicHost, remixHandler } from "./remix-handler";
import { installSharedLoaderRequests } from "./loader-requests";
import { installCachedRouteMatching } from "./route-matching";
import { ARRIVAL_RULES, ArrivalGuard, httpServerOptions } from "./request-arrival";
import { contentSecurityPolicy, newNonce, SECURITY_HEADERS } from "./security-headers";
import { onlyFilePaths } from "./static-files";

// errors written by the server and its libraries lose SQL parameters, query strings, hashes and e-mails
installLogRedaction();

// a half-set bucket configuration stops the start here, naming what is missing
console.log(describeStorage(storageConfig()));

const isDevelopment = process.env.NODE_ENV !== "production";

// the route table is flattened, ranked and compiled once, not on each of Remix's matches per request
installCachedRouteMatching({ modulesFixed: !isDevelopment });
installSharedLoaderRequests();

const port = Number(process.env.PORT || 3000);
const buildDir = resolve(process.env.REMIX_BUILD_DIR || "build");

if (process.env.MOCKS === "true") {
  const { startMockServer } = await import("../tests/mocks/index");
  startMockServer();
  console.log("Mock mode: third-party services are answered by built-in msw mocks (no real calls).");
}

// uploads a crash or a cut left in scratch are removed first: a disk they filled lets the migrations write again
const swept = await sweepScratch(storageConfig().scratchDirectory);
if (swept > 0) console.log(`Removed ${swept} leftover upload scratch file(s).`);

const migrationClient = await migrateDatabase();
migrationClient.close();

const viteDevServer = isDevelopment
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

const app = express();
app.disable("x-powered-by");
// live streams (text/event-stream) must reach the browser as they are written, never buffered
app.use(
  compression({
    filter: (req, res) =>
      !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
  }),
);

// Security headers; the page's inline scripts carry this request's nonce (res.locals.cspNonce, given to Remix)
app.use((req, res, next) => {
  const nonce = newNonce();
  res.locals.cspNonce = nonce;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  const policy = contentSecurityPolicy({
    nonce,
    path: req.path,
    tileUrl: mapTileUrl(),
    catalogueImageSources: CATALOGUE_IMAGE_SOURCES,
  });
  // Vite's development client injects scripts of its own: there the policy only reports
  res.setHeader(isDevelopment ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy", policy);
  if (!isDevelopment) res.setHeader("Strict-Transport-Security", "max-age=31536000");
  next();
});

app.use(setClientAddress);
// a body must keep arriving, and one address or the machine holds only so many still arriving
app.use(new ArrivalGuard(ARRIVAL_RULES).middleware);

// Page and API writes from another site are refused: cookies are SameSite=Lax, and this closes the rest.
app.use((req, res, next) => {
  const method = req.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  if (req.path.startsWith("/api/webhooks/")) return next();
  const host = publicHost(req);
  if (isCrossSiteRequest({ origin: req.get("origin"), secFetchSite: req.get("sec-fetch-site"), host })) {
    res
      .status(403)
      .type("application/json")
      .send(JSON.stringify({ message: "Cross-site requests are not allowed." }));
    return;
  }
  next();
});

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y" }));
  app.use(onlyFilePaths(express.static(`${buildDir}/client`, { maxAge: "1h" })));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : ((await import(pathToFileURL(`${buildDir}/server/index.js`).href)) as ServerBuild);

// every request body is counted and cut at its route's limit as it streams (server/request-body.ts)
app.all("*", remixHandler(build, isDevelopment ? "development" : "production"));

// the durable job runner (imports, weight caching, mail, newsletters); WORKER=off: web only
const worker = (await import("../app/services/jobs/start.server")).startBackgroundWorker();
if (worker) console.log(`Background worker ${worker.workerId} started.`);

// headers and whole requests are timed by Node itself (server/request-arrival.ts)
const server = createServer(httpServerOptions(ARRIVAL_RULES), app).listen(port, async () => {
  console.log(`Printnear is running at http://localhost:${port}`);
  if (process.env.MOCKS === "true") console.log((await import("../db/demo-accounts")).demoLoginsText());
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    // running tasks get a moment to finish; the rest go back to the queue for the next start
    const stopped = worker ? worker.stop(Number(process.env.WORKER_STOP_GRACE_MS || 5000)) : Promise.resolve();
    const closed = new Promise((resolve) => server.close(resolve));
    void Promise.allSettled([stopped, closed]).then(() => process.exit(0));
  });
}
