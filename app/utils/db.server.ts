// The one database client. DATABASE_URL picks the mode (see docs/deployment.md):
//   file:data/app.db (default)            embedded libSQL file
//   libsql://… + DATABASE_AUTH_TOKEN      remote Turso database
//   file:… + DATABASE_SYNC_URL (+ token)  embedded replica of a remote database
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createClient, type Client, type Config } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "../../db/schema";

export type Database = LibSQLDatabase<typeof schema>;

export function databaseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const url = env.DATABASE_URL || "file:data/app.db";
  const config: Config = { url, authToken: env.DATABASE_AUTH_TOKEN || undefined };
  if (url.startsWith("file:")) {
    // busy timeout in milliseconds: writers wait for each other instead of failing
    config.timeout = 5000;
    if (env.DATABASE_SYNC_URL) {
      config.syncUrl = env.DATABASE_SYNC_URL;
      // libSQL counts syncInterval in seconds, not milliseconds
      config.syncInterval = Number(env.DATABASE_SYNC_INTERVAL_SECONDS || 60);
      config.readYourWrites = true;
    }
  }
  return config;
}

export async function openDatabase(env: NodeJS.ProcessEnv = process.env): Promise<{ client: Client; db: Database }> {
  const config = databaseConfig(env);
  if (config.url.startsWith("file:")) {
    const path = config.url.slice("file:".length).split("?")[0];
    if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  }
  const client = createClient(config);
  if (config.url.startsWith("file:") && !config.syncUrl) {
    // WAL lets readers go on while one writer writes; it is a property of the file
    await client.execute("PRAGMA journal_mode = WAL");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  return { client, db: drizzle(client, { schema }) };
}

/**
 * A client that recovers: an error that leaves the connection unusable (read-only after a brief
 * read-only period, an I/O error, a closed or moved file) marks it stale, and the next call opens
 * a fresh one instead of failing until a restart. The failed call still fails; nothing is retried.
 */
export function recoveringClient(config: Config): Client {
  const open = () => {
    const fresh = createClient(config);
    // the same connection settings as openDatabase; statements on one client run in order
    void fresh.execute("PRAGMA foreign_keys = ON").catch(() => {});
    return fresh;
  };
  let current = open();
  let stale = false;
  const markIfBroken = (error: unknown) => {
    if (needsReconnect(error)) stale = true;
    return error;
  };
  return new Proxy({} as Client, {
    get(_target, property) {
      if (stale) {
        const broken = current;
        stale = false;
        current = open();
        try {
          broken.close();
        } catch {
          // already unusable
        }
      }
      const value = Reflect.get(current, property, current) as unknown;
      if (typeof value !== "function") return value;
      const target = current;
      return (...args: unknown[]) => {
        try {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw markIfBroken(error);
              })
            : result;
        } catch (error) {
          throw markIfBroken(error);
        }
      };
    },
  });
}

async function openRecoveringDatabase(env: NodeJS.ProcessEnv = process.env) {
  const config = databaseConfig(env);
  if (config.url.startsWith("file:")) {
    const path = config.url.slice("file:".length).split("?")[0];
    if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  }
  const client = recoveringClient(config);
  if (config.url.startsWith("file:") && !config.syncUrl) await client.execute("PRAGMA journal_mode = WAL");
  return { client, db: drizzle(client, { schema }) };
}

declare global {
  // one client across dev-server reloads
  var __printnearDb: Promise<{ client: Client; db: Database }> | undefined;
}

function connection() {
  globalThis.__printnearDb ??= openRecoveringDatabase();
  return globalThis.__printnearDb;
}

/** The drizzle database; awaits the one shared connection. */
export async function getDb(): Promise<Database> {
  return (await connection()).db;
}

export async function getClient(): Promise<Client> {
  return (await connection()).client;
}

/** SQLite's result codes of an error (extended first), down the cause chain: drizzle wraps libSQL's errors. */
export function sqliteCodesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    for (const field of ["extendedCode", "code"] as const) {
      const code = (current as Record<string, unknown>)[field];
      if (typeof code === "string" && code.startsWith("SQLITE_")) codes.push(code);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** A UNIQUE constraint refused the write (a duplicate won a race with a check-then-insert). */
export function isUniqueViolation(error: unknown): boolean {
  return sqliteCodesOf(error).some((code) => code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY");
}

/** Another connection holds the write lock (past the busy timeout, or a lock that cannot wait). */
export function isBusyError(error: unknown): boolean {
  return sqliteCodesOf(error).some((code) => code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** The connection itself is broken or stuck read-only: a fresh one is needed. */
export function needsReconnect(error: unknown): boolean {
  if (sqliteCodesOf(error).some((code) => /^SQLITE_(READONLY|IOERR|CANTOPEN|NOTADB)/.test(code))) return true;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      code === "CLIENT_CLOSED" ||
      (current instanceof Error && /client is closed|connection is not open/i.test(current.message))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
