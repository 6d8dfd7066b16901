import { defineConfig } from "vitest/config";

// Vitest runs without the React Router Vite plugin (it only builds routes); tests import modules directly.
export default defineConfig({
  resolve: {
    alias: [
      { find: "~", replacement: new URL("./app", import.meta.url).pathname },
      // a stylesheet imported by its address gets one, as in the build: a page's <link href> is never empty
      { find: /^.*\.css\?url$/, replacement: new URL("./tests/setup/stylesheet-url.ts", import.meta.url).pathname },
    ],
  },
  test: {
    include: [
      "app/**/*.test.ts",
      "app/**/*.test.tsx",
      "db/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/unit/**/*.test.ts",
    ],
    globalSetup: ["./tests/setup/global-setup.ts"],
    setupFiles: ["./tests/setup/vitest.setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
  },
});
