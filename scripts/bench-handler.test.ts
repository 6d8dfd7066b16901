import { describe, expect, it } from "vitest";
import { lowestAndMedian, pairedRatios } from "./bench-handler";

describe("bench:handler --compare", () => {
  it("divides each batch of the other build by the batch of this build that ran beside it", () => {
    // the machine slows down from batch to batch; the other build is 10 % slower in every pair
    const here = [1, 2, 3, 4, 5];
    const ratio = pairedRatios(
      here,
      here.map((t) => t * 1.1),
    );
    expect(ratio.median).toBeCloseTo(1.1, 10);
    expect(ratio.low).toBeCloseTo(1.1, 10);
    expect(ratio.high).toBeCloseTo(1.1, 10);
  });

  it("is not misled by one fast moment of the machine, where the lowest batches are", () => {
    // the machine was fast during this build's first batch only; otherwise the other build is 10 % slower
    const here = [1, 3, 3, 3, 3];
    const other = [3.3, 3.3, 3.3, 3.3, 3.3];
    expect(lowestAndMedian(other).minMs / lowestAndMedian(here).minMs).toBeCloseTo(3.3, 10);
    expect(pairedRatios(here, other).median).toBeCloseTo(1.1, 10);
  });

  it("gives the median and the quartiles of the ratios, whatever order the batches ran in", () => {
    const here = [2, 2, 2, 2, 2];
    const other = [3, 1, 2, 4, 2.2];
    // ratios 1.5, 0.5, 1, 2, 1.1 sorted: 0.5, 1, 1.1, 1.5, 2
    expect(pairedRatios(here, other)).toEqual({ median: 1.1, low: 1, high: 1.5 });
  });

  it("refuses batches that do not pair up", () => {
    expect(() => pairedRatios([1, 2], [1])).toThrow(/equal/);
    expect(() => pairedRatios([], [])).toThrow(/non-empty/);
  });

  it("reports the lowest and the lower median of per-request times", () => {
    expect(lowestAndMedian([5, 3, 9, 1])).toEqual({ minMs: 1, medianMs: 3 });
  });
});
