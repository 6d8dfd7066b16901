// Builds one migrated database file; every test file copies it (a fresh database per file).
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { migrateDatabase } from "../../db/migrate";

export const TEMPLATE_DB = "tests/.tmp/template.db";

export default async function setup() {
  mkdirSync("tests/.tmp", { recursive: true });
  // the per-file copies (and their uploads) of earlier runs
  for (const name of readdirSync("tests/.tmp")) {
    if (name.startsWith("test-")) rmSync(`tests/.tmp/${name}`, { recursive: true, force: true });
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${TEMPLATE_DB}${suffix}`, { force: true });
  const client = await migrateDatabase({ ...process.env, DATABASE_URL: `file:${TEMPLATE_DB}` });
  // fold the WAL back into the file so a plain copy is complete
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await client.execute("PRAGMA journal_mode = DELETE");
  client.close();
}
