// npm run demo:bucket: the demo with every stored file in a local S3-compatible bucket (s3rver, data/bucket)
// instead of the uploads folder, as on several machines with Tigris. Files an earlier demo stored in the folder
// are copied in first (once); the bucket stops with the demo.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { openStorage } from "../app/services/storage.server";
import { storageConfig } from "../app/services/storage/config.server";
import { copyStoredFiles } from "../app/services/storage/copy.server";
import { startBucket } from "../tests/setup/bucket";

const bucket = await startBucket("data/bucket", { port: Number(process.env.DEMO_BUCKET_PORT || 4568) });
const env = { ...process.env, ...bucket.env };
const config = storageConfig(env);
if (existsSync(config.directory)) {
  const copied = await copyStoredFiles(createFsFileStorage(config.directory), openStorage(config));
  if (copied.copied > 0) console.log(`Copied ${copied.copied} files of ${config.directory} into the bucket.`);
}
console.log(`Stored files go to the bucket ${bucket.bucket} at ${bucket.endpoint} (data/bucket).`);
const demo = spawn("npm", ["run", "demo"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => demo.kill(signal));
demo.once("exit", (code) => void bucket.close().finally(() => process.exit(code ?? 0)));
