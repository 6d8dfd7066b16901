// Where stored files live, read from the environment once: an S3-compatible bucket when BUCKET_NAME is set
// (with the variable names Fly's Tigris storage sets), else a local folder. Either way an upload arrives in
// scratch on the machine's own disk, where it is analysed before it is stored.
import { join, resolve } from "node:path";

type Env = Record<string, string | undefined>;

export interface BucketConfig {
  bucket: string;
  /** an S3-compatible endpoint (Tigris, MinIO, s3rver); without one, AWS S3 in `region` */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | undefined;
}

export interface StorageConfig {
  /** the local folder: the stored files when there is no bucket (and the files a copy to a bucket moves) */
  directory: string;
  /** where uploads arrive and are analysed before they are stored, on the machine's own disk */
  scratchDirectory: string;
  /** the bucket every stored file goes to, or null for the folder */
  bucket: BucketConfig | null;
}

/** A half-set bucket configuration: refused at start rather than quietly storing on one machine's disk. */
export class StorageConfigError extends Error {}

const BUCKET_VARIABLES = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const;

export function storageConfig(env: Env = process.env): StorageConfig {
  const set = (name: string) => env[name]?.trim() || undefined;
  // UPLOADS_DIR: the stored files without a bucket, and the scratch of arriving uploads in both modes
  const directory = resolve(set("UPLOADS_DIR") ?? "data/uploads");
  const scratchDirectory = join(directory, ".incoming");
  const bucket = set("BUCKET_NAME");
  const endpoint = set("AWS_ENDPOINT_URL_S3");
  if (!bucket) {
    if (endpoint) throw new StorageConfigError("AWS_ENDPOINT_URL_S3 is set but BUCKET_NAME is not: name the bucket files go to.");
    return { directory, scratchDirectory, bucket: null };
  }
  const missing = BUCKET_VARIABLES.filter((name) => !set(name));
  if (missing.length > 0) throw new StorageConfigError(`BUCKET_NAME is set but ${missing.join(" and ")} not.`);
  const region = set("AWS_REGION") ?? (endpoint ? "auto" : undefined);
  if (!region)
    throw new StorageConfigError("BUCKET_NAME is set without AWS_ENDPOINT_URL_S3 or AWS_REGION: say where the bucket is.");
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new StorageConfigError("AWS_ENDPOINT_URL_S3 must be an http(s) URL.");
  return {
    directory,
    scratchDirectory,
    bucket: {
      bucket,
      endpoint,
      region,
      accessKeyId: set("AWS_ACCESS_KEY_ID")!,
      secretAccessKey: set("AWS_SECRET_ACCESS_KEY")!,
      sessionToken: set("AWS_SESSION_TOKEN"),
    },
  };
}

/** One line for the start-up log: where files go (never the keys). */
export function describeStorage(config: StorageConfig): string {
  const { bucket } = config;
  if (!bucket) return `Files are stored in the folder ${config.directory}.`;
  return `Files are stored in the bucket ${bucket.bucket} at ${bucket.endpoint ?? `AWS S3 (${bucket.region})`}.`;
}
