// The print settings of a design (document 001 §9): the one schema the upload page, the API and the server share.
import { getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { z } from "zod";
import { COLOR_NAMES, UPLOAD_COLORS, UPLOAD_MATERIALS } from "~/domain/materials";
import { layerHeightBucket } from "~/domain/mesh/fallback";
import type { MeshErrorCode } from "~/domain/mesh/errors";
import type { AnalysisResult, MeshFormat } from "~/domain/mesh/types";
import { MAX_COLORS, MIN_COLORS } from "~/domain/pricing";

export const DESIGN_EXTENSIONS = [".stl", ".obj", ".3mf"] as const;
export { MAX_DESIGN_BYTES as MAX_DESIGN_FILE_BYTES } from "~/domain/upload-limits";
export const LAYER_HEIGHTS = [0.1, 0.2, 0.3] as const;
export const INFILL_OPTIONS = [10, 15, 20, 30, 50, 100] as const;
export const SUPPORT_OPTIONS = [
  { value: "no", label: "No supports" },
  { value: "auto", label: "Auto (where needed)" },
  { value: "yes", label: "Everywhere" },
] as const;
export const DELIVERY_OPTIONS = [
  { value: "pickup", label: "Local pickup" },
  { value: "delivery", label: "Local delivery (+$5.00)" },
  { value: "shipping", label: "USPS shipping" },
] as const;

export const DESIGN_DEFAULTS = {
  material: "PLA",
  filamentColor: "Black",
  layerHeight: 0.2,
  infill: 20,
  supports: "auto",
  numberOfColors: 1,
  deliveryMethod: "pickup",
  specialInstructions: "",
  printTimeMinutes: 60,
} as const;

export const MESSAGES = {
  invalidType: "Invalid file type. Only STL, OBJ, and 3MF files are allowed.",
  tooLarge: "File size exceeds 50MB limit",
  fileRequiredTitle: "File Required",
  fileRequiredUpload: "Please select a 3D file to upload.",
  fileRequiredDraft: "Please select a 3D file to save as draft.",
  analysisWarningTitle: "Analysis Warning",
  analysisWarning: "Using basic estimation. Upload will still work.",
  chooseAgain: "Your settings are kept; please choose the file again.",
} as const;

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
  // the issue names these as bad files to refuse, not flaws to estimate around
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
      supports: "no" | "auto" | "yes";
      /** the engine's message, shown to the owner of the draft */
      reason: string;
    };

export function extensionAllowed(fileName: string): boolean {
  const lower = fileName.trim().toLowerCase();
  return DESIGN_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** "0.2" → "normal" as document 001's quality presets name it. */
export function qualityForLayerHeight(layerHeight: number): "fine" | "normal" | "draft" {
  const bucket = layerHeightBucket(layerHeight);
  return bucket === 0.1 ? "fine" : bucket === 0.3 ? "draft" : "normal";
}

const oneOf = <T extends string>(values: readonly T[], message: string) =>
  z.string({ required_error: message }).refine((v): v is T => (values as readonly string[]).includes(v), message);

/** conform coerces the form's strings; missing fields take document 001's defaults. */
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
  supports: z.enum(["no", "auto", "yes"], { errorMap: () => ({ message: "Supports must be no, auto or yes." }) }).default("auto"),
  numberOfColors: z
    .number({ invalid_type_error: "Number of colours must be a whole number." })
    .int("Number of colours must be a whole number.")
    .min(MIN_COLORS, `Number of colours must be from ${MIN_COLORS} to ${MAX_COLORS}.`)
    .max(MAX_COLORS, `Number of colours must be from ${MIN_COLORS} to ${MAX_COLORS}.`)
    .default(DESIGN_DEFAULTS.numberOfColors),
  deliveryMethod: z
    .enum(["pickup", "delivery", "shipping"], { errorMap: () => ({ message: "Delivery must be pickup, delivery or shipping." }) })
    .default("pickup"),
  specialInstructions: z.string().trim().max(1000, "Special instructions can be at most 1000 characters.").optional(),
  printerId: z.number({ invalid_type_error: "Printer must be a printer id." }).int().positive().optional(),
});
export type DesignSettingsInput = z.input<typeof DesignSettingsSchema>;
export type DesignSettings = z.output<typeof DesignSettingsSchema>;

type SettingsFields = {
  [K in keyof DesignSettingsInput]-?: FieldMetadata<DesignSettingsInput[K], DesignSettingsInput, string[]>;
};

const selectClass = "input";

/** The Print Settings fieldset; plain selects so it posts the same with or without JavaScript. */
export function DesignSettingsFields({ fields, disabled }: { fields: SettingsFields; disabled?: boolean }) {
  const error = (name: keyof SettingsFields) => fields[name].errors?.[0];
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">Print Settings</legend>
      <div>
        <label className="label" htmlFor={fields.material.id}>
          Material
        </label>
        <select className={selectClass} {...getSelectProps(fields.material)}>
          {UPLOAD_MATERIALS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <p className="field-error">{error("material")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.filamentColor.id}>
          Color
        </label>
        <select className={selectClass} {...getSelectProps(fields.filamentColor)}>
          {UPLOAD_COLORS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <p className="field-error">{error("filamentColor")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.layerHeight.id}>
          Layer height
        </label>
        <select className={selectClass} {...getSelectProps(fields.layerHeight)}>
          {LAYER_HEIGHTS.map((h) => (
            <option key={h} value={String(h)}>
              {h} mm ({qualityForLayerHeight(h)})
            </option>
          ))}
        </select>
        <p className="field-error">{error("layerHeight")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.infill.id}>
          Infill
        </label>
        <select className={selectClass} {...getSelectProps(fields.infill)}>
          {INFILL_OPTIONS.map((i) => (
            <option key={i} value={String(i)}>
              {i}%
            </option>
          ))}
        </select>
        <p className="field-error">{error("infill")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.supports.id}>
          Supports
        </label>
        <select className={selectClass} {...getSelectProps(fields.supports)}>
          {SUPPORT_OPTIONS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <p className="field-error">{error("supports")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.numberOfColors.id}>
          Colors in the print
        </label>
        <select className={selectClass} {...getSelectProps(fields.numberOfColors)}>
          {Array.from({ length: MAX_COLORS }, (_, k) => k + 1).map((n) => (
            <option key={n} value={String(n)}>
              {n === 1 ? "1 (single colour)" : `${n} colours`}
            </option>
          ))}
        </select>
        <p className="field-error">{error("numberOfColors")}</p>
      </div>
      <div>
        <label className="label" htmlFor={fields.deliveryMethod.id}>
          Delivery
        </label>
        <select className={selectClass} {...getSelectProps(fields.deliveryMethod)}>
          {DELIVERY_OPTIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
        <p className="field-error">{error("deliveryMethod")}</p>
      </div>
      <div className="sm:col-span-2">
        <label className="label" htmlFor={fields.specialInstructions.id}>
          Special instructions (optional)
        </label>
        <textarea
          className="input min-h-20"
          {...getTextareaProps(fields.specialInstructions)}
          placeholder="Anything the printer owner should know"
        />
        <p className="field-error">{error("specialInstructions")}</p>
      </div>
    </fieldset>
  );
}
