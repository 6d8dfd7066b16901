// npm run storage:copy-to-bucket: copies the files of the uploads folder (UPLOADS_DIR, default data/uploads)
// into the bucket the storage variables name (BUCKET_NAME, AWS_*). Safe to run again: keys already in the
// bucket are skipped, so a second run copies nothing and an interrupted run finishes the rest.
import { existsSync } from "node:fs";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { createBucketStorage } from "../app/services/storage/bucket.server";
import { copyStoredFiles } from "../app/services/storage/copy.server";
import { storageConfig } from "../app/services/storage/config.server";

const config = storageConfig();
if (!config.bucket) {
  console.error("Set BUCKET_NAME, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_ENDPOINT_URL_S3 (or AWS_REGION) first.");
  process.exit(1);
}
if (!existsSync(config.directory)) {
  console.error(`There is no uploads folder at ${config.directory} (set UPLOADS_DIR).`);
  process.exit(1);
}
console.log(`Copying ${config.directory} into the bucket ${config.bucket.bucket} ...`);
const report = await copyStoredFiles(createFsFileStorage(config.directory), createBucketStorage(config.bucket), (key, size) =>
  console.log(`  ${key} (${size} bytes)`),
);
const megabytes = (report.bytes / 1_000_000).toFixed(1);
console.log(`Copied ${report.copied} files (${megabytes} MB); ${report.skipped} were in the bucket already.`);
