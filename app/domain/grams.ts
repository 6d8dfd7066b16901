// Grams as every page shows them: the engine's rounding (to 0.01 g below 10 g, to 0.1 g above),
// written out, so a 3.91 g part reads "3.91 g" wherever it appears.
import { roundGrams } from "./mesh/fallback";

// made once: a NumberFormat per call (toLocaleString) costs in every list's render
const SMALL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const LARGE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** 3.914 → "3.91", 3.9 → "3.90", 21.04 → "21", 1234.56 → "1,234.6" (the number, without the unit). */
export function formatGrams(grams: number): string {
  const rounded = roundGrams(grams);
  return rounded < 10 ? SMALL.format(rounded) : LARGE.format(rounded);
}
