// Serves the minimal Remix app's production build with Express and Remix's Express adapter,
// compression on as the site's server has it (autocannon asks for no encoding, so none is applied).
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const buildDir = resolve(process.env.BENCH_MINIMAL_BUILD_DIR || "build-bench-minimal");
const build = (await import(pathToFileURL(`${buildDir}/server/index.js`).href)) as ServerBuild;
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build, mode: "production" }));
const port = Number(process.env.PORT || 3298);
app.listen(port, "127.0.0.1", () => console.log(`minimal Remix page at http://127.0.0.1:${port}/`));
