// The analysis benchmark's CPU budget: every format's largest case (1M triangles, or the upload limit) within 400 ms.

/** CPU ms one analysis of the largest case of each format may take. */
export const ANALYSIS_CPU_BUDGET_MS = 400;

/** Bench file suffixes, in the order the benchmark measures them. */
export type BenchFormat = "stl" | "ascii.stl" | "obj" | "3mf";

/** CPU ms of the largest case before the speed work on the text formats and 3MF, printed beside today's figure. */
export const BASELINE_CPU_MS: Record<BenchFormat, number> = { stl: 368, "ascii.stl": 232, obj: 466, "3mf": 536 };

/** Several measurements of one case on a shared machine: other work only ever adds CPU time, so the lowest is kept. */
export function bestAttempt<T extends { cpuMs: number }>(attempts: Array<T | null>): T | null {
  let best: T | null = null;
  for (const a of attempts) if (a && (best === null || a.cpuMs < best.cpuMs)) best = a;
  return best;
}

export interface BudgetRow {
  format: BenchFormat;
  /** the kept CPU ms, or null when every measurement failed */
  cpuMs: number | null;
}

/** Why the benchmark fails: each format over the budget or not measured at all (empty when all are within it). */
export function budgetFailures(rows: BudgetRow[], budgetMs = ANALYSIS_CPU_BUDGET_MS): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.cpuMs === null) out.push(`${r.format}: not measured (its analysis failed)`);
    else if (r.cpuMs >= budgetMs) out.push(`${r.format}: ${r.cpuMs.toFixed(0)} ms CPU, over the ${budgetMs} ms budget`);
  }
  return out;
}

/** The figure as the table prints it: today's CPU ms with its verdict, then the baseline. */
export function budgetCell(format: BenchFormat, cpuMs: number | null, budgetMs = ANALYSIS_CPU_BUDGET_MS): string {
  const now = cpuMs === null ? "failed" : `${cpuMs.toFixed(0)} ${cpuMs < budgetMs ? "PASS" : "FAIL"}`;
  return `${now} (was ${BASELINE_CPU_MS[format]})`;
}
