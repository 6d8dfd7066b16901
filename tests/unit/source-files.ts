// The project's own source files, for the tests that read the code itself (layers, status writes).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every TypeScript and JavaScript module below `dir`, tests left out. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}
