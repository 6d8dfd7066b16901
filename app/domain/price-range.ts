// What a design costs before a printer is chosen: the range over the printers near the customer
// that can print it, each at its own rate through the one price engine (app/domain/pricing.ts).
// Without a location (a visitor, or no ZIP code on the profile) the range is over every available
// printer, and the text says so rather than "near you". The platform default rate stands in only
// when no printer can print it, and the page says so.
import { formatCents } from "./money";
import { isDesignCompatible, type FitDesign, type FitPrinter } from "./printer-fit";
import { quotePrice, type QuoteInput } from "./pricing";

/** "near": the printers within the radius of the customer's location; "anywhere": no location was known. */
export type RangeScope = "near" | "anywhere";

export type PriceRange =
  | { kind: "printers"; minCents: number; maxCents: number; printerCount: number; scope: RangeScope }
  | { kind: "platform"; cents: number; scope: RangeScope };

/** The printers' rates a range is taken over, and whether they are the ones near the customer. */
export interface RangeRates {
  rates: number[];
  scope: RangeScope;
}

/** The range of totals at the given printers' rates; the platform default when the list is empty. */
export function priceRange({ rates, scope }: RangeRates, design: Omit<QuoteInput, "ratePerKgCents">): PriceRange {
  if (rates.length === 0) return { kind: "platform", cents: quotePrice(design).customerPays, scope };
  const totals = rates.map((ratePerKgCents) => quotePrice({ ...design, ratePerKgCents }).customerPays);
  return { kind: "printers", minCents: Math.min(...totals), maxCents: Math.max(...totals), printerCount: rates.length, scope };
}

/**
 * "from $2.60 to $3.40 at 2 printers near you", "$2.60 at 1 printer near you"; without a location
 * "from $2.00 to $3.40 at 3 printers anywhere (add your ZIP code to see those near you)".
 */
export function priceRangeText(range: PriceRange): string {
  if (range.kind === "platform") {
    return range.scope === "near"
      ? `${formatCents(range.cents)} at the platform rate: no printer near you can print this yet`
      : `${formatCents(range.cents)} at the platform rate: no printer can print this yet`;
  }
  const printers = `${range.printerCount} ${range.printerCount === 1 ? "printer" : "printers"}`;
  const where =
    range.scope === "near" ? `at ${printers} near you` : `at ${printers} anywhere (add your ZIP code to see those near you)`;
  if (range.minCents === range.maxCents) return `${formatCents(range.minCents)} ${where}`;
  return `from ${formatCents(range.minCents)} to ${formatCents(range.maxCents)} ${where}`;
}

/** A design's price on a card: the chosen printer's total, or the range before one is chosen. */
export type DesignPrice = { kind: "printer"; cents: number; printerName: string } | PriceRange;

/** "$3.24 at Maker Hub", or the range's text. */
export function designPriceText(price: DesignPrice): string {
  return price.kind === "printer" ? `${formatCents(price.cents)} at ${price.printerName}` : priceRangeText(price);
}

/** The rates of the printers that can print a design, by the printer search's rules (size, material, colour and stock). */
export function ratesOfPrintersFor(
  printers: ReadonlyArray<FitPrinter & { ratePerKgCents: number }>,
  design: FitDesign,
): number[] {
  return printers.filter((printer) => isDesignCompatible(printer, design).compatible).map((printer) => printer.ratePerKgCents);
}
