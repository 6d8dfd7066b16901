// The database recovers from a stuck read-only or broken connection, /healthz proves a write
// commits, and a held write lock or a read-only database answers 503 with Retry-After instead of 500.
import { createClient } from "@libsql/client";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { healthChecks, users } from "../../db/schema";
import { loader as healthz } from "../../app/routes/healthz";
import { handleError } from "../../app/entry.server";
import { action as registerAction } from "../../app/routes/api.register";
import { getClient, getDb, isBusyError, sqliteCodesOf } from "../../app/utils/db.server";
import { requestState } from "../../app/utils/request-state";
import { busyAnswer } from "../../server/remix-handler";
import { args, createTestUser, jsonRequest } from "../setup/requests";

describe("a connection stuck read-only", () => {
  it("fails the write that meets it, then writes again on a fresh connection; /healthz says so", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const client = await getClient();
    // the connection turns read-only, as after a brief read-only period of the file
    await client.execute("PRAGMA query_only = ON");
    await expect(db.update(users).set({ firstName: "Blocked" }).where(eq(users.id, user.id))).rejects.toMatchObject({
      cause: { code: expect.stringMatching(/^SQLITE_READONLY/) },
    });

    // no restart: the next write goes through
    await db.update(users).set({ firstName: "Recovered" }).where(eq(users.id, user.id));
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row.firstName).toBe("Recovered");

    // the health check sees the read-only connection (a SELECT 1 would not), and the next one sees it recovered
    await client.execute("PRAGMA query_only = ON");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await healthz()).status).toBe(503);
    errors.mockRestore();
    expect((await healthz()).status).toBe(200);
  });

  it("/healthz commits a write that another connection can read", async () => {
    const before = Date.now();
    expect((await healthz()).status).toBe(200);
    const other = createClient({ url: process.env.DATABASE_URL! });
    const result = await other.execute("SELECT checked_at FROM health_checks WHERE id = 1");
    other.close();
    expect(Number(result.rows[0].checked_at)).toBeGreaterThanOrEqual(before);
    const db = await getDb();
    expect(await db.select().from(healthChecks)).toHaveLength(1);
  });
});

describe("a held write lock", () => {
  it("answers 503 with Retry-After (API: JSON message; pages: the error page), not 500", async () => {
    const user = await createTestUser();
    const holder = createClient({ url: process.env.DATABASE_URL! });
    await holder.execute("PRAGMA busy_timeout = 0");
    const lock = await holder.transaction("write");
    await lock.execute({ sql: "UPDATE users SET first_name = 'Holder' WHERE id = ?", args: [user.id] });
    let failure: unknown;
    try {
      const db = await getDb();
      await db.update(users).set({ firstName: "Waiting" }).where(eq(users.id, user.id));
    } catch (error) {
      failure = error;
    } finally {
      await lock.rollback();
      holder.close();
    }
    expect(isBusyError(failure)).toBe(true);

    // the route's unhandled error reaches Remix's handleError, which marks the request as busy
    const context = { requestState: requestState() };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(failure, { request: new Request("http://localhost/models/library/1"), context });
    errors.mockRestore();
    expect(context.requestState.databaseBusy).toBe(true);

    const api = await busyAnswer(
      "/api/models/1/comments",
      new Response("Unexpected Server Error", { status: 500 }),
      context.requestState,
    )!;
    expect(api.status).toBe(503);
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await api.json()).toEqual({ message: "The site is busy right now. Please try again in a few seconds." });

    const page = busyAnswer("/models/library/1", new Response("<html>error page</html>", { status: 500 }), context.requestState)!;
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBeTruthy();
    expect(await page.text()).toBe("<html>error page</html>");

    // a request that did not meet a busy database keeps its answer
    expect(busyAnswer("/models/library/1", new Response("x", { status: 500 }), requestState())).toBeNull();
  }, 30_000);
});

describe("a read-only database", () => {
  it("answers a write with 503 and Retry-After, not 500", async () => {
    const client = await getClient();
    // the connection turns read-only, as a file opened read-only (permissions, a read-only volume) does
    await client.execute("PRAGMA query_only = ON");
    const request = jsonRequest("/api/register", {
      username: "read_only",
      email: "read-only@example.test",
      password: "read-only-pass-1",
    });
    const failure = await registerAction(args(request)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(sqliteCodesOf(failure)).toContain("SQLITE_READONLY");

    const context = { requestState: requestState() };
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    handleError(failure, { request, context });
    warnings.mockRestore();
    expect(context.requestState.databaseBusy).toBe(true);
    const answer = busyAnswer("/api/register", new Response("Unexpected Server Error", { status: 500 }), context.requestState)!;
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await answer.json()).toEqual({ message: "The site is busy right now. Please try again in a few seconds." });
  });
});
