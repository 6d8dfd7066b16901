// The print settings of a design: the one schema, options and messages the upload
// page, the API and the server share, and the refusal policy for files the engine cannot read.
import { z } from "zod";
import { COLOR_NAMES, UPLOAD_MATERIALS } from "./materials";
import { layerHeightBucket, layerHeightForQuality } from "./mesh/fallback";
import { INVALID_FILE_TYPE_MESSAGE, type MeshErrorCode } from "./mesh/errors";
import { MESH_FORMATS, SUPPORT_MODES, type AnalysisResult, type MeshFormat, type SupportsMode } from "./mesh/types";
import { DESIGN_UNITS, MAX_SCALE_PERCENT, MIN_SCALE_PERCENT } from "./design-scale";
import { DELIVERY_METHODS, MAX_COLORS, MAX_QUANTITY, MIN_COLORS, MIN_QUANTITY } from "./pricing";
import { PRINT_DEFAULTS } from "./print-defaults";

export { MAX_DESIGN_BYTES } from "./upload-limits";

/** The file input's accept list: one extension per printable format. */
export const DESIGN_EXTENSIONS = MESH_FORMATS.map((format) => `.${format}`);
export const LAYER_HEIGHTS = [0.1, 0.2, 0.3] as const;
export const INFILL_OPTIONS = [10, 15, 20, 30, 50, 100] as const;
export const SUPPORT_OPTIONS: ReadonlyArray<{ value: SupportsMode; label: string }> = [
  { value: "no", label: "No supports" },
  { value: "auto", label: "Auto (where needed)" },
  { value: "yes", label: "Everywhere" },
];
export const DELIVERY_OPTIONS: ReadonlyArray<{ value: (typeof DELIVERY_METHODS)[number]; label: string }> = [
  { value: "pickup", label: "Local pickup" },
  { value: "delivery", label: "Local delivery (+$5.00)" },
  { value: "shipping", label: "USPS shipping" },
];

export const DESIGN_DEFAULTS = {
  material: PRINT_DEFAULTS.material,
  filamentColor: "Black",
  layerHeight: PRINT_DEFAULTS.layerHeight,
  infill: PRINT_DEFAULTS.infill,
  supports: PRINT_DEFAULTS.supports,
  numberOfColors: 1,
  quantity: 1,
  units: "mm",
  scalePercent: 100,
  deliveryMethod: "pickup",
  specialInstructions: "",
  printTimeMinutes: 60,
} as const;

export const QUANTITY_MESSAGE = `Copies must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}.`;
export const SCALE_MESSAGE = `Scale must be a whole percentage from ${MIN_SCALE_PERCENT} to ${MAX_SCALE_PERCENT}%.`;

/** Copies of one design in one order, as every form and the API take them. */
export const QuantitySchema = z
  .number({ invalid_type_error: QUANTITY_MESSAGE })
  .int(QUANTITY_MESSAGE)
  .min(MIN_QUANTITY, QUANTITY_MESSAGE)
  .max(MAX_QUANTITY, QUANTITY_MESSAGE);

export const MESSAGES = {
  invalidType: INVALID_FILE_TYPE_MESSAGE,
  tooLarge: "File size exceeds 50MB limit",
  fileRequiredTitle: "File Required",
  fileRequiredUpload: "Please select a 3D file to upload.",
  fileRequiredDraft: "Please select a 3D file to save as draft.",
  printerOffline: "That printer is offline and not taking orders right now. Please choose another one.",
  analysisWarningTitle: "Analysis Warning",
  analysisWarning: "Using basic estimation. Upload will still work.",
  chooseAgain: "Your settings are kept; please choose the file again.",
  keepsFile: "The draft keeps its current file.",
} as const;

export type DesignIntent = "save" | "submit";

/** The title of a refused post, as the page's alert and the API's answer name it. */
export function designFailureTitle(intent: DesignIntent, editing: boolean): string {
  if (intent === "submit") return "Upload Failed";
  return editing ? "Failed to Update Draft" : "Failed to Save Draft";
}

