// The one database client. DATABASE_URL picks the mode (see docs/deployment.md):
//   file:data/app.db (default)            embedded libSQL file
//   libsql://… + DATABASE_AUTH_TOKEN      remote Turso database
//   file:… + DATABASE_SYNC_URL (+ token)  embedded replica of a remote database
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createClient, type Client, type Config, type InArgs, type Transaction } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "../../db/schema";
import { checkDatabaseFiles } from "./database-files.server";
import { isBusyError, needsReconnect } from "./sqlite-errors.server";

export type Database = LibSQLDatabase<typeof schema>;
export {
  isBusyError,
  isDatabaseUnavailable,
  isUniqueViolation,
  isWriteUnavailable,
  needsReconnect,
  sqliteCodesOf,
} from "./sqlite-errors.server";

/** How long a statement, batch or transaction start of the server waits in all for another connection's write lock. */
export const LOCK_WAIT_MS = 5_000;
const FIRST_PROBE_MS = 5;
const LONGEST_PROBE_MS = 100;

export function databaseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const url = env.DATABASE_URL || "file:data/app.db";
  const config: Config = { url, authToken: env.DATABASE_AUTH_TOKEN || undefined };
  if (url.startsWith("file:")) {
    // SQLite's busy timeout (ms), for scripts and start-up: its wait blocks the thread, so the server's
    // shared client waits in retryWhileLocked instead (openRecoveringDatabase)
    config.timeout = LOCK_WAIT_MS;
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
  const path = localPath(config);
  if (path) mkdirSync(dirname(path), { recursive: true });
  const client = createClient(config);
  if (config.url.startsWith("file:") && !config.syncUrl) {
    // WAL lets readers go on while one writer writes; it is a property of the file
    await client.execute("PRAGMA journal_mode = WAL");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  return { client, db: drizzle(client, { schema }) };
}

/** Who hears the SQL text of each statement the server's client runs (tests and benchmarks count them). */
const statementWatchers = new Set<(sql: string) => void>();

/** Calls `watcher` with the SQL of every statement the server's client runs until the returned function is called. */
export function watchStatements(watcher: (sql: string) => void): () => void {
  statementWatchers.add(watcher);
  return () => statementWatchers.delete(watcher);
}

function reportStatements(method: PropertyKey, args: unknown[]) {
  if (statementWatchers.size === 0 || (method !== "execute" && method !== "batch")) return;
  const statements = method === "batch" ? ((args[0] as unknown[]) ?? []) : [args[0]];
  for (const statement of statements) {
    const text =
      typeof statement === "string"
        ? statement
        : Array.isArray(statement)
          ? String(statement[0])
          : String((statement as { sql: string }).sql);
    for (const watcher of statementWatchers) watcher(text);
  }
}

/**
 * libsql 0.5.29 (the binding under @libsql/client 0.18) leaves a statement that failed with SQLITE_BUSY in
 * progress until the garbage collector finalizes it, and till then its connection cannot commit: a later write
 * on it stays uncommitted under the write lock and is lost (decision 031). Once a call met the lock, the client
 * it ran on is given up for a fresh one, as after a broken connection. `libsql-busy-statement.test.ts` fails once
 * a release of libsql fixes it; this rule and that test then go.
 */
export function retiredAfterBusyOnLibsql05(error: unknown): boolean {
  return isBusyError(error);
}

/**
 * A client that recovers: an error that leaves the connection unusable (read-only after a brief
 * read-only period, an I/O error, a closed or moved file, or a held write lock on libsql 0.5) marks it
 * stale, and the next call opens a fresh one instead of failing until a restart. The failed call still
 * fails; nothing is retried. A stale client is closed once its open transactions have ended.
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
  const openTransactions = new Map<Client, number>();
  const retired = new Set<Client>();
  const closeIfDone = (client: Client) => {
    if (!retired.has(client) || (openTransactions.get(client) ?? 0) > 0) return;
    retired.delete(client);
    openTransactions.delete(client);
    try {
      client.close();
    } catch {
      // already unusable
    }
  };
  const markIfBroken = (error: unknown) => {
    if (needsReconnect(error) || retiredAfterBusyOnLibsql05(error)) stale = true;
    return error;
  };
  const guarded = <T>(run: () => T): T => {
    try {
      const result = run();
      return (
        result instanceof Promise
          ? result.catch((error: unknown) => {
              throw markIfBroken(error);
            })
          : result
      ) as T;
    } catch (error) {
      throw markIfBroken(error);
    }
  };
  /** A transaction whose failures mark the client, and whose end lets a retired client close. */
  const watchedTransaction = (owner: Client, transaction: Transaction): Transaction => {
    openTransactions.set(owner, (openTransactions.get(owner) ?? 0) + 1);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      openTransactions.set(owner, (openTransactions.get(owner) ?? 1) - 1);
      closeIfDone(owner);
    };
    return new Proxy(transaction, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          reportStatements(property, args);
          const ends = property === "commit" || property === "rollback" || property === "close";
          const result = guarded(() => (value as (...a: unknown[]) => unknown).apply(target, args));
          if (!ends) return result;
          if (result instanceof Promise) return result.finally(end);
          end();
          return result;
        };
      },
    });
  };
  return new Proxy({} as Client, {
    get(_target, property) {
      if (stale) {
        const broken = current;
        stale = false;
        current = open();
        retired.add(broken);
        closeIfDone(broken);
      }
      const value = Reflect.get(current, property, current) as unknown;
      if (typeof value !== "function") return value;
      const target = current;
      return (...args: unknown[]) => {
        reportStatements(property, args);
        const result = guarded(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        if (property !== "transaction" || !(result instanceof Promise)) return result;
        return result.then((transaction: Transaction) => watchedTransaction(target, transaction));
      };
    },
  });
}

