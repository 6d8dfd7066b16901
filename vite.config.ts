import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type Plugin } from "vite";
// The Remix options live in remix.config.js (their one home); this file only wires Vite.
import remixConfig from "./remix.config.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const { ignoredRouteFiles: _ignored, ...pluginOptions } = remixConfig;

/**
 * The service worker's cache version is the client build's: each build whose assets changed
 * ships a different sw.js, so browsers install it and its activate step drops the caches of the
 * build before (their hashed assets would otherwise pile up under one version for ever).
 */
function serviceWorkerVersion(): Plugin {
  let outDir = "";
  let version = "";
  return {
    name: "printnear-sw-version",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      version = createHash("sha256").update(Object.keys(bundle).sort().join("\n")).digest("hex").slice(0, 12);
    },
    closeBundle() {
      const file = join(outDir, "sw.js");
      if (!version || !existsSync(file)) return;
      const source = readFileSync(file, "utf8");
      writeFileSync(file, source.replace(/const VERSION = "[^"]*";/, `const VERSION = "${version}";`));
    },
  };
}

export default defineConfig({
  server: { port: 3000 },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: { target: "es2022" },
  plugins: [tailwindcss(), remix(pluginOptions), serviceWorkerVersion()],
});
