// What the upload page's panels show: the browser's live reading of a file when there is one, else the
// draft's stored analysis, priced at the chosen printer's rate and as a range over the printers nearby.
import type { DesignAnalysis } from "~/domain/design-settings";
import { priceRange, type PriceRange, type RangeRates } from "~/domain/price-range";
import { quotePrice, type PriceQuote } from "~/domain/pricing";

export type LiveAnalysis =
  | { status: "idle" }
  | { status: "reading"; fileName: string; fileSize: number }
  | { status: "done"; fileName: string; fileSize: number; analysis: DesignAnalysis }
  | { status: "refused"; fileName: string; message: string };

interface DraftShown {
  analysis: DesignAnalysis | null;
  fileName: string;
  fileSize: number;
  quote: PriceQuote | null;
  printTimeMinutes: number | null;
}

export function shownDesign(
  live: LiveAnalysis,
  draft: DraftShown | null | undefined,
  {
    numberOfColors,
    ratePerKgCents,
    nearbyRates,
  }: { numberOfColors: number; ratePerKgCents: number; nearbyRates: RangeRates | null },
): {
  shown: { analysis: DesignAnalysis; fileName: string; fileSize: number } | null;
  quote: PriceQuote | null;
  liveQuote: PriceQuote | null;
  range: PriceRange | null;
} {
  const shown: { analysis: DesignAnalysis; fileName: string; fileSize: number } | null =
    live.status === "done"
      ? { analysis: live.analysis, fileName: live.fileName, fileSize: live.fileSize }
      : draft?.analysis && live.status !== "refused"
        ? { analysis: draft.analysis, fileName: draft.fileName, fileSize: draft.fileSize }
        : null;
  const liveQuote =
    live.status === "done"
      ? quotePrice({
          weightGrams: live.analysis.estimatedWeight,
          colors: numberOfColors,
          printTimeMinutes: live.analysis.estimatedTimeMinutes,
          ratePerKgCents,
        })
      : null;
  const quote = liveQuote ?? (draft && live.status !== "refused" ? draft.quote : null);
  // before a printer is chosen: the range over the printers near the customer that can print it
  const range =
    quote && nearbyRates
      ? priceRange(nearbyRates, {
          weightGrams: quote.estimatedWeight,
          colors: numberOfColors,
          printTimeMinutes: live.status === "done" ? live.analysis.estimatedTimeMinutes : (draft?.printTimeMinutes ?? null),
        })
      : null;
  return { shown, quote, liveQuote, range };
}
