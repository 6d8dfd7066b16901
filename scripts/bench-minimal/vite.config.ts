// The minimal Remix 2 app npm run bench:load measures the site against: the same toolchain and
// future flags as the site, one page whose loader returns a constant.
import { vitePlugin as remix } from "@remix-run/dev";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import remixConfig from "../../remix.config.js";

export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  plugins: [
    remix({
      appDirectory: "app",
      // relative to the repository, where the bench's server looks for it
      buildDirectory: fileURLToPath(
        new URL(`../../${process.env.BENCH_MINIMAL_BUILD_DIR || "build-bench-minimal"}`, import.meta.url),
      ),
      future: remixConfig.future,
    }),
  ],
});
