import { defineConfig } from "vitest/config";

// Vitest runs without the Remix Vite plugin (it only builds routes); tests import modules directly.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
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
