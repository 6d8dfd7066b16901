import type { Config } from "@react-router/dev/config";

// The one home of the framework's options. Every future flag of React Router 7 is on (docs/decisions/041-react-router-7.md).
export default {
  appDirectory: "app",
  // BUILD_DIR lets parallel test runs build side by side; `build` otherwise
  buildDirectory: process.env.BUILD_DIR || "build",
  ssr: true,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
