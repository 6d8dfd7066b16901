// The database and file storage each environment gets, from the variables it sets: the demo, the demo on a
// local bucket, one Fly machine (fly.toml as committed), several regions (fly.toml plus the recipe of
// docs/deployment.md: a Turso replica and a Tigris bucket), and a remote database without replicas.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { storageConfig } from "../../app/services/storage/config.server";
import { databaseConfig } from "../../app/utils/db.server";

const ROOT = resolve(__dirname, "../..");
const read = (path: string) => readFileSync(resolve(ROOT, path), "utf8");

/** The [env] table of fly.toml. */
function flyEnv(): Record<string, string> {
  const table =
    read("fly.toml")
      .split(/^\s*\[env\]\s*$/m)[1]
      ?.split(/^\s*\[/m)[0] ?? "";
  return Object.fromEntries([...table.matchAll(/^\s*([A-Z_0-9]+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));
}

/** What `fly storage create` sets as secrets. */
const TIGRIS = {
  BUCKET_NAME: "printnear-files",
  AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev",
  AWS_REGION: "auto",
  AWS_ACCESS_KEY_ID: "tid_key",
  AWS_SECRET_ACCESS_KEY: "tsec_secret",
};
const TURSO = { DATABASE_SYNC_URL: "libsql://printnear-acme.turso.io", DATABASE_AUTH_TOKEN: "token" };
/** The line docs/deployment.md has you put in fly.toml for several regions. */
const REPLICA_FILE = "file:/data/replica.db";

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe("the configuration each environment produces", () => {
  test("the demo: the libSQL file data/app.db and the folder data/uploads", () => {
    const vars = { MOCKS: "true" };
    expect(databaseConfig(env(vars))).toEqual({ url: "file:data/app.db", authToken: undefined, timeout: 5000 });
    expect(storageConfig(vars)).toEqual({
      directory: resolve("data/uploads"),
      scratchDirectory: resolve("data/uploads/.incoming"),
      bucket: null,
    });
  });

  test("the demo on a local bucket (npm run demo:bucket): the same database, files in s3rver", () => {
    const vars = {
      MOCKS: "true",
      AWS_ENDPOINT_URL_S3: "http://127.0.0.1:4568",
      AWS_REGION: "auto",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      BUCKET_NAME: "printnear",
    };
    expect(databaseConfig(env(vars)).url).toBe("file:data/app.db");
    expect(storageConfig(vars).bucket).toMatchObject({ bucket: "printnear", endpoint: "http://127.0.0.1:4568" });
  });

  test("one Fly machine (fly.toml as it is): the file and the folder on its volume", () => {
    const vars = flyEnv();
    expect(databaseConfig(env(vars))).toEqual({ url: "file:/data/app.db", authToken: undefined, timeout: 5000 });
    expect(storageConfig(vars)).toEqual({
      directory: "/data/uploads",
      scratchDirectory: "/data/uploads/.incoming",
      bucket: null,
    });
  });

  test("several regions: an embedded replica of Turso syncing every 5 s, reading its own writes, and the Tigris bucket", () => {
    expect(read("docs/deployment.md")).toContain(`\`DATABASE_URL = "${REPLICA_FILE}"\``);
    const vars = { ...flyEnv(), DATABASE_URL: REPLICA_FILE, ...TURSO, ...TIGRIS };
    expect(databaseConfig(env(vars))).toEqual({
      url: REPLICA_FILE,
      authToken: "token",
      timeout: 5000,
      syncUrl: "libsql://printnear-acme.turso.io",
      syncInterval: 5,
      readYourWrites: true,
    });
    // every stored file in the bucket (the variables' mapping: storage/config.server.test.ts); uploads still
    // arrive and are analysed on the machine's own volume
    expect(storageConfig(vars)).toMatchObject({
      scratchDirectory: "/data/uploads/.incoming",
      bucket: { bucket: "printnear-files", endpoint: "https://fly.storage.tigris.dev" },
    });
  });

  test("a remote database without replicas: every query goes to Turso", () => {
    const vars = { DATABASE_URL: "libsql://printnear-acme.turso.io", DATABASE_AUTH_TOKEN: "token" };
    expect(databaseConfig(env(vars))).toEqual({ url: "libsql://printnear-acme.turso.io", authToken: "token" });
  });
});
