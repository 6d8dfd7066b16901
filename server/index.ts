// The HTTP server: applies pending migrations, then serves the Remix app (Vite middleware in
// development, the built app in production) behind compression, security headers and the
// cross-site post check. MOCKS=true answers third-party HTTP with the msw handlers.
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { migrateDatabase } from "../db/migrate";
import { isCrossSiteRequest } from "../app/utils/origin";
import { CLIENT_IP_HEADER } from "../app/utils/rate-limit.server";

/** a 50 MB design plus its settings; the streaming parsers enforce the exact file limit */
const MAX_MULTIPART_BYTES = 60 * 1024 * 1024;
const MAX_FORM_BYTES = 256 * 1024;

const isDevelopment = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT || 3000);
const buildDir = resolve(process.env.REMIX_BUILD_DIR || "build");

if (process.env.MOCKS === "true") {
  const { startMockServer } = await import("../tests/mocks/index");
  startMockServer();
  console.log("Mock mode: third-party services are answered by built-in msw mocks (no real calls).");
}

const migrationClient = await migrateDatabase();
migrationClient.close();

const viteDevServer = isDevelopment
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

const app = express();
app.disable("x-powered-by");
app.use(compression());

app.use((req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  // map tiles are fetched from the tile server with our origin as referrer, as its policy asks
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  if (!isDevelopment) res.setHeader("Strict-Transport-Security", "max-age=31536000");
  next();
});

// The client's address for rate limits: a proxy's header only when we know a proxy sets it (TRUST_PROXY=fly).
app.use((req, _res, next) => {
  const fromProxy = process.env.TRUST_PROXY === "fly" ? req.get("fly-client-ip") : undefined;
  req.headers[CLIENT_IP_HEADER] = (fromProxy ?? req.socket.remoteAddress ?? "unknown").trim();
  next();
});

// Bodies are bounded before anything reads them: uploads by their parsers, everything else here.
app.use((req, res, next) => {
  const method = req.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const multipart = /^multipart\/form-data/i.test(req.get("content-type") ?? "");
  const max = multipart ? MAX_MULTIPART_BYTES : MAX_FORM_BYTES;
  const declared = req.get("content-length");
  if (declared === undefined && !multipart && req.get("transfer-encoding")) {
    res.status(411).json({ message: "Send a Content-Length with the request." });
    return;
  }
  if (declared !== undefined && Number(declared) > max) {
    res.status(413).json({ message: multipart ? "File size exceeds 50MB limit" : "Request body too large." });
    return;
  }
  next();
});

// Page and API writes from another site are refused: cookies are SameSite=Lax, and this closes the rest.
app.use((req, res, next) => {
  const method = req.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  if (req.path.startsWith("/api/webhooks/")) return next();
  const host = (req.get("x-forwarded-host") ?? req.get("host") ?? "").split(",")[0].trim();
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
  app.use(express.static(`${buildDir}/client`, { maxAge: "1h" }));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : ((await import(pathToFileURL(`${buildDir}/server/index.js`).href)) as ServerBuild);

app.all("*", createRequestHandler({ build, mode: isDevelopment ? "development" : "production" }));

const server = app.listen(port, async () => {
  console.log(`Printnear is running at http://localhost:${port}`);
  if (process.env.MOCKS === "true") console.log((await import("../db/demo-accounts")).demoLoginsText());
  // paid orders whose card hold would lapse are cancelled and released; state lives in the database, so restarts lose nothing
  (await import("../app/services/orders/authorisation-sweep.server")).startAuthorisationSweep();
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
