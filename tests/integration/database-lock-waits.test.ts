// Waiting for another connection's write lock never blocks the event loop (decision 031): a write waits
// without blocking and commits once the lock is released.
import { createClient, type Client } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { users } from "../../db/schema";
import { getDb, unlessWriteLocked, WriteLockWatch, type Database } from "../../app/utils/db.server";
import { createTestUser } from "../setup/requests";

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
