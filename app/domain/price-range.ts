// What a design costs before a printer is chosen: the range over the printers near the customer
// that can print it, each at its own rate through the one price engine (app/domain/pricing.ts).
// The platform default rate stands in only when no printer can print it, and the page says so.
import { formatCents } from "./money";
import { quotePrice, type QuoteInput } from "./pricing";

export type PriceRange =
  { kind: "printers"; minCents: number; maxCents: number; printerCount: number } | { kind: "platform"; cents: number };

/** The range of totals at the given printers' rates; the platform default when the list is empty. */
export function priceRange(rates: readonly number[], design: Omit<QuoteInput, "ratePerKgCents">): PriceRange {
  if (rates.length === 0) return { kind: "platform", cents: quotePrice(design).customerPays };
  const totals = rates.map((ratePerKgCents) => quotePrice({ ...design, ratePerKgCents }).customerPays);
  return { kind: "printers", minCents: Math.min(...totals), maxCents: Math.max(...totals), printerCount: rates.length };
}

/** "from $2.60 to $3.40 at 2 printers near you", "$2.60 at 1 printer near you". */
export function priceRangeText(range: PriceRange): string {
  if (range.kind === "platform") {
    return `${formatCents(range.cents)} at the platform rate: no printer near you can print this yet`;
  }
  const where = `at ${range.printerCount} ${range.printerCount === 1 ? "printer" : "printers"} near you`;
  if (range.minCents === range.maxCents) return `${formatCents(range.minCents)} ${where}`;
  return `from ${formatCents(range.minCents)} to ${formatCents(range.maxCents)} ${where}`;
}
