// The server's connections reuse a prepared statement for the same SQL text (decision 036): answers stay
// those of a fresh statement, a finished read holds no snapshot, and a statement that failed is never reused.
import { createClient, type Client } from "@libsql/client";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getClient, getDb } from "../../app/utils/db.server";

interface Statement {
  raw(on?: boolean): Statement;
  safeIntegers(on?: boolean): Statement;
  all(...args: unknown[]): unknown[][];
  run(...args: unknown[]): unknown;
}
interface Connection {
  prepare(sql: string): Statement;
  close(): void;
}

let other: Client;
let connection: Connection;
beforeAll(async () => {
  await getDb();
  // a connection of the binding the server's client opens its file with (patched once the server's client is open)
  const clientEntry = createRequire(import.meta.url).resolve("@libsql/client");
  const Binding = createRequire(clientEntry)("libsql") as new (path: string) => Connection;
  const path = process.env.DATABASE_URL!.slice("file:".length);
  connection = new Binding(path);
  other = createClient({ url: process.env.DATABASE_URL! });
  await other.execute("CREATE TABLE IF NOT EXISTS statement_probe (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)");
});
afterAll(() => {
  other.close();
  connection.close();
});

describe("prepared statements kept per connection", () => {
  it("reuses the statement of a text, each run with its own arguments", () => {
    const sql = "SELECT ? * 2";
    const first = connection.prepare(sql);
    expect(connection.prepare(sql)).toBe(first);
    for (const n of [1, 2, 3, 50]) expect(connection.prepare(sql).raw(true).all(n)).toEqual([[n * 2]]);
  });

  it("sees another connection's commit after a finished read (no snapshot held)", async () => {
    await other.execute({ sql: "INSERT INTO statement_probe (label) VALUES (?)", args: ["before"] });
    const read = () => connection.prepare("SELECT count(*) FROM statement_probe").raw(true).all()[0]![0];
    const before = read();
    await other.execute({ sql: "INSERT INTO statement_probe (label) VALUES (?)", args: ["after"] });
    expect(read()).toBe(Number(before) + 1);
  });

  it("never reuses a statement that failed, and the connection still commits afterwards", async () => {
    const insert = "INSERT INTO statement_probe (label) VALUES (?)";
    connection.prepare(insert).run("twice");
    const failing = connection.prepare(insert);
    expect(() => failing.run("twice")).toThrow(/UNIQUE/);
    expect(connection.prepare(insert)).not.toBe(failing);
    connection.prepare(insert).run("committed");
    const seen = await other.execute({ sql: "SELECT count(*) AS n FROM statement_probe WHERE label = ?", args: ["committed"] });
    expect(Number(seen.rows[0]!.n)).toBe(1);
  });

  it("keeps a statement's raw and integer modes, and changes them whenever asked for the other", () => {
    const sql = "SELECT CAST(? AS INTEGER) AS n";
    const statement = connection.prepare(sql);
    expect(statement.raw(true).safeIntegers(true).all(7)).toEqual([[7n]]);
    expect(statement.raw(true).safeIntegers(true).all(8)).toEqual([[8n]]);
    expect(statement.raw(false).all(9)).toEqual([{ n: 9n }]);
    expect(statement.safeIntegers(false).all(10)).toEqual([{ n: 10 }]);
    expect(statement.raw().all(11)).toEqual([[11]]);
    expect(connection.prepare(sql).safeIntegers().all(12)).toEqual([[12n]]);
  });

  it("refuses raw mode for a statement that returns no data, each time it is asked", async () => {
    const insert = connection.prepare("INSERT INTO statement_probe (label) VALUES (?)");
    for (let i = 0; i < 2; i++) expect(() => insert.raw(true)).toThrow("only for statements that return data");
    // the server's client asks for it before every write, and writes all the same
    const client = await getClient();
    for (const label of ["mode-1", "mode-2"]) {
      await client.execute({ sql: "INSERT INTO statement_probe (label) VALUES (?)", args: [label] });
    }
    const seen = await other.execute("SELECT count(*) AS n FROM statement_probe WHERE label LIKE 'mode-%'");
    expect(Number(seen.rows[0]!.n)).toBe(2);
  });

  it("answers the server's client as before: the same query with other arguments", async () => {
    const client = await getClient();
    for (const n of [3, 4]) {
      const result = await client.execute({ sql: "SELECT ? + 1 AS n", args: [n] });
      expect(Number(result.rows[0]!.n)).toBe(n + 1);
    }
  });
});
