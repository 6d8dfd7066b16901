// Applies the pending SQL migrations in drizzle/ to DATABASE_URL (run on start and in CI).
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/libsql/migrator";
import { openDatabase } from "../app/utils/db.server";

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

export async function migrateDatabase(env: NodeJS.ProcessEnv = process.env) {
  const { client, db } = await openDatabase(env);
  await migrate(db, { migrationsFolder });
  return client;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const client = await migrateDatabase();
  client.close();
  console.log(`Database ready: ${process.env.DATABASE_URL || "file:data/app.db"}`);
}
