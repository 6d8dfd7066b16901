// readRows: the reads every page runs, on the database file's own connection for reads (app/utils/db.server.ts).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { getClient, getDb } from "../../app/utils/db.server";
import { readRows } from "../../app/utils/read-rows.server";
import { getSessionUser } from "../../app/utils/session.server";
import { createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

describe("reads on the file's own connection", () => {
  it("read the session's user as the users table gives it, every column decoded", async () => {
    const user = await createTestUser({ userType: "both", firstName: "Zoë" });
    const db = await getDb();
    await db
      .update(users)
      .set({ isAdmin: true, newsletterSubscribed: true, emailOff: ["message", "payout"], zipCode: "80537" })
      .where(eq(users.id, user.id));
    const [stored] = await db.select().from(users).where(eq(users.id, user.id));
    const read = await getSessionUser(getRequest("/", await sessionCookieFor(user.id)));
    expect(read).toEqual(stored);
    expect(read!.createdAt).toBeInstanceOf(Date);
    expect(read!.emailOff).toEqual(["message", "payout"]);
    expect(read!.isAdmin).toBe(true);
  });

  it("see what the client committed just before, and no expired session", async () => {
    const user = await createTestUser();
    const client = await getClient();
    await client.execute({
      sql: "INSERT INTO sessions (id, user_id, expires_at) VALUES ('read-rows-expired', ?, ?), ('read-rows-live', ?, ?)",
      args: [user.id, Date.now() - 1000, user.id, Date.now() + 60_000],
    });
    const count = async (id: string) =>
      (await readRows({ sql: "SELECT count(*) AS n FROM sessions WHERE id = ? AND expires_at > ?", args: [id, Date.now()] }))[0]!
        .n;
    expect(await count("read-rows-live")).toBe(1);
    expect(await count("read-rows-expired")).toBe(0);
    await client.execute("DELETE FROM sessions WHERE id = 'read-rows-live'");
    expect(await count("read-rows-live")).toBe(0);
  });

  it("write nothing, and open afresh after their connection was closed", async () => {
    const user = await createTestUser();
    await expect(readRows({ sql: "DELETE FROM users WHERE id = ?", args: [user.id] })).rejects.toThrow();
    const reader = globalThis.__printnearReader!;
    expect(reader.connection?.open).toBe(true);
    reader.connection!.close();
    const [row] = await readRows({ sql: "SELECT id, email FROM users WHERE id = ?", args: [user.id] });
    expect(row).toEqual({ id: user.id, email: user.email });
    expect(reader.connection?.open).toBe(true);
  });
});