declare global {
  // one instance for the server (run from source) and the app build (bundled apart from it)
  var __printnearLockWait: AsyncLocalStorage<{ wait: boolean }> | undefined;
}

function lockWait(): AsyncLocalStorage<{ wait: boolean }> {
  globalThis.__printnearLockWait ??= new AsyncLocalStorage<{ wait: boolean }>();
  return globalThis.__printnearLockWait;
}

/**
 * Runs best-effort work that must not hold up its caller (a read that also counts or marks something, the
 * health check): while another connection holds the write lock its statements fail at once with SQLITE_BUSY.
 */
export function withoutWaitingForLock<T>(work: () => PromiseLike<T>): Promise<T> {
  // awaited inside the scope: a drizzle query only runs when it is awaited
  return lockWait().run({ wait: false }, async () => await work());
}

/** Best-effort work that does not wait for a held write lock: `whenLocked` answers instead while another connection holds it. */
export async function unlessWriteLocked<T, F>(work: () => PromiseLike<T>, whenLocked: () => F | Promise<F>): Promise<T | F> {
  try {
    return await withoutWaitingForLock(work);
  } catch (error) {
    if (!isBusyError(error)) throw error;
    return whenLocked();
  }
}

/** Resolves at `deadline`, or with `work` if it settles first (the timer is cleared either way). */
function untilDeadline(work: Promise<void>, deadline: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  return Promise.race([work, timeUp]).finally(() => clearTimeout(timer));
}

/**
 * Watches a held write lock for every call that waits for it: one probe at a time, after growing pauses, so
 * a hundred waiting requests cost one probe, not a hundred attempts.
 */
export class WriteLockWatch {
  private watching: Promise<void> | null = null;
  private until = 0;

  constructor(private readonly lockIsFree: () => boolean | Promise<boolean>) {}

  /** Resolves once a probe found the lock free, or at `deadline`. */
  freed(deadline: number): Promise<void> {
    this.until = Math.max(this.until, deadline);
    this.watching ??= this.watch().finally(() => {
      this.watching = null;
    });
    return untilDeadline(this.watching, deadline);
  }

  private async watch() {
    for (let pause = FIRST_PROBE_MS; Date.now() < this.until; pause = Math.min(pause * 2, LONGEST_PROBE_MS)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      if (await this.lockIsFree()) return;
    }
  }
}