/** A refused design post as conform's result carries it: what was posted and each field's errors. */
export interface DesignRefusal {
  status?: string;
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null | undefined> | null;
}

/**
 * The alert above the form after a refused post, read from its result: its first error (a file
 * error without the hint on what happens to the file), titled by what was posted.
 */
export function designAlertOf(
  result: DesignRefusal | null | undefined,
  editing: boolean,
): { title: string; message: string } | null {
  const first = Object.values(result?.error ?? {})
    .flat()
    .find(Boolean);
  if (result?.status !== "error" || !first) return null;
  if (first === MESSAGES.fileRequiredDraft || first === MESSAGES.fileRequiredUpload) {
    return { title: MESSAGES.fileRequiredTitle, message: first };
  }
  const hint = [MESSAGES.keepsFile, MESSAGES.chooseAgain].find((h) => first.endsWith(` ${h}`));
  const intent = result.initialValue?.intent === "submit" ? "submit" : "save";
  return { title: designFailureTitle(intent, editing), message: hint ? first.slice(0, -hint.length - 1) : first };
}

/**
 * Files the engine cannot read are refused when they are not what their name says, are incomplete,
 * or are built to exhaust the reader; any other parse failure gets the size-based estimate (ADR 008).
 */
export const REFUSED_MESH_ERRORS: ReadonlySet<MeshErrorCode> = new Set<MeshErrorCode>([
  "invalid-type",
  "empty",
  "truncated",
  "bad-package",
  "dtd",
  "too-many-entries",
  "zip-bomb",
  "too-many-triangles",
  "bad-option",
  // bad files to refuse, not flaws to estimate around
  "bad-number",
  "missing-vertex",
]);

/** What a draft keeps in print_jobs.analysis: the engine's result, or the size-based estimate and why. */
export type DesignAnalysis =
  | ({ method: "mesh" } & AnalysisResult)
  | {
      method: "file-size";
      estimatedWeight: number;
      estimatedTimeMinutes: number;
      numberOfColors: 1;
      fileFormat: MeshFormat;
      material: string;
      infillDensity: number;
      layerHeight: number;
      supports: SupportsMode;
      /** the engine's message, shown to the owner of the draft */
      reason: string;
    };

