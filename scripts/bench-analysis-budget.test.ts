import { describe, expect, it } from "vitest";
import { BASELINE_CPU_MS, bestAttempt, budgetCell, budgetFailures } from "./bench-analysis-budget";

describe("analysis benchmark budget", () => {
  it("keeps the lowest of several measurements and ignores failed ones", () => {
    expect(bestAttempt([{ cpuMs: 420 }, null, { cpuMs: 371 }, { cpuMs: 389 }])).toEqual({ cpuMs: 371 });
    expect(bestAttempt([null, null])).toBeNull();
  });

  it("fails a format at or over 400 ms and one that could not be measured, and nothing else", () => {
    expect(
      budgetFailures([
        { format: "stl", cpuMs: 399.4 },
        { format: "ascii.stl", cpuMs: 400 },
        { format: "obj", cpuMs: null },
        { format: "3mf", cpuMs: 536 },
      ]),
    ).toEqual([
      "ascii.stl: 400 ms CPU, over the 400 ms budget",
      "obj: not measured (its analysis failed)",
      "3mf: 536 ms CPU, over the 400 ms budget",
    ]);
    expect(budgetFailures([{ format: "obj", cpuMs: 350 }])).toEqual([]);
  });

  it("prints today's figure with its verdict beside the figure before the speed work", () => {
    expect(budgetCell("obj", 352.4)).toBe(`352 PASS (was ${BASELINE_CPU_MS.obj})`);
    expect(budgetCell("3mf", 512)).toBe("512 FAIL (was 536)");
    expect(budgetCell("stl", null)).toBe("failed (was 368)");
  });
});
