import { describe, expect, it } from "vitest";
import { priceRange, priceRangeText } from "./price-range";

const design = { weightGrams: 20, printTimeMinutes: 60, colors: 1 };

describe("priceRangeText", () => {
  it("says 'near you' only when the printers are those near the customer", () => {
    expect(priceRangeText(priceRange({ rates: [8000, 12000], scope: "near" }, design))).toBe(
      "from $2.60 to $3.40 at 2 printers near you",
    );
    expect(priceRangeText(priceRange({ rates: [8000, 12000], scope: "anywhere" }, design))).toBe(
      "from $2.60 to $3.40 at 2 printers anywhere (add your ZIP code to see those near you)",
    );
  });

  it("falls back to the platform rate, saying where no printer was found", () => {
    expect(priceRangeText(priceRange({ rates: [], scope: "near" }, design))).toBe(
      "$1.30 at the platform rate: no printer near you can print this yet",
    );
    expect(priceRangeText(priceRange({ rates: [], scope: "anywhere" }, design))).toBe(
      "$1.30 at the platform rate: no printer can print this yet",
    );
  });
});
