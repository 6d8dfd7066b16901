// The one database client. DATABASE_URL picks the mode (see docs/deployment.md):
//   file:data/app.db (default)            embedded libSQL file
//   libsql://… + DATABASE_AUTH_TOKEN      remote Turso database
//   file:… + DATABASE_SYNC_URL (+ token)  embedded replica of a remote database
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createClient, type Client, type Config } from "@libsql/client";
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
  if (path) {
    mkdirSync(dirname(path), { recursive: true });
    retireConnectionsThatMeetALock();
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

declare global {
  // one instance for the server (run from source) and the app build (bundled apart from it)
  var __printnearLockWait: AsyncLocalStorage<{ wait: boolean }> | undefined;
  // the binding is patched once per process
  var __printnearRetiresBusyConnections: boolean | undefined;
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

  constructor(private readonly lockIsFree: () => boolean) {}

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
      if (this.lockIsFree()) return;
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

/** The parts of libsql's connection class (its better-sqlite3-like binding) used here. */
export interface BindingConnection {
  open: boolean;
  readonly memory: boolean;
  readonly inTransaction: boolean;
  exec(sql: string): void;
  close(): void;
  prepare(sql: string): {
    run(...args: unknown[]): unknown;
    all(...args: unknown[]): unknown;
    columns(): unknown[];
    raw(on?: boolean): unknown;
    safeIntegers(on?: boolean): unknown;
  };
}
type BindingClass = { new (path: string, options?: { timeout?: number }): BindingConnection; prototype: BindingConnection };

/** The libsql binding that @libsql/client opens local files with (resolved from the client: the same module). */
export function libsqlBinding(): BindingClass {
  const clientEntry = createRequire(import.meta.url).resolve("@libsql/client");
  return createRequire(clientEntry)("libsql") as BindingClass;
}

/** How many prepared statements each connection keeps for reuse (the app's queries are a few hundred texts). */
export const KEPT_STATEMENTS = 500;
type BindingStatement = ReturnType<BindingConnection["prepare"]>;
const keptStatements = new WeakMap<BindingConnection, Map<string, BindingStatement>>();

/**
 * libsql 0.5 leaves a statement that failed with SQLITE_BUSY in progress until the garbage collector gets to
 * it, and till then its connection cannot commit: later writes on it stay uncommitted under the write lock
 * and are lost. Such a connection is retired at once (rolled back, then marked closed, so @libsql/client's
 * pool drops it and opens a fresh one) and closed once the call that met the lock has finished with it.
 * A statement that ran to its end is kept per connection and text, and reused the next time the same text
 * is prepared (compiling it again was a twentieth of a signed-in page's work); one that failed is never reused.
 */
function retireConnectionsThatMeetALock() {
  if (globalThis.__printnearRetiresBusyConnections) return;
  globalThis.__printnearRetiresBusyConnections = true;
  const prototype = libsqlBinding().prototype;
  const prepare = prototype.prepare;
  prototype.prepare = function (this: BindingConnection, sql: string) {
    let kept = keptStatements.get(this);
    if (!kept) keptStatements.set(this, (kept = new Map()));
    const reused = kept.get(sql);
    if (reused) return reused;
    const statement = prepare.call(this, sql);
    for (const step of ["run", "all"] as const) {
      const original = statement[step];
      statement[step] = (...args: unknown[]) => {
        try {
          return original.apply(statement, args);
        } catch (error) {
          // it may be left in progress: the garbage collector finalizes it, as before it was kept
          if (kept.get(sql) === statement) kept.delete(sql);
          if (isBusyError(error)) retire(this);
          throw error;
        }
      };
    }
    // a statement's columns are fixed once compiled (the server changes no schema while it serves)
    const columns = statement.columns;
    let knownColumns: unknown[] | undefined;
    statement.columns = () => (knownColumns ??= columns.call(statement));
    keepModes(statement);
    if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
    kept.set(sql, statement);
    return statement;
  };
}

/**
 * @libsql/client sets a statement's raw rows and 64-bit integers before each execution, a call into the
 * binding each time (about 1.5 % of a signed-in page). A kept statement makes the call only when the mode
 * changes; raw() on a statement that returns no data refuses with the same error each time, as the binding does.
 */
function keepModes(statement: BindingStatement) {
  for (const mode of ["raw", "safeIntegers"] as const) {
    const set = statement[mode];
    let current: boolean | undefined;
    let refusal: unknown;
    statement[mode] = (on = true) => {
      if (refusal !== undefined) throw refusal;
      if (current !== on) {
        try {
          set.call(statement, on);
        } catch (error) {
          refusal = error;
          throw error;
        }
        current = on;
      }
      return statement;
    };
  }
}

function retire(connection: BindingConnection) {
  // an in-memory database lives only in its one connection
  if (connection.memory || !connection.open) return;
  try {
    if (connection.inTransaction) connection.exec("ROLLBACK");
  } catch {
    // dropped all the same
  }
  connection.open = false;
  setImmediate(() => {
    try {
      connection.close();
    } catch {
      // already unusable
    }
  });
}

/** The file of a local database URL (file:path?…), or null for a remote one or memory. */
export function localPath(config: Config): string | null {
  if (!config.url.startsWith("file:")) return null;
  const path = config.url.slice("file:".length).split("?")[0];
  return path && path !== ":memory:" ? path : null;
}

/** Tries the write lock on a connection of its own; `exec` leaves no statement in progress when it fails. */
function writeLockProbe(path: string): () => boolean {
  let probe: BindingConnection | null = null;
  return () => {
    probe ??= new (libsqlBinding())(path, { timeout: 0 });
    try {
      probe.exec("BEGIN IMMEDIATE");
      probe.exec("ROLLBACK");
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
  retireConnectionsThatMeetALock();
  // SQLite itself never waits for the lock here (its wait would block every request): lockWaitingClient does
  const client = lockWaitingClient(recoveringClient({ ...config, timeout: 0 }), new WriteLockWatch(writeLockProbe(path)));
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
