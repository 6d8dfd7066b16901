// Copies, units and scale of a design (decision 038). The engine reads a file's numbers as millimetres (a 3MF's own
// unit is applied as it is read); the chosen unit and scale are a factor s on every length, given to the engine as
// its `scale` option, so the part is measured at its real size; the copies then multiply weight and time.
import type { DesignAnalysis } from "./design-settings";

export { MAX_QUANTITY, MIN_QUANTITY } from "./pricing";

export const DESIGN_UNITS = ["mm", "cm", "inch"] as const;
export type DesignUnit = (typeof DESIGN_UNITS)[number];

/** Millimetres in one of each unit. */
export const UNIT_MM: Record<DesignUnit, number> = { mm: 1, cm: 10, inch: 25.4 };
export const UNIT_OPTIONS: ReadonlyArray<{ value: DesignUnit; label: string }> = [
  { value: "mm", label: "Millimetres (mm)" },
  { value: "cm", label: "Centimetres (cm)" },
  { value: "inch", label: "Inches (in)" },
];
const UNIT_NAMES: Record<DesignUnit, string> = { mm: "millimetres", cm: "centimetres", inch: "inches" };

export const MIN_SCALE_PERCENT = 10;
export const MAX_SCALE_PERCENT = 1000;

/** A part smaller than this across, or larger, is implausible at its unit. */
export const PLAUSIBLE_MIN_MM = 3;
export const PLAUSIBLE_MAX_MM = 1000;

export interface DesignScale {
  units: DesignUnit;
  scalePercent: number;
}

export const DEFAULT_DESIGN_SCALE: DesignScale = { units: "mm", scalePercent: 100 };

/** A 3MF carries its own unit, so the chosen unit does not apply to it. */
export function unitApplies(format: string | null | undefined): boolean {
  return format !== "3mf";
}

/** s: the length factor from the file's numbers to millimetres at the chosen scale. */
export function scaleFactor(format: string | null | undefined, scale: DesignScale): number {
  const unit = unitApplies(format) ? UNIT_MM[scale.units] : 1;
  return (unit * scale.scalePercent) / 100;
}

export interface OrderFigures {
  /** one copy at its units and scale */
  copy: DesignAnalysis;
  /** every copy together */
  weightGrams: number;
  /** every copy together, whole minutes */
  printTimeMinutes: number;
  /** one copy, mm; null when only the file size was read */
  box: { x: number; y: number; z: number } | null;
}

/** What an order of `quantity` copies weighs and takes; the analysis was measured at the design's units and scale. */
export function orderFigures(copy: DesignAnalysis, quantity: number): OrderFigures {
  return {
    copy,
    // exact copies of the engine's grams; the rounding only strips float noise
    weightGrams: Math.round(copy.estimatedWeight * quantity * 1000) / 1000,
    printTimeMinutes: Math.max(1, Math.round(copy.estimatedTimeMinutes)) * quantity,
    box: copy.method === "mesh" ? copy.boundingBox : null,
  };
}

export interface UnitHint {
  /** the part's largest side at the chosen unit, mm */
  largestMm: number;
  tooSmall: boolean;
  /** the unit that gives it a usual size, if one does */
  suggested: DesignUnit | null;
  /** its largest side in the suggested unit, mm */
  suggestedMm: number | null;
}

/**
 * A part under 3 mm or over a metre across at its unit (scale aside) is likely drawn in another: inches first, the
 * usual mix-up. `analysis` was measured at `scale`.
 */
export function unitHint(analysis: DesignAnalysis, scale: DesignScale): UnitHint | null {
  if (analysis.method !== "mesh" || !unitApplies(analysis.fileFormat)) return null;
  const units = scale.units;
  const measured = Math.max(analysis.boundingBox.x, analysis.boundingBox.y, analysis.boundingBox.z);
  // the file's own numbers
  const raw = measured / scaleFactor(analysis.fileFormat, scale);
  if (!(raw > 0)) return null;
  const largestMm = raw * UNIT_MM[units];
  const tooSmall = largestMm < PLAUSIBLE_MIN_MM;
  if (!tooSmall && largestMm <= PLAUSIBLE_MAX_MM) return null;
  const order: DesignUnit[] = tooSmall ? ["inch", "cm"] : ["mm", "cm"];
  const suggested =
    order.find((unit) => unit !== units && raw * UNIT_MM[unit] >= PLAUSIBLE_MIN_MM && raw * UNIT_MM[unit] <= PLAUSIBLE_MAX_MM) ??
    null;
  return { largestMm, tooSmall, suggested, suggestedMm: suggested ? raw * UNIT_MM[suggested] : null };
}

const lengthText = (mm: number) => (mm >= 100 ? `${Math.round(mm)} mm` : `${Math.round(mm * 10) / 10} mm`);

/** "At millimetres this part is 2 mm across: is it drawn in inches? Then it is 50.8 mm across." */
export function unitHintText(hint: UnitHint, units: DesignUnit): string {
  const size = `In ${UNIT_NAMES[units]} this part is ${lengthText(hint.largestMm)} across${hint.tooSmall ? "" : ", over a metre"}.`;
  if (!hint.suggested || hint.suggestedMm === null) return `${size} Check the file's units and the scale.`;
  return `${size} Is it drawn in ${UNIT_NAMES[hint.suggested]}? Then it is ${lengthText(hint.suggestedMm)} across.`;
}

export function unitName(units: DesignUnit): string {
  return UNIT_NAMES[units];
}

/** "4 copies", "1 copy". */
export function copiesText(quantity: number): string {
  return `${quantity} ${quantity === 1 ? "copy" : "copies"}`;
}

export const SCALE_REFUSED_MESSAGE = "At these units and this scale the part is larger than every printer's build volume";
