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

declare global {
  // one client across dev-server reloads
  var __printnearDb: Promise<{ client: Client; db: Database }> | undefined;
}

function connection() {
  globalThis.__printnearDb ??= openDatabase();
  return globalThis.__printnearDb;
}

/** The drizzle database; awaits the one shared connection. */
export async function getDb(): Promise<Database> {
  return (await connection()).db;
}

export async function getClient(): Promise<Client> {
  return (await connection()).client;
}
