// Builds one migrated database file per run; every test file copies it (a fresh database per file).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { migrateDatabase } from "../../db/migrate";

/**
 * Each run of vitest works in a folder of its own (several runs may share a checkout): its template and
 * the per-file copies, removed at the end; folders of runs whose process is gone are swept at the start.
 */
export default async function setup({ provide }: { provide: (key: "testRunDir", value: string) => void }) {
  mkdirSync("tests/.tmp", { recursive: true });
  for (const name of readdirSync("tests/.tmp")) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    // the per-file copies of earlier runs (and of builds before runs had their own folder)
    if (name.startsWith("test-") || (pid && !isRunning(Number(pid)))) removeLeftovers(`tests/.tmp/${name}`);
  }
  const runDir = `tests/.tmp/run-${process.pid}`;
  mkdirSync(runDir, { recursive: true });
  const template = `${runDir}/template.db`;
  const client = await migrateDatabase({ ...process.env, DATABASE_URL: `file:${template}` });
  // fold the WAL back into the file so a plain copy is complete
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await client.execute("PRAGMA journal_mode = DELETE");
  client.close();
  provide("testRunDir", runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}

/** Removes a folder an earlier run left; a file a crashed fault test left immutable (chattr +i) is freed first. */
function removeLeftovers(path: string) {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    spawnSync("chattr", ["-R", "-i", path]);
    rmSync(path, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    testRunDir: string;
  }
}