/**
 * Runs `attempt` again while another connection holds the write lock, waiting for `watch` (the event loop
 * stays free); after LOCK_WAIT_MS in all the busy error goes up (the server answers 503). Only whole units
 * are retried: one statement, a whole batch, or a transaction's BEGIN, never the middle of a transaction.
 */
async function retryWhileLocked<T>(watch: WriteLockWatch, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const waits = lockWait().getStore()?.wait !== false;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!waits || !isBusyError(error) || Date.now() >= deadline) throw error;
      await watch.freed(deadline);
    }
  }
}

/** The client calls that retryWhileLocked may repeat: each fails as a whole (a batch is rolled back). */
const RETRIED_WHILE_LOCKED = new Set<PropertyKey>(["execute", "batch", "transaction"]);

/** A client whose statements, batches and transaction starts wait for a held write lock without blocking. */
function lockWaitingClient(client: Client, watch: WriteLockWatch): Client {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function" || !RETRIED_WHILE_LOCKED.has(property)) return value;
      return (...args: unknown[]) =>
        retryWhileLocked(watch, () => (Reflect.get(target, property, target) as (...a: unknown[]) => Promise<unknown>)(...args));
    },
  });
}

/** The file of a local database URL (file:path?…), or null for a remote one or memory. */
export function localPath(config: Config): string | null {
  if (!config.url.startsWith("file:")) return null;
  const path = config.url.slice("file:".length).split("?")[0];
  return path && path !== ":memory:" ? path : null;
}

/** Tries the write lock on a client of its own; a script (`executeMultiple`) leaves no statement in progress when it fails. */
function writeLockProbe(config: Config): () => Promise<boolean> {
  let probe: Client | null = null;
  return async () => {
    probe ??= createClient({ ...config, timeout: 0 });
    try {
      await probe.executeMultiple("BEGIN IMMEDIATE; ROLLBACK;");
      return true;
    } catch (error) {
      // another fault: the waiting calls try again and meet it themselves
      return !isBusyError(error);
    }
  };
}

async function openRecoveringDatabase(env: NodeJS.ProcessEnv = process.env) {
  const config = databaseConfig(env);
  const path = localPath(config);
  if (path) mkdirSync(dirname(path), { recursive: true });
  if (!path || config.syncUrl) {
    const client = recoveringClient(config);
    return { client, db: drizzle(client, { schema }), files: null };
  }
  // SQLite itself never waits for the lock here (its wait would block every request): lockWaitingClient does
  const client = lockWaitingClient(recoveringClient({ ...config, timeout: 0 }), new WriteLockWatch(writeLockProbe(config)));
  await client.execute("PRAGMA journal_mode = WAL");
  return { client, db: drizzle(client, { schema }), files: path };
}

declare global {
  // one client across dev-server reloads
  var __printnearDb: Promise<{ client: Client; db: Database; files: string | null }> | undefined;
}

/** The shared connection, once its -shm and -wal are fit to touch (a DatabaseFileFault otherwise: 503). */
async function connection() {
  globalThis.__printnearDb ??= openRecoveringDatabase();
  const opened = await globalThis.__printnearDb;
  if (opened.files) checkDatabaseFiles(opened.files);
  return opened;
}

/**
 * A query whose SQL drizzle builds once per database, not on every call: for the statements every signed-in
 * page runs. Its values are placeholders (sql.placeholder), given to .all() / .get() on each call.
 */
export function preparedQuery<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}

/** The drizzle database; awaits the one shared connection. */
export async function getDb(): Promise<Database> {
  return (await connection()).db;
}

export async function getClient(): Promise<Client> {
  return (await connection()).client;
}

/** A row as readRows gives it: each column's value by its name. */
export type ReadRow = Record<string, unknown>;

/** Rows of one SQL statement of our own, each column's value by its name (integers as numbers). */
export async function readRows(statement: { sql: string; args: InArgs }): Promise<ReadRow[]> {
  const result = await (await getClient()).execute(statement);
  return result.rows.map((row) => ({ ...row }));
}
