// A test file's upload folder: the shared setup (vitest.setup.ts) gives each file its own, beside its
// database copy, and removes it after the file. A test that looks at the stored files asks for it here.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";

export function testUploadsDir(): string {
  const dir = resolve(process.env.UPLOADS_DIR!);
  mkdirSync(dir, { recursive: true });
  return dir;
}
