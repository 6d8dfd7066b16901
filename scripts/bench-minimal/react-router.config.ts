// The minimal React Router 7 app npm run bench:load measures the site against: the same toolchain and
// future flags as the site, one page whose loader returns a constant.
import type { Config } from "@react-router/dev/config";
import { fileURLToPath } from "node:url";
import site from "../../react-router.config";

export default {
  appDirectory: "app",
  // relative to the repository, where the bench's server looks for it
  buildDirectory: fileURLToPath(
    new URL(`../../${process.env.BENCH_MINIMAL_BUILD_DIR || "build-bench-minimal"}`, import.meta.url),
  ),
  ssr: true,
  future: site.future,
} satisfies Config;
