// The reads every page runs, on a connection of the database file's own for reads: see readRows.
import type { InArgs } from "@libsql/client";
import { databaseConfig, getClient, libsqlBinding, localPath, type BindingConnection } from "./db.server";
import { checkDatabaseFiles } from "./database-files.server";
import { isBusyError, needsReconnect } from "./sqlite-errors.server";

declare global {
  // the plain file's connection for readRows, opened on first use
  var __printnearReader: { path: string; connection: BindingConnection | null } | undefined;
}

/** Each kept statement's column names (a statement's columns are fixed once compiled; db.server.ts keeps them). */
const namesOf = new WeakMap<object, string[]>();
function columnNames(statement: { columns(): unknown[] }): string[] {
  let names = namesOf.get(statement);
  if (!names) namesOf.set(statement, (names = (statement.columns() as { name: string }[]).map((column) => column.name)));
  return names;
}

/** A row as readRows gives it: each column's value by its name. */
export type ReadRow = Record<string, unknown>;

/**
 * Rows of one read-only statement, outside any transaction: for the few reads every page runs (the session's
 * user, the header, a dashboard's own counts). On a plain database file it runs on a connection of its own for
 * reads, straight on libsql's binding: @libsql/client and its wrappers around each statement cost about as much
 * as the statement itself (decision 036). WAL lets it read beside the client's writes, and each read sees what
 * was committed before it. Elsewhere (a remote database, an embedded replica), or when another connection's
 * lock is in the way, the client runs it as any statement. Integers come back as numbers: the app keeps none
 * beyond 2^53 (ids, counts, cents, epoch milliseconds).
 */
export async function readRows(statement: { sql: string; args: InArgs }): Promise<ReadRow[]> {
  const reader = await readConnection();
  if (reader) {
    try {
      const prepared = reader.prepare(statement.sql);
      prepared.raw(true);
      prepared.safeIntegers(false);
      const names = columnNames(prepared);
      const rows = prepared.all(...(Array.isArray(statement.args) ? statement.args : [statement.args])) as unknown[][];
      return rows.map((values) => {
        const row: ReadRow = {};
        for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
        return row;
      });
    } catch (error) {
      if (needsReconnect(error)) dropReadConnection();
      if (!isBusyError(error)) throw error;
    }
  }
  const result = await (await getClient()).execute(statement);
  return result.rows.map((row) => ({ ...row }));
}

/** The reads' own connection to the plain database file, or null where the client must read (see readRows). */
async function readConnection(): Promise<BindingConnection | null> {
  if (!globalThis.__printnearReader) {
    // the client first: it installs the binding's kept statements and lock handling (db.server.ts)
    await getClient();
    const config = databaseConfig();
    const path = config.syncUrl ? null : localPath(config);
    globalThis.__printnearReader = { path: path ?? "", connection: null };
  }
  const reader = globalThis.__printnearReader;
  if (!reader.path) return null;
  // a read touches the -shm as a write does
  checkDatabaseFiles(reader.path);
  // a connection retired after meeting a lock (retireConnectionsThatMeetALock) is marked closed
  if (!reader.connection?.open) {
    reader.connection = new (libsqlBinding())(reader.path, { timeout: 0 });
    reader.connection.exec("PRAGMA query_only = 1");
  }
  return reader.connection;
}

function dropReadConnection() {
  const reader = globalThis.__printnearReader;
  if (!reader?.connection) return;
  const broken = reader.connection;
  reader.connection = null;
  setImmediate(() => {
    try {
      broken.close();
    } catch {
      // already unusable
    }
  });
}
