// Benchmark: storing a 49 MB design from its scratch file and streaming it back, in the uploads folder and in an
// S3-compatible bucket (s3rver on loopback, in a process of its own). Prints the median speed of each way over a
// few runs, and for comparison the bucket through @remix-run/file-storage-s3 as it is (whole objects in memory).
//   npm run bench:storage [-- --runs 5]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { mkdirSync, openAsBlob, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { FileStorage } from "@remix-run/file-storage";
import { createS3FileStorage } from "@remix-run/file-storage-s3";
import { openStorage } from "../app/services/storage.server";
import { storageConfig } from "../app/services/storage/config.server";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const dir = join(root, "tests/.tmp/bench-storage");
const SIZE = 49 * 1024 * 1024;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mbPerSecond = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000);

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function bench(name: string, storage: FileStorage, source: string) {
  const uploads: number[] = [];
  const downloads: number[] = [];
  const firstBytes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const key = `designs/bench/${run}.stl`;
    const up = await timed(async () =>
      storage.set(key, new File([await openAsBlob(source)], "bench.stl", { type: "application/octet-stream" })),
    );
    const started = performance.now();
    const down = await timed(async () => {
      const file = await storage.get(key);
      let read = 0;
      // as a download route does: the stream is read chunk by chunk and passed on
      for await (const chunk of file!.stream()) {
        if (read === 0) firstBytes.push(performance.now() - started);
        read += chunk.byteLength;
      }
      if (read !== SIZE) throw new Error(`read ${read} of ${SIZE} bytes`);
    });
    await storage.remove(key);
    uploads.push(up);
    downloads.push(down);
  }
  const row = (way: string, times: number[]) =>
    `${name.padEnd(34)} ${way.padEnd(9)} ${mbPerSecond(median(times)).toFixed(0).padStart(5)} MB/s  (median ${median(times).toFixed(0)} ms of ${RUNS})`;
  console.log(row("upload", uploads));
  console.log(`${row("download", downloads)}, first bytes after ${median(firstBytes).toFixed(0)} ms`);
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const source = join(dir, "design-49mb.stl");
writeFileSync(source, randomBytes(SIZE));
console.log(`A ${SIZE / 1024 / 1024} MB design, stored from its scratch file and streamed back, ${RUNS} runs each:\n`);

await bench("folder (@remix-run/file-storage)", openStorage(storageConfig({ UPLOADS_DIR: join(dir, "folder") })), source);
const bucket = spawn(
  process.execPath,
  ["--import", "tsx", "scripts/local-bucket.ts", "--port", "0", "--dir", join(dir, "s3rver"), "--json"],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
try {
  const [line] = (await once(createInterface({ input: bucket.stdout! }), "line")) as [string];
  const env = JSON.parse(line) as Record<string, string>;
  const config = storageConfig({ ...env, UPLOADS_DIR: join(dir, "scratch") });
  await bench("bucket (s3rver on loopback)", openStorage(config), source);
  // the package as it is, for comparison: it reads each whole object into memory both ways
  await bench("bucket, file-storage-s3 unchanged", createS3FileStorage(config.bucket!), source);
} finally {
  bucket.kill();
  rmSync(dir, { recursive: true, force: true });
}
