// An S3-compatible bucket for tests, the demo and the storage benchmark: s3rver on loopback, on a free port,
// keeping its objects in a folder of its own. `env` holds the variables that point the app's storage at it.
// startFaultyBucket stands for a bucket that is down or stalls, for the storage's time limits.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import S3rver from "s3rver";
import type { BucketConfig } from "../../app/services/storage/config.server";

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

/** How a fake bucket misbehaves: gone (nothing listens), silent (takes the request, never answers), or stalling mid-body. */
export type BucketFault = "gone" | "silent" | "stalls";

export interface FaultyBucket {
  config: BucketConfig;
  /** requests it has received */
  requests(): number;
  close(): Promise<void>;
}

/** A bucket on loopback that fails in one way; a stalling one sends STALLED_BYTES of a longer object, then nothing. */
export async function startFaultyBucket(fault: BucketFault): Promise<FaultyBucket> {
  let received = 0;
  const open = new Set<Socket>();
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    if (fault !== "stalls") return;
    response.writeHead(200, { "content-type": "model/stl", "content-length": String(STALLED_BYTES * 4) });
    response.write(Buffer.alloc(STALLED_BYTES, 7));
  });
  server.on("connection", (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    });
  // a bucket that is gone: the port was just ours, and nothing listens on it any more
  if (fault === "gone") await close();
  return {
    config: {
      bucket: "printnear",
      endpoint: `http://127.0.0.1:${port}`,
      region: "auto",
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      sessionToken: undefined,
    },
    requests: () => received,
    close: fault === "gone" ? async () => {} : close,
  };
}

export const STALLED_BYTES = 1000;
