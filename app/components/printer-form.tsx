// The printer forms' schemas (document 001 §5) and shared fields: used by the pages, the browser and the JSON API.
import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { z } from "zod";
import { COLOR_NAMES, PRINTER_MATERIALS, type MaterialName } from "~/domain/materials";
import { CUSTOM_PRINTER_MODEL_NAME, findPrinterModel, PRINTER_MODELS } from "~/domain/printer-models";
import { ratePerKgCentsFromPricePerGram } from "~/domain/pricing";

export const MAX_BUILD_VOLUME_MM = 2000;
export const MAX_RATE_PER_KG_CENTS = 1_000_000;
export const MAX_STOCK_GRAMS = 100_000;

const MATERIAL_ENUM = PRINTER_MATERIALS as unknown as [MaterialName, ...MaterialName[]];

const requiredText = (message: string, max: number) =>
  z.string({ required_error: message }).trim().min(1, message).max(max, `Use at most ${max} characters`);

const buildVolume = (axis: "X" | "Y" | "Z") =>
  z
    .number({ required_error: `Build volume ${axis} is required`, invalid_type_error: `Build volume ${axis} must be a number` })
    .int(`Build volume ${axis} must be a whole number of millimetres`)
    .min(1, `Build volume ${axis} is required`)
    .max(MAX_BUILD_VOLUME_MM, `Build volume ${axis} can be at most ${MAX_BUILD_VOLUME_MM} mm`);

const pricePerGram = z
  .string({ required_error: "Price per gram is required" })
  .trim()
  .min(1, "Price per gram is required")
  .refine((v) => ratePerKgCentsFromPricePerGram(v) !== null, "Enter the price in dollars per gram, 0 or more, like 0.12")
  .refine((v) => (ratePerKgCentsFromPricePerGram(v) ?? 0) <= MAX_RATE_PER_KG_CENTS, "Price per gram can be at most $10.00");

const materials = z
  .array(z.enum(MATERIAL_ENUM, { errorMap: () => ({ message: "Choose materials from the list" }) }), {
    required_error: "At least one material is required",
  })
  .min(1, "At least one material is required")
  .transform((list) => [...new Set(list)]);

const latitude = z
  .number({ invalid_type_error: "Latitude must be a number" })
  .min(-90, "Latitude must be between -90 and 90")
  .max(90, "Latitude must be between -90 and 90")
  .optional();
const longitude = z
  .number({ invalid_type_error: "Longitude must be a number" })
  .min(-180, "Longitude must be between -180 and 180")
  .max(180, "Longitude must be between -180 and 180")
  .optional();

function bothOrNeither(value: { latitude?: number; longitude?: number }, ctx: z.RefinementCtx) {
  if ((value.latitude === undefined) !== (value.longitude === undefined)) {
    const path = value.latitude === undefined ? "latitude" : "longitude";
    ctx.addIssue({ code: "custom", path: [path], message: "Give both latitude and longitude, or leave both blank" });
  }
}

const photo = z.instanceof(File).optional();

/** The single fields, for the JSON API's partial updates. */
export const PRINTER_FIELDS = {
  name: requiredText("Printer name is required", 100),
  description: z.string().trim().max(1000, "Use at most 1000 characters").nullable().optional(),
  location: requiredText("Location is required", 200),
  pricePerGram,
  materials,
  latitude,
  longitude,
  isAvailable: z.boolean({ invalid_type_error: "isAvailable must be true or false" }).optional(),
};

/** The full add-printer form (document 001 §5). */
export const AddPrinterSchema = z
  .object({
    name: requiredText("Printer name is required", 100),
    model: z
      .string({ required_error: "Printer model is required" })
      .trim()
      .min(1, "Printer model is required")
      .refine((v) => findPrinterModel(v) !== undefined, "Choose a printer model from the list"),
    customModel: z.string().trim().max(100, "Use at most 100 characters").optional(),
    description: z.string().trim().max(1000, "Use at most 1000 characters").optional(),
    buildVolumeX: buildVolume("X"),
    buildVolumeY: buildVolume("Y"),
    buildVolumeZ: buildVolume("Z"),
    location: requiredText("Location is required", 200),
    pricePerGram,
    materials,
    latitude,
    longitude,
    isAvailable: z.boolean().optional(),
    image: photo,
  })
  .superRefine(bothOrNeither);
export type AddPrinterValues = z.infer<typeof AddPrinterSchema>;