export function extensionAllowed(fileName: string): boolean {
  const lower = fileName.trim().toLowerCase();
  return DESIGN_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** "0.2" → "normal": the quality preset a layer height is named by. */
export function qualityForLayerHeight(layerHeight: number): "fine" | "normal" | "draft" {
  const bucket = layerHeightBucket(layerHeight);
  return bucket === 0.1 ? "fine" : bucket === 0.3 ? "draft" : "normal";
}

const oneOf = <T extends string>(values: readonly T[], message: string) =>
  z.string({ required_error: message }).refine((v): v is T => (values as readonly string[]).includes(v), message);

/** conform coerces the form's strings; missing fields take the defaults above. */
export const DesignSettingsSchema = z.object({
  intent: z.enum(["save", "submit"]).default("save"),
  material: oneOf(UPLOAD_MATERIALS, "Please choose PLA, PETG, ABS or TPU.").default(DESIGN_DEFAULTS.material),
  filamentColor: oneOf(COLOR_NAMES, "Please choose a colour from the list.").default(DESIGN_DEFAULTS.filamentColor),
  layerHeight: z
    .number({ invalid_type_error: "Layer height must be a number of millimetres." })
    .min(0.05, "Layer height must be between 0.05 and 0.4 mm.")
    .max(0.4, "Layer height must be between 0.05 and 0.4 mm.")
    .transform(layerHeightBucket)
    .default(DESIGN_DEFAULTS.layerHeight),
  infill: z
    .number({ invalid_type_error: "Infill must be a whole percentage." })
    .int("Infill must be a whole percentage.")
    .min(0, "Infill must be between 0 and 100%.")
    .max(100, "Infill must be between 0 and 100%.")
    .default(DESIGN_DEFAULTS.infill),
  supports: z
    .enum(SUPPORT_MODES, { errorMap: () => ({ message: "Supports must be no, auto or yes." }) })
    .default(DESIGN_DEFAULTS.supports),
  numberOfColors: z
    .number({ invalid_type_error: "Number of colours must be a whole number." })
    .int("Number of colours must be a whole number.")
    .min(MIN_COLORS, `Number of colours must be from ${MIN_COLORS} to ${MAX_COLORS}.`)
    .max(MAX_COLORS, `Number of colours must be from ${MIN_COLORS} to ${MAX_COLORS}.`)
    .default(DESIGN_DEFAULTS.numberOfColors),
  quantity: QuantitySchema.default(DESIGN_DEFAULTS.quantity),
  units: z.enum(DESIGN_UNITS, { errorMap: () => ({ message: "Units must be mm, cm or inch." }) }).default(DESIGN_DEFAULTS.units),
  scalePercent: z
    .number({ invalid_type_error: SCALE_MESSAGE })
    .int(SCALE_MESSAGE)
    .min(MIN_SCALE_PERCENT, SCALE_MESSAGE)
    .max(MAX_SCALE_PERCENT, SCALE_MESSAGE)
    .default(DESIGN_DEFAULTS.scalePercent),
  deliveryMethod: z
    .enum(DELIVERY_METHODS, { errorMap: () => ({ message: "Delivery must be pickup, delivery or shipping." }) })
    .default(DESIGN_DEFAULTS.deliveryMethod),
  specialInstructions: z.string().trim().max(1000, "Special instructions can be at most 1000 characters.").optional(),
  printerId: z.number({ invalid_type_error: "Printer must be a printer id." }).int().positive().optional(),
});
export type DesignSettingsInput = z.input<typeof DesignSettingsSchema>;
export type DesignSettings = z.output<typeof DesignSettingsSchema>;

/** The JSON API sends the settings as printSettings JSON; the page sends flat fields. Flat fields win. */
export function flattenPrintSettings(fields: FormData): FormData {
  const raw = fields.get("printSettings");
  if (typeof raw !== "string" || raw.trim() === "") return fields;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fields;
  }
  if (!parsed || typeof parsed !== "object") return fields;
  const settings = parsed as Record<string, unknown>;
  const setIfMissing = (name: string, value: unknown) => {
    if (fields.has(name) || value === undefined || value === null) return;
    fields.set(name, String(value));
  };
  const supports = settings.supports;
  setIfMissing("supports", typeof supports === "boolean" ? (supports ? "yes" : "no") : supports);
  setIfMissing("infill", settings.infill ?? settings.infillDensity);
  setIfMissing("numberOfColors", settings.numberOfColors);
  setIfMissing("quantity", settings.quantity);
  setIfMissing("units", settings.units);
  setIfMissing("scalePercent", settings.scalePercent);
  if (settings.layerHeight !== undefined) setIfMissing("layerHeight", settings.layerHeight);
  else if (typeof settings.quality === "string") setIfMissing("layerHeight", layerHeightForQuality(settings.quality));
  return fields;
}

/** The form's values for a new design. */
export const NEW_DESIGN_SETTINGS = {
  material: DESIGN_DEFAULTS.material,
  filamentColor: DESIGN_DEFAULTS.filamentColor,
  layerHeight: String(DESIGN_DEFAULTS.layerHeight),
  infill: String(DESIGN_DEFAULTS.infill),
  supports: DESIGN_DEFAULTS.supports,
  numberOfColors: String(DESIGN_DEFAULTS.numberOfColors),
  quantity: String(DESIGN_DEFAULTS.quantity),
  units: DESIGN_DEFAULTS.units,
  scalePercent: String(DESIGN_DEFAULTS.scalePercent),
  deliveryMethod: DESIGN_DEFAULTS.deliveryMethod,
  specialInstructions: "",
};
