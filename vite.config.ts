import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
// The Remix options live in remix.config.js (their one home); this file only wires Vite.
import remixConfig from "./remix.config.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const { ignoredRouteFiles: _ignored, ...pluginOptions } = remixConfig;

export default defineConfig({
  server: { port: 3000 },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: { target: "es2022" },
  plugins: [tailwindcss(), remix(pluginOptions)],
});
