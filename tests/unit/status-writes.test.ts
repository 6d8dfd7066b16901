// The lifecycle tables are the one authority on a job's and a claim's status: no code writes a status it
// names itself. transitionJob writes the job table row's `to` (and undoAccept its `from`), placing an order
// writes the table's draft → submitted row; every claim step writes its claim table row's `to`
// (domain/claims.ts). A literal status in a print_jobs or claims write is a bypass.
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, test } from "vitest";
import { sourceFiles } from "./source-files";
import { CLAIM_STATUSES } from "../../app/domain/claims";
import { JOB_STATUSES } from "../../app/domain/job-status";

const ROOT = resolve(__dirname, "../..");

const STATUS = JOB_STATUSES.join("|");
const CLAIM_STATUS = CLAIM_STATUSES.join("|");

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

/** Each claims write of a file (raw SQL UPDATE or INSERT, drizzle update().set() or insert().values()) that names a status literally. */
export function literalClaimStatusWrites(text: string): string[] {
  const found: string[] = [];
  const literal = new RegExp(`'(${CLAIM_STATUS})'`);
  for (const m of text.matchAll(/UPDATE\s+claims\s+SET\s[^`"]*/gi)) {
    const sets = m[0].split(/\sWHERE\s/i)[0]!;
    if (new RegExp(`status\\s*=\\s*'(${CLAIM_STATUS})'`).test(sets)) found.push(m[0].trim());
  }
  for (const m of text.matchAll(/INSERT\s+INTO\s+claims\b[^`"]*/gi)) {
    if (literal.test(m[0].split(/\sON\s+CONFLICT\s/i)[0]!)) found.push(m[0].trim().slice(0, 80));
  }
  for (const m of text.matchAll(
    /\.(?:update\(claims\)\s*\.set|insert\(claims\)\s*\.values)\(([\s\S]*?)\)\s*\.(?:where|returning|onConflict\w*)\(/g,
  )) {
    if (new RegExp(`\\bstatus\\s*:\\s*["'\`](${CLAIM_STATUS})["'\`]`).test(m[1]!)) found.push(m[0].slice(0, 80));
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

test("the claim checker finds a literal status in any kind of claims write", () => {
  expect(literalClaimStatusWrites(`sql: "UPDATE claims SET status = 'escalated', x = ? WHERE status = 'open'"`)).toHaveLength(1);
  expect(
    literalClaimStatusWrites(`"INSERT INTO claims (job_id, status) VALUES (?, 'open') ON CONFLICT DO NOTHING"`),
  ).toHaveLength(1);
  expect(literalClaimStatusWrites(`.update(claims)\n .set({ status: "resolved", a: 1 })\n .where(x)`)).toHaveLength(1);
  expect(literalClaimStatusWrites(`.insert(claims)\n .values({ jobId, status: "open" })\n .onConflictDoNothing()`)).toHaveLength(
    1,
  );
  expect(literalClaimStatusWrites(`"UPDATE claims SET payout_requested_at = NULL WHERE status = 'resolved'"`)).toEqual([]);
  expect(literalClaimStatusWrites(`.update(claims).set({ ...set, status: to }).where(x)`)).toEqual([]);
  expect(literalClaimStatusWrites(`.insert(claims).values({ jobId, status: report.to }).onConflictDoNothing()`)).toEqual([]);
});

test("no code in app/ writes a claim status the claim step table didn't give it", () => {
  const offenders = sourceFiles(join(ROOT, "app")).flatMap((file) =>
    literalClaimStatusWrites(readFileSync(file, "utf8")).map((write) => `${relative(ROOT, file)}: ${write}`),
  );
  expect(offenders).toEqual([]);
});

test("no code in app/ writes a job status the lifecycle table didn't give it", () => {
  const offenders = sourceFiles(join(ROOT, "app")).flatMap((file) =>
    literalStatusWrites(readFileSync(file, "utf8")).map((write) => `${relative(ROOT, file)}: ${write}`),
  );
  expect(offenders).toEqual([]);
});
