import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type Plugin } from "vite";
// The framework's options live in react-router.config.ts (their one home); this file only wires Vite.

/**
 * The service worker's cache version is the client build's: each build whose assets changed
 * ships a different sw.js, so browsers install it and its activate step drops the caches of the
 * build before (their hashed assets would otherwise pile up under one version for ever).
 */
function serviceWorkerVersion(): Plugin {
  let outDir = "";
  let version = "";
  // the framework builds the browser's and the server's bundles as two environments: only the browser's counts
  const isClient = (environment: { name: string } | undefined) => !environment || environment.name === "client";
  return {
    name: "printnear-sw-version",
    apply: "build",
    generateBundle(_options, bundle) {
      if (!isClient(this.environment)) return;
      outDir = this.environment.config.build.outDir;
      version = createHash("sha256").update(Object.keys(bundle).sort().join("\n")).digest("hex").slice(0, 12);
    },
    closeBundle() {
      if (!isClient(this.environment)) return;
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
  plugins: [tailwindcss(), reactRouter(), serviceWorkerVersion()],
});
