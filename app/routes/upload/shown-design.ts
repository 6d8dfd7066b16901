// What the upload page's panels show: the browser's live reading of a file when there is one, else the
// draft's stored analysis (each measured at its units and scale), for the chosen copies, priced at the chosen printer's rate and as
// a range over the printers nearby that stock its material and colour.
import type { DesignAnalysis } from "~/domain/design-settings";
import {
  DEFAULT_DESIGN_SCALE,
  DESIGN_UNITS,
  MAX_SCALE_PERCENT,
  MIN_SCALE_PERCENT,
  orderFigures,
  scaleFactor,
  unitHint,
  unitHintText,
  type DesignScale,
  type DesignUnit,
} from "~/domain/design-scale";
import type { AnalysisOptions } from "~/domain/mesh/types";
import { MAX_QUANTITY, MIN_QUANTITY } from "~/domain/pricing";
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

export interface ShownChoices {
  numberOfColors: number;
  quantity: number;
  scale: DesignScale;
  ratePerKgCents: number;
  nearbyRates: RangeRates | null;
}

const wholeIn = (value: unknown, min: number, max: number): number | null => {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** The copies, units and scale the form holds now; a value still being typed keeps the saved one. */
export function designChoices(
  fields: { quantity: { value?: unknown }; units: { value?: unknown }; scalePercent: { value?: unknown } },
  saved: { quantity: string; units: string; scalePercent: string },
): { quantity: number; scale: DesignScale } {
  const pick = (value: unknown, fallback: string) => (value === undefined || value === "" ? fallback : value);
  const units = String(pick(fields.units.value, saved.units));
  return {
    quantity: wholeIn(pick(fields.quantity.value, saved.quantity), MIN_QUANTITY, MAX_QUANTITY) ?? (Number(saved.quantity) || 1),
    scale: {
      units: (DESIGN_UNITS as readonly string[]).includes(units) ? (units as DesignUnit) : DEFAULT_DESIGN_SCALE.units,
      scalePercent:
        wholeIn(pick(fields.scalePercent.value, saved.scalePercent), MIN_SCALE_PERCENT, MAX_SCALE_PERCENT) ??
        (Number(saved.scalePercent) || DEFAULT_DESIGN_SCALE.scalePercent),
    },
  };
}

/** The engine's options for this file: its units (unless a 3MF names its own) and scale as one length factor. */
export function engineOptions(
  { units, scalePercent, ...options }: AnalysisOptions & DesignScale,
  fileName: string,
): AnalysisOptions {
  const format = fileName.split(".").pop()?.toLowerCase() ?? null;
  return { ...options, scale: scaleFactor(format, { units, scalePercent }) };
}

export function shownDesign(
  live: LiveAnalysis,
  draft: DraftShown | null | undefined,
  { numberOfColors, quantity, scale, ratePerKgCents, nearbyRates }: ShownChoices,
): {
  shown: { analysis: DesignAnalysis; fileName: string; fileSize: number } | null;
  quote: PriceQuote | null;
  liveQuote: PriceQuote | null;
  range: PriceRange | null;
  hint: string | null;
} {
  const read =
    live.status === "done"
      ? { analysis: live.analysis, fileName: live.fileName, fileSize: live.fileSize }
      : draft?.analysis && live.status !== "refused"
        ? { analysis: draft.analysis, fileName: draft.fileName, fileSize: draft.fileSize }
        : null;
  const figures = read ? orderFigures(read.analysis, quantity) : null;
  const design = figures
    ? { weightGrams: figures.weightGrams, printTimeMinutes: figures.printTimeMinutes, colors: numberOfColors, quantity }
    : null;
  const computed = design ? quotePrice({ ...design, ratePerKgCents }) : null;
  const liveQuote = live.status === "done" ? computed : null;
  const quote = computed ?? (draft && live.status !== "refused" ? draft.quote : null);
  // before a printer is chosen: the range over the printers near the customer that can print it
  const range =
    quote && nearbyRates
      ? priceRange(
          nearbyRates,
          design ?? {
            weightGrams: quote.estimatedWeight,
            colors: numberOfColors,
            printTimeMinutes: draft?.printTimeMinutes ?? null,
            quantity: quote.quantity,
          },
        )
      : null;
  const found = read ? unitHint(read.analysis, scale) : null;
  return {
    shown: read && figures ? { ...read, analysis: figures.copy } : null,
    quote,
    liveQuote,
    range,
    hint: found ? unitHintText(found, scale.units) : null,
  };
}
