// @ts-check
// The one home of the Remix options. vite.config.ts imports this file and hands it to the
// Remix Vite plugin; app/routes.ts reads ignoredRouteFiles from it.

/** @type {import("@remix-run/dev").VitePluginConfig & { ignoredRouteFiles: string[] }} */
const remixConfig = {
  // REMIX_BUILD_DIR lets parallel test runs build side by side; `build` otherwise
  buildDirectory: process.env.REMIX_BUILD_DIR || "build",
  ignoredRouteFiles: ["**/.*", "**/*.test.ts", "**/*.test.tsx", "**/*.server.ts"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};

export default remixConfig;
