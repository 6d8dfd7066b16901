// Waiting for another connection's write lock never blocks the event loop (decision 031): a write waits
// without blocking and commits once the lock is released; a read that also writes on the side (the health
// check, opening a thread, a visitor's catalogue refresh) answers at once instead of waiting for the lock.
import { createClient, type Client } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { healthChecks, messages, users } from "../../db/schema";
import { loader as healthz } from "../../app/routes/healthz";
import { loader as messagesPage } from "../../app/routes/messages";
import { loader as browseLoader } from "../../app/routes/models._index";
import { resetCatalogueSync } from "../../app/services/catalogue/sync.server";
import { sendJobMessage } from "../../app/services/conversations.server";
import { getDb, unlessWriteLocked, WriteLockWatch, type Database } from "../../app/utils/db.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, getRequest, run, sessionCookieFor } from "../setup/requests";

let holder: Client;
/** Every wait for the lock to be freed. */
let waits: MockInstance<WriteLockWatch["freed"]>;
beforeAll(() => {
  // another connection to the same file, as a script or a second process would hold it
  holder = createClient({ url: process.env.DATABASE_URL! });
});
afterAll(() => holder.close());
beforeEach(() => {
  waits = vi.spyOn(WriteLockWatch.prototype, "freed");
});
afterEach(() => waits.mockRestore());

/** Runs `read` while the other connection holds the write lock, released only after `read` has answered. */
async function whileLocked<T>(read: () => Promise<T>): Promise<T> {
  const lock = await holder.transaction("write");
  try {
    return await read();
  } finally {
    await lock.rollback();
  }
}

async function firstNameSeenByHolder(id: number) {
  const result = await holder.execute({ sql: "SELECT first_name FROM users WHERE id = ?", args: [id] });
  return result.rows[0]?.first_name;
}

const thenWaiting = sql`${users.firstName} || ' then waiting'`;
const WRITES: [string, (db: Database, id: number) => Promise<unknown>][] = [
  ["a statement", (db, id) => db.update(users).set({ firstName: thenWaiting }).where(eq(users.id, id))],
  ["a batch", (db, id) => db.batch([db.update(users).set({ firstName: thenWaiting }).where(eq(users.id, id))])],
  [
    "a transaction",
    (db, id) =>
      db.transaction(async (tx) => {
        await tx.update(users).set({ firstName: thenWaiting }).where(eq(users.id, id));
      }),
  ],
];

describe("a write that meets another connection's write lock", () => {
  it.each(WRITES)("%s waits without blocking the event loop, and commits after the holder's commit", async (_, write) => {
    const user = await createTestUser({ firstName: "Ada" });
    const lock = await holder.transaction("write");
    await lock.execute({ sql: "UPDATE users SET first_name = 'Holder' WHERE id = ?", args: [user.id] });
    // the holder commits on the event loop's next turn: only a wait that leaves the loop free lets it
    setImmediate(() => void lock.commit());
    await write(await getDb(), user.id);
    expect(waits).toHaveBeenCalled();
    // committed after the holder's write: the other connection reads both
    expect(await firstNameSeenByHolder(user.id)).toBe("Holder then waiting");
  });

  it("a connection that met the lock is not used again: the next write commits, and leaves the lock free", async () => {
    const user = await createTestUser({ firstName: "Ada" });
    const db = await getDb();
    const write = (firstName: string) => db.update(users).set({ firstName }).where(eq(users.id, user.id));
    expect(
      await whileLocked(() =>
        unlessWriteLocked(
          () => write("Refused"),
          () => "refused",
        ),
      ),
    ).toBe("refused");
    expect(waits).not.toHaveBeenCalled();

    await write("Written");
    expect(await firstNameSeenByHolder(user.id)).toBe("Written");
    await holder.execute({ sql: "UPDATE users SET last_name = 'Free' WHERE id = ?", args: [user.id] });
  });
});

describe("reads that also write on the side answer at once while another connection holds the write lock", () => {
  it("/healthz answers 200 without writing: the database answers, and writes wait their turn", async () => {
    expect((await healthz()).status).toBe(200);
    const db = await getDb();
    const [before] = await db.select().from(healthChecks);

    expect((await whileLocked(() => healthz())).status).toBe(200);
    expect(waits).not.toHaveBeenCalled();
    expect(await db.select().from(healthChecks)).toEqual([before]);
  });

  it("opening a thread shows its messages and leaves them unread until the next visit", async () => {
    const customer = await createTestUser({ firstName: "Casey" });
    const owner = await createTestUser({ firstName: "Olive" });
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer.id, "confirmed", "gear.stl");
    await sendJobMessage({ jobId: job.id, senderId: owner.id, content: "Starting tonight" });
    const cookie = await sessionCookieFor(customer.id);
    const open = () => run(() => messagesPage(args(getRequest(`/messages?jobId=${job.id}`, cookie))));
    const db = await getDb();
    const readAt = async () =>
      (await db.select({ readAt: messages.readAt }).from(messages).where(eq(messages.jobId, job.id)))[0].readAt;

    const page = await whileLocked(open);
    expect(waits).not.toHaveBeenCalled();
    expect(page.status).toBe(200);
    expect(JSON.stringify(await page.json())).toContain("Starting tonight");
    expect(await readAt()).toBeNull();

    await open();
    expect(await readAt()).not.toBeNull();
  });

  it("a visitor's model listing serves the stored models without refreshing them, and no notice", async () => {
    vi.stubEnv("THINGIVERSE_TOKEN", "mock-token");
    vi.stubEnv("MOCKS", "true");
    resetCatalogueSync();
    const visit = () =>
      browseLoader(args(new Request("http://localhost:3000/models?q=dragon", { headers: { [CLIENT_IP_HEADER]: "192.0.2.8" } })));
    try {
      const page = await whileLocked(visit);
      expect(waits).not.toHaveBeenCalled();
      expect(page.catalogueUnavailable).toBe(false);
      expect(page.models).toEqual([]);
      // once the lock is gone the same visit refreshes from the site
      expect((await visit()).models.length).toBeGreaterThan(0);
    } finally {
      vi.unstubAllEnvs();
      resetCatalogueSync();
    }
  });
});
