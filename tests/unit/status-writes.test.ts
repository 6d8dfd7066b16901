// The lifecycle table is the one authority on a job's status: no code writes a status it names
// itself. transitionJob writes the table row's `to` (and undoAccept its `from`), placing an order
// writes the table's draft → submitted row; a literal status in a print_jobs write is a bypass.
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, test } from "vitest";
import { sourceFiles } from "./source-files";
import { JOB_STATUSES } from "../../app/domain/job-status";

const ROOT = resolve(__dirname, "../..");

const STATUS = JOB_STATUSES.join("|");

/** Each print_jobs write of a file (raw SQL UPDATE, drizzle update().set()) that names a status literally. */
export function literalStatusWrites(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/UPDATE\s+print_jobs\s+SET\s[^`"]*/gi)) {
    const sets = m[0].split(/\sWHERE\s/i)[0]!;
    if (new RegExp(`status\\s*=\\s*'(${STATUS})'`).test(sets)) found.push(m[0].trim());
  }
  for (const m of text.matchAll(/\.update\(printJobs\)\s*\.set\(([\s\S]*?)\)\s*\.where\(/g)) {
    if (new RegExp(`\\bstatus\\s*:\\s*["'\`](${STATUS})["'\`]`).test(m[1]!)) found.push(m[0].slice(0, 80));
  }
  return found;
}

test("the checker finds a literal status in either kind of write", () => {
  expect(
    literalStatusWrites(`sql: "UPDATE print_jobs SET status = 'confirmed', x = 1 WHERE id = ? AND status = 'accepted'"`),
  ).toHaveLength(1);
  expect(literalStatusWrites(`.update(printJobs)\n .set({ status: "submitted", a: 1 })\n .where(x)`)).toHaveLength(1);
  expect(literalStatusWrites(`sql: "UPDATE print_jobs SET status = ? WHERE id = ? AND status = 'draft'"`)).toEqual([]);
  expect(literalStatusWrites(`.update(printJobs).set({ status: transition.to }).where(x)`)).toEqual([]);
});

test("no code in app/ writes a job status the lifecycle table didn't give it", () => {
  const offenders = sourceFiles(join(ROOT, "app")).flatMap((file) =>
    literalStatusWrites(readFileSync(file, "utf8")).map((write) => `${relative(ROOT, file)}: ${write}`),
  );
  expect(offenders).toEqual([]);
});
