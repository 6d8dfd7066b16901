// An S3-compatible bucket on this machine (s3rver) until stopped, for trying bucket mode by hand and for
// npm run bench:storage, which runs it in a process of its own. Prints the variables that point the app at it.
//   tsx scripts/local-bucket.ts [--port 4568] [--dir data/bucket] [--json]
import { startBucket } from "../tests/setup/bucket";

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};

const bucket = await startBucket(option("dir", "data/bucket"), { port: Number(option("port", "4568")) });
if (process.argv.includes("--json")) console.log(JSON.stringify(bucket.env));
else {
  console.log(`A local bucket answers at ${bucket.endpoint}. Start the app with:`);
  console.log(
    Object.entries(bucket.env)
      .map(([name, value]) => `${name}=${value}`)
      .join(" "),
  );
}
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void bucket.close().finally(() => process.exit(0)));
