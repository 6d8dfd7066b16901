// libsql 0.5.29 leaves a statement that failed with SQLITE_BUSY in progress, and its connection then cannot
// commit: the server's client gives up a client that met the lock (retiredAfterBusyOnLibsql05, decision 031).
// The first test shows the bug on a plain @libsql/client; once a libsql release fixes it, that test fails:
// then the rule in app/utils/db.server.ts and this file go.
import { createClient } from "@libsql/client";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testUploadsDir } from "../setup/uploads";

const closing: Array<{ close(): void }> = [];
afterEach(() => {
  for (const client of closing.splice(0)) client.close();
});

describe("a statement that met another connection's write lock, on libsql 0.5", () => {
  it("leaves its connection unable to commit: a later write on it is never seen by another connection", async () => {
    const url = `file:${join(testUploadsDir(), "libsql-busy.db")}`;
    const setup = createClient({ url });
    closing.push(setup);
    await setup.execute("PRAGMA journal_mode = WAL");
    await setup.execute("CREATE TABLE t (x INTEGER)");
    const writer = createClient({ url, timeout: 0 });
    closing.push(writer);
    await writer.execute("SELECT 1");

    const holder = await setup.transaction("write");
    await holder.execute("INSERT INTO t VALUES (0)");
    await expect(writer.execute("INSERT INTO t VALUES (1)")).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    await holder.rollback();

    await writer.execute("INSERT INTO t VALUES (2)");
    const reader = createClient({ url });
    closing.push(reader);
    const seen = (await reader.execute("SELECT count(*) AS n FROM t")).rows[0]!.n;
    // 1 once libsql resets a statement whose step fails: remove retiredAfterBusyOnLibsql05 then
    expect(seen).toBe(0);
  });
});
