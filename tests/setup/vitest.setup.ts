// Runs before each test file: a test environment, a fresh copy of the migrated database, the one
// msw server, and the rule that a test fails when it logs console.error without expecting it.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, inject, vi } from "vitest";
import { listen, server } from "./msw";

process.env.SESSION_SECRET ??= "test-session-secret";
const runDir = inject("testRunDir");
mkdirSync(runDir, { recursive: true });
const file = `${runDir}/test-${process.pid}-${randomBytes(4).toString("hex")}.db`;
copyFileSync(`${runDir}/template.db`, file);
process.env.DATABASE_URL = `file:${file}`;
// files the code under test stores go beside the database copy, never into data/ (tests/setup/uploads.ts)
const uploads = `${file}-uploads`;
process.env.UPLOADS_DIR = uploads;

beforeAll(() => listen());
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

// A test that expects an error to be logged says so: vi.spyOn(console, "error").mockImplementation(() => {}).
const unexpectedErrors: unknown[][] = [];
beforeEach(() => {
  unexpectedErrors.length = 0;
  const original = console.error;
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    unexpectedErrors.push(args);
    original(...args);
  });
});
afterEach(() => {
  const logged = unexpectedErrors.splice(0);
  vi.mocked(console.error).mockRestore?.();
  if (logged.length > 0) {
    throw new Error(
      `The test logged console.error ${logged.length} time(s) without expecting it; mock console.error in the test if it is expected.`,
    );
  }
});