/** Printer settings (document 001 §5): name and location required, price 0 or more, at least one material. */
export const PrinterSettingsSchema = z
  .object({
    name: requiredText("Printer name is required", 100),
    description: z.string().trim().max(1000, "Use at most 1000 characters").optional(),
    location: requiredText("Location is required", 200),
    pricePerGram,
    materials,
    latitude,
    longitude,
    isAvailable: z.boolean().optional(),
    image: photo,
    removeImage: z.boolean().optional(),
  })
  .superRefine(bothOrNeither);
export type PrinterSettingsValues = z.infer<typeof PrinterSettingsSchema>;

const COLOR_ENUM = COLOR_NAMES as unknown as [string, ...string[]];

export const InventorySchema = z.object({
  material: z.enum(MATERIAL_ENUM, { errorMap: () => ({ message: "Choose a material" }) }),
  color: z.enum(COLOR_ENUM, { errorMap: () => ({ message: "Choose a colour" }) }),
  grams: z
    .number({ required_error: "Enter the grams in stock", invalid_type_error: "Grams in stock must be a number" })
    .int("Grams in stock must be a whole number")
    .min(0, "Grams in stock cannot be negative")
    .max(MAX_STOCK_GRAMS, `Grams in stock can be at most ${MAX_STOCK_GRAMS}`),
});
export type InventoryValues = z.infer<typeof InventorySchema>;

export interface ModelPreset {
  buildVolumeX: string;
  buildVolumeY: string;
  buildVolumeZ: string;
  pricePerGram: string;
  materials: string[];
}

/** What choosing a known model fills in; null for Custom/Other and unknown names. */
export function modelPreset(name: string | null | undefined): ModelPreset | null {
  const model = findPrinterModel(name);
  if (!model?.buildVolume) return null;
  return {
    buildVolumeX: String(model.buildVolume.x),
    buildVolumeY: String(model.buildVolume.y),
    buildVolumeZ: String(model.buildVolume.z),
    pricePerGram: model.suggestedPricePerGramCents === null ? "" : (model.suggestedPricePerGramCents / 100).toFixed(2),
    materials: [...model.defaultMaterials],
  };
}

const VOLUME_FIELDS = ["buildVolumeX", "buildVolumeY", "buildVolumeZ"] as const;

/**
 * The server's half of the model preset: a known model's volume is locked to the catalogue's, and a form
 * posted without volumes (no JavaScript filled them) also gets the suggested price and default materials.
 */
export function applyModelPreset(form: FormData): FormData {
  const model = findPrinterModel(String(form.get("model") ?? ""));
  const preset = modelPreset(model?.name);
  if (!model || !preset) return form;
  const postedWithoutVolume = VOLUME_FIELDS.every((key) => String(form.get(key) ?? "").trim() === "");
  const next = new FormData();
  for (const [key, value] of form) {
    if (key === "model" || (VOLUME_FIELDS as readonly string[]).includes(key)) continue;
    if (postedWithoutVolume && key === "pricePerGram" && String(value).trim() === "") continue;
    next.append(key, value);
  }
  next.set("model", model.name);
  for (const key of VOLUME_FIELDS) next.set(key, preset[key]);
  if (postedWithoutVolume) {
    if (!next.has("pricePerGram")) next.set("pricePerGram", preset.pricePerGram);
    if (!next.has("materials")) for (const m of preset.materials) next.append("materials", m);
  }
  return next;
}

/** The stored model name: the catalogue's spelling, or the owner's own words for Custom/Other. */
export function storedModelName(model: string, customModel?: string | null): string {
  const known = findPrinterModel(model);
  if (known && known.name !== CUSTOM_PRINTER_MODEL_NAME) return known.name;
  return customModel?.trim() || CUSTOM_PRINTER_MODEL_NAME;
}

export const MODEL_OPTIONS = PRINTER_MODELS.map((m) => m.name);

export function FieldError({ id, errors }: { id?: string; errors?: string[] | null }) {
  return (
    <p id={id} className="field-error" aria-live="polite">
      {errors?.[0] ?? ""}
    </p>
  );
}

/** One checkbox per printer material; conform keeps them in step with form.update(). */
export function MaterialCheckboxes({
  field,
  onChange,
}: {
  field: FieldMetadata<string[] | undefined>;
  onChange?: (event: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <fieldset>
      <legend className="label">Supported materials</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {getCollectionProps(field, { type: "checkbox", options: [...PRINTER_MATERIALS] }).map((props) => {
          const { key, ...rest } = props;
          return (
            <label key={key} className="flex items-center gap-2 text-sm text-slate-700">
              <input {...rest} className="h-4 w-4 rounded border-slate-300" onChange={onChange} />
              {props.value}
            </label>
          );
        })}
      </div>
      <FieldError id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
