import { describe, expect, it } from "vitest";
import { formatGrams } from "./grams";
import { roundGrams } from "./mesh/fallback";

describe("formatGrams", () => {
  it("shows a part under 10 g to 0.01 g", () => {
    expect(formatGrams(3.914)).toBe("3.91");
    expect(formatGrams(1.4)).toBe("1.40");
    expect(formatGrams(9.994)).toBe("9.99");
  });

  it("shows heavier parts to 0.1 g", () => {
    expect(formatGrams(21.04)).toBe("21");
    expect(formatGrams(10.26)).toBe("10.3");
    expect(formatGrams(1234.56)).toBe("1,234.6");
  });

  it("agrees with the engine's rounding", () => {
    for (const g of [0.123, 2.345, 7.777, 12.34, 99.95]) expect(Number(formatGrams(g).replaceAll(",", ""))).toBe(roundGrams(g));
  });
});
