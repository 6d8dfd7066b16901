// An S3-compatible bucket for tests, the demo and the storage benchmark: s3rver on loopback, on a free port,
// keeping its objects in a folder of its own. `env` holds the variables that point the app's storage at it.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import S3rver from "s3rver";

/** s3rver's fixed credentials. */
const S3RVER_KEY = "S3RVER";

export interface TestBucket {
  endpoint: string;
  bucket: string;
  env: {
    AWS_ENDPOINT_URL_S3: string;
    AWS_REGION: string;
    AWS_ACCESS_KEY_ID: string;
    AWS_SECRET_ACCESS_KEY: string;
    BUCKET_NAME: string;
  };
  close(): Promise<void>;
}

export async function startBucket(directory: string, options: { bucket?: string; port?: number } = {}): Promise<TestBucket> {
  const bucket = options.bucket ?? "printnear";
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: "127.0.0.1",
    port: options.port ?? 0,
    silent: true,
    directory: resolve(directory),
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "auto",
      AWS_ACCESS_KEY_ID: S3RVER_KEY,
      AWS_SECRET_ACCESS_KEY: S3RVER_KEY,
      BUCKET_NAME: bucket,
    },
    close: () => server.close(),
  };
}
