import { defineConfig, devices } from "@playwright/test";

// End-to-end tests drive the built server in Debian's Chromium, twice: JavaScript on and off. A test that
// uses no browser (requests only, or servers of its own) ends its title with @no-browser and runs once.
const PORT = Number(process.env.E2E_PORT || 3005);
export const E2E_DB = process.env.E2E_DB || "tests/.tmp/e2e.db";
process.env.DATABASE_URL = `file:${E2E_DB}`;
process.env.SESSION_SECRET = "e2e-session-secret";
// tests that store files directly must write where the server reads
process.env.UPLOADS_DIR = `${E2E_DB}-uploads`;

const NO_BROWSER = /@no-browser/;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "off",
    launchOptions: chromium,
  },
  projects: [
    { name: "js", grepInvert: NO_BROWSER, use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    {
      name: "no-js",
      grepInvert: NO_BROWSER,
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions: chromium },
    },
    { name: "no-browser", grep: NO_BROWSER },
  ],
  webServer: {
    command: `rm -rf ${E2E_DB} ${E2E_DB}-wal ${E2E_DB}-shm ${E2E_DB}-uploads ${E2E_DB}-outbox && npx tsx db/seed.ts > /dev/null && NODE_ENV=production MOCKS=true PORT=${PORT} npx tsx server/index.ts`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      DATABASE_URL: `file:${E2E_DB}`,
      SESSION_SECRET: "e2e-session-secret",
      // as npm run demo: mock mode without a catalogue token, the adapter answering from the msw mocks
      UPLOADS_DIR: `${E2E_DB}-uploads`,
      // mail without an SMTP server goes to .eml files beside the test database, not into data/
      MAIL_OUTBOX_DIR: `${E2E_DB}-outbox`,
    },
  },
});
