// Faults of the database's files are answered, never crashed on: a full database (SQLITE_FULL), a -shm cut
// under the live mapping, a -shm or -wal that cannot be written, and a read-only connection answer 503 with
// Retry-After through the whole request path (pages, API, sign-in), and the server recovers once they clear.
import { execFileSync } from "node:child_process";
import { rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as apiLogin from "../../app/routes/api.login";
import * as apiRegister from "../../app/routes/api.register";
import * as authPage from "../../app/routes/auth";
import * as healthz from "../../app/routes/healthz";
import { forgetDatabaseFilesChecks } from "../../app/utils/database-files.server";
import { getClient } from "../../app/utils/db.server";
import { getHoneypot } from "../../app/utils/honeypot.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { requestState } from "../../app/utils/request-state";
import { busyAnswer } from "../../server/remix-handler";
import { appRouter } from "../setup/app-router";
import { createTestUser, formRequest, getRequest, jsonRequest } from "../setup/requests";

const handle = appRouter({
  "routes/api.login": apiLogin,
  "routes/api.register": apiRegister,
  "routes/auth": authPage,
  "routes/healthz": healthz,
});
const PASSWORD = "correct horse battery";
const CLIENT = "9.9.9.9";
const databaseFile = process.env.DATABASE_URL!.slice("file:".length);

/** Answers a request as server/remix-handler.ts does: Remix with the request's state, then the 503 it maps. */
async function answer(request: Request): Promise<Response> {
  request.headers.set(CLIENT_IP_HEADER, CLIENT);
  const state = requestState();
  const response = await handle(request, { requestState: state });
  return busyAnswer(new URL(request.url).pathname, response, state) ?? response;
}

const signInPage = (email: string) =>
  answer(
    formRequest("/auth", {
      [getHoneypot().getInputProps().nameFieldName]: "",
      intent: "signin",
      email,
      password: PASSWORD,
    }),
  );
const signInApi = (email: string) => answer(jsonRequest("/api/login", { email, password: PASSWORD }));
let registered = 0;
const registerApi = () =>
  answer(
    jsonRequest("/api/register", {
      username: `faulty_${++registered}`,
      email: `faulty-${registered}@example.test`,
      password: PASSWORD,
    }),
  );

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

/** The three writes every fault is tried on; each answers 503 with Retry-After (the API with its JSON message). */
async function expectAllUnavailable(email: string) {
  const page = await signInPage(email);
  await expectUnavailable(page);
  const login = await signInApi(email);
  await expectUnavailable(login);
  expect(await login.json()).toEqual({ message: "The site is busy right now. Please try again in a few seconds." });
  await expectUnavailable(await registerApi());
}

/** The same three writes succeed: the server recovered without a restart. */
async function expectAllAnswered(email: string) {
  const page = await signInPage(email);
  expect(page.status).toBe(302);
  expect(page.headers.get("set-cookie")).toContain("=");
  expect((await signInApi(email)).status).toBe(200);
  expect((await registerApi()).status).toBe(201);
}

/** Runs `work` with the warnings and errors a fault logs silenced; returns what was logged. */
async function quietly(work: () => Promise<void>): Promise<string> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await work();
    return [...warn.mock.calls, ...error.mock.calls].map((call) => call.join(" ")).join("\n");
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

describe("a full database (SQLITE_FULL)", () => {
  it("answers sign-in on the page and the API, and a sign-up, with 503 and Retry-After; writes again once there is room", async () => {
    const user = await createTestUser();
    const client = await getClient();
    // SQLite's own limit, on the server's connection: no page beyond those the file has now
    const pages = Number((await client.execute("PRAGMA page_count")).rows[0]![0]);
    await client.execute(`PRAGMA max_page_count = ${pages}`);
    // rate-limit rows like the sign-in's own, sorted before it, until no page has room for one more
    for (let batch = 1000, next = 0; batch >= 1;) {
      try {
        await client.execute({
          sql: `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                INSERT INTO rate_limits (key, count, window_start) SELECT printf('login:ip:0%06d', i), 1, ?3 FROM n`,
          args: [next, next + batch - 1, Date.now()],
        });
        next += batch;
      } catch (error) {
        expect(error).toMatchObject({ code: "SQLITE_FULL" });
        batch = Math.floor(batch / 10);
      }
    }

    const logged = await quietly(() => expectAllUnavailable(user.email));
    expect(logged).toContain("SQLITE_FULL");

    await client.execute("PRAGMA max_page_count = 1073741823");
    await client.execute("DELETE FROM rate_limits WHERE key LIKE 'login:ip:0%'");
    await expectAllAnswered(user.email);
  }, 60_000);
});

describe("a -shm cut shorter than the process maps it", () => {
  it("is written back before anything touches it: the process lives, and nothing committed is lost", async () => {
    const user = await createTestUser();
    expect((await healthzAnswer()).status).toBe(200);
    const shm = `${databaseFile}-shm`;
    const mapped = statSync(shm).size;
    truncateSync(shm, 0);
    forgetDatabaseFilesChecks();

    // without the check the next statement dies of SIGBUS, and this test file with it
    const logged = await quietly(async () => expect((await signInApi(user.email)).status).toBe(200));
    expect(logged).toContain("-shm was cut to 0");
    expect(statSync(shm).size).toBeGreaterThanOrEqual(mapped);
    await expectAllAnswered(user.email);
  });
});

const healthzAnswer = () => answer(getRequest("/healthz"));

/** chattr +i stops root too; some filesystems (and unprivileged runs) do not offer it. */
function immutableFlagWorks(): boolean {
  const probe = `${databaseFile}-immutable-probe`;
  writeFileSync(probe, "");
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}
const canMakeUnwritable = immutableFlagWorks();
const immutable = (on: boolean, file: string) => execFileSync("chattr", [on ? "+i" : "-i", file], { stdio: "ignore" });

describe("a -shm or -wal that cannot be written", () => {
  afterEach(() => {
    if (!canMakeUnwritable) return;
    for (const suffix of ["-shm", "-wal"]) {
      try {
        immutable(false, `${databaseFile}${suffix}`);
      } catch {
        // not there
      }
    }
  });

  it.skipIf(!canMakeUnwritable).each(["-shm", "-wal"])(
    "%s: answers 503 with Retry-After, the process lives, and writes resume once it is writable (skipped where chattr +i is refused)",
    async (suffix) => {
      const user = await createTestUser();
      expect((await healthzAnswer()).status).toBe(200);
      immutable(true, `${databaseFile}${suffix}`);
      forgetDatabaseFilesChecks();

      const logged = await quietly(async () => {
        await expectAllUnavailable(user.email);
        expect((await healthzAnswer()).status).toBe(503);
      });
      expect(logged).toContain(`${suffix} cannot be written`);

      immutable(false, `${databaseFile}${suffix}`);
      forgetDatabaseFilesChecks();
      await quietly(() => expectAllAnswered(user.email));
      expect((await healthzAnswer()).status).toBe(200);
    },
  );
});

describe("a read-only connection", () => {
  it("answers 503 with Retry-After, and the next write goes through on a fresh connection", async () => {
    const user = await createTestUser();
    await (await getClient()).execute("PRAGMA query_only = ON");
    const logged = await quietly(async () => await expectUnavailable(await signInApi(user.email)));
    expect(logged).toContain("cannot write now");
    await expectAllAnswered(user.email);
  });
});
