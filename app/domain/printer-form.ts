// The rules of a printer listing, once for the pages and the JSON API: the add-printer and
// settings schemas, the model presets, where a printer is placed, and what its stock may hold.
import { z } from "zod";
import { AppError } from "./app-error";
import { COLOR_NAMES, PRINTER_MATERIALS, type MaterialName } from "./materials";
import { CUSTOM_PRINTER_MODEL_NAME, findPrinterModel, PRESET_MODEL_NAMES, PRINTER_MODELS } from "./printer-models";
import { decimalToScaledInt } from "./money";
import { pricePerGramFromSpool, SPOOL_WEIGHTS_GRAMS } from "./pricing";
import { imageTooManyPixelsMessage } from "./upload-limits";

export const MAX_BUILD_VOLUME_MM = 2000;
/** A price per gram runs from $0.01 to $10.00, with at most 4 decimals (a spool's cost over its grams). */
export const MIN_RATE_PER_KG_CENTS = 1_000;
export const MAX_RATE_PER_KG_CENTS = 1_000_000;
export const PRICE_PER_GRAM_DECIMALS = 4;
export const MAX_STOCK_GRAMS = 100_000;
export const MAX_INVENTORY_ROWS = 200;

export const LOCATION_NOT_FOUND =
  "We couldn't place this location. Enter a US city and state (Loveland, CO), a ZIP code or an address with its ZIP, or give latitude and longitude.";
export const PRINTER_BUSY_WITH_ORDERS = "This printer has orders in progress. Finish or cancel them before deleting it.";
export const PHOTO_TOO_LARGE = "The photo must be 5 MB or smaller";
export const PHOTO_TOO_MANY_PIXELS = imageTooManyPixelsMessage("The photo");
export const PHOTO_UNREADABLE = "The photo could not be read; it may be damaged";
export const ONE_PHOTO_ONLY = "Add one photo at most";
export const FORM_UNREADABLE = "The form could not be read. Please try again.";
export const BOTH_COORDINATES = "Give both latitude and longitude, or leave both blank";

const MATERIAL_ENUM = PRINTER_MATERIALS as unknown as [MaterialName, ...MaterialName[]];
const COLOR_ENUM = COLOR_NAMES as unknown as [string, ...string[]];

const requiredText = (message: string, max: number) =>
  z.string({ required_error: message }).trim().min(1, message).max(max, `Use at most ${max} characters`);

const buildVolume = (axis: "X" | "Y" | "Z") =>
  z
    .number({ required_error: `Build volume ${axis} is required`, invalid_type_error: `Build volume ${axis} must be a number` })
    .int(`Build volume ${axis} must be a whole number of millimetres`)
    .min(1, `Build volume ${axis} is required`)
    .max(MAX_BUILD_VOLUME_MM, `Build volume ${axis} can be at most ${MAX_BUILD_VOLUME_MM} mm`);

const decimalsOf = (price: string) => /\.(\d*)$/.exec(price)?.[1]?.length ?? 0;

const pricePerGram = z
  .string({ required_error: "Price per gram is required" })
  .trim()
  .min(1, "Price per gram is required")
  .superRefine((price, ctx) => {
    // the scaled value, sign kept, so a negative price hears about the minimum
    const rate = decimalToScaledInt(price, 5);
    const issue = (message: string) => ctx.addIssue({ code: "custom", message });
    if (rate === null) issue("Enter the price in dollars per gram, like 0.12");
    else if (decimalsOf(price) > PRICE_PER_GRAM_DECIMALS)
      issue(`Use at most ${PRICE_PER_GRAM_DECIMALS} decimals for the price per gram`);
    else if (rate < MIN_RATE_PER_KG_CENTS) issue("Price per gram must be at least $0.01");
    else if (rate > MAX_RATE_PER_KG_CENTS) issue("Price per gram can be at most $10.00");
  });

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

/** Latitude and longitude come together or not at all; the message sits on the one that is missing. */
function bothOrNeither(value: { latitude?: number; longitude?: number }, ctx: z.RefinementCtx) {
  if ((value.latitude === undefined) !== (value.longitude === undefined)) {
    const path = value.latitude === undefined ? "latitude" : "longitude";
    ctx.addIssue({ code: "custom", path: [path], message: BOTH_COORDINATES });
  }
}

const description = z.string().trim().max(1000, "Use at most 1000 characters");

/** The fields a new printer and a printer's settings share. */
const listingFields = {
  name: requiredText("Printer name is required", 100),
  description: description.optional(),
  location: requiredText("Location is required", 200),
  pricePerGram,
  materials,
  latitude,
  longitude,
  isAvailable: z.boolean().optional(),
  image: z.instanceof(File).optional(),
};

const { name: nameField, description: descriptionField, ...placeAndPrice } = listingFields;

/** The full add-printer form (page and API). */
export const AddPrinterSchema = z
  .object({
    // the form's order, which is the order of its messages
    name: nameField,
    model: z
      .string({ required_error: "Printer model is required" })
      .trim()
      .min(1, "Printer model is required")
      .refine((v) => findPrinterModel(v) !== undefined, "Choose a printer model from the list"),
    customModel: z.string().trim().max(100, "Use at most 100 characters").optional(),
    description: descriptionField,
    buildVolumeX: buildVolume("X"),
    buildVolumeY: buildVolume("Y"),
    buildVolumeZ: buildVolume("Z"),
    ...placeAndPrice,
  })
  .superRefine(bothOrNeither);
export type AddPrinterValues = z.infer<typeof AddPrinterSchema>;

export const QUICK_ADD_MESSAGES = {
  model: "Please select a printer model",
  materials: "Please select at least one material",
  filament: "Please enter filament cost and weight",
  address: "Please enter complete address information",
} as const;
export const ADDRESS_NOT_FOUND = "We couldn't find this address. Check the city, state and ZIP code.";

const addressPart = (max: number) => requiredText(QUICK_ADD_MESSAGES.address, max);

/** The dashboard's quick add-printer form: a known model, materials, the spool it prints from, the address in parts. */
export const QuickAddPrinterSchema = z
  .object({
    model: z
      .string({ required_error: QUICK_ADD_MESSAGES.model })
      .trim()
      .refine((v) => PRESET_MODEL_NAMES.includes(findPrinterModel(v)?.name ?? ""), QUICK_ADD_MESSAGES.model),
    materials: z
      .array(z.enum(MATERIAL_ENUM, { errorMap: () => ({ message: "Choose materials from the list" }) }), {
        required_error: QUICK_ADD_MESSAGES.materials,
      })
      .min(1, QUICK_ADD_MESSAGES.materials)
      .transform((list) => [...new Set(list)]),
    filamentCost: z.string({ required_error: QUICK_ADD_MESSAGES.filament }).trim().min(1, QUICK_ADD_MESSAGES.filament),
    spoolWeight: z
      .number({ required_error: QUICK_ADD_MESSAGES.filament, invalid_type_error: QUICK_ADD_MESSAGES.filament })
      .refine((g) => (SPOOL_WEIGHTS_GRAMS as readonly number[]).includes(g), "Choose a spool of 1000, 750, 500 or 250 g"),
    street: addressPart(200),
    city: addressPart(100),
    state: addressPart(2)
      .refine((v) => /^[a-z]{2}$/i.test(v), "Use the state's 2-letter code, like CO")
      .transform((v) => v.toUpperCase()),
    zip: addressPart(5).refine((v) => /^\d{5}$/.test(v), "Enter the 5-digit ZIP code"),
  })
  .superRefine((value, ctx) => {
    // the price per gram the spool gives must be one a printer may charge
    if (!value.filamentCost || !(SPOOL_WEIGHTS_GRAMS as readonly number[]).includes(value.spoolWeight)) return;
    const price = pricePerGramFromSpool(value.filamentCost, value.spoolWeight);
    if (price === null) {
      ctx.addIssue({ code: "custom", path: ["filamentCost"], message: "Enter the spool's cost in dollars, like 24.99" });
      return;
    }
    const checked = pricePerGram.safeParse(price);
    if (!checked.success) ctx.addIssue({ code: "custom", path: ["filamentCost"], message: checked.error.issues[0]!.message });
  });
export type QuickAddPrinterValues = z.infer<typeof QuickAddPrinterSchema>;

/** The quick form's values as the full form's: named after its model, the model's preset volume, the address as the location. */
export function quickPrinterValues(quick: QuickAddPrinterValues): AddPrinterValues {
  const preset = modelPreset(quick.model)!;
  const model = findPrinterModel(quick.model)!.name;
  return {
    name: model,
    model,
    buildVolumeX: Number(preset.buildVolumeX),
    buildVolumeY: Number(preset.buildVolumeY),
    buildVolumeZ: Number(preset.buildVolumeZ),
    materials: quick.materials,
    pricePerGram: pricePerGramFromSpool(quick.filamentCost, quick.spoolWeight)!,
    location: `${quick.street}, ${quick.city}, ${quick.state} ${quick.zip}`,
    isAvailable: true,
  };
}

/** Printer settings: name and location required, price 0 or more, at least one material. */
export const PrinterSettingsSchema = z
  .object({ ...listingFields, removeImage: z.boolean().optional() })
  .superRefine(bothOrNeither);

/** One row of filament stock: a material the list knows, a colour of the palette, whole grams. */
export const InventorySchema = z.object({
  material: z.enum(MATERIAL_ENUM, { errorMap: () => ({ message: "Choose a material" }) }),
  color: z.enum(COLOR_ENUM, { errorMap: () => ({ message: "Choose a colour" }) }),
  grams: z
    .number({ required_error: "Enter the grams in stock", invalid_type_error: "Grams in stock must be a number" })
    .int("Grams in stock must be a whole number")
    .min(0, "Grams in stock cannot be negative")
    .max(MAX_STOCK_GRAMS, `Grams in stock can be at most ${MAX_STOCK_GRAMS}`),
});

/** Removing a stock row accepts any stored name, so a row written before a material left the list can still go. */
export const StockRowSchema = z.object({
  material: z.string().trim().min(1, "Choose a material"),
  color: z.string().trim().min(1, "Choose a colour"),
});

/** The JSON API's partial update of a printer: any settings field, and the whole inventory at once. */
export const PrinterUpdateSchema = z
  .object(listingFields)
  .omit({ image: true })
  .extend({
    description: description.nullable(),
    isAvailable: z.boolean({ invalid_type_error: "isAvailable must be true or false" }),
    filamentInventory: z.array(InventorySchema).max(MAX_INVENTORY_ROWS, `At most ${MAX_INVENTORY_ROWS} inventory rows`),
  })
  .partial()
  .superRefine((value, ctx) => {
    bothOrNeither(value, ctx);
    const seen = new Set<string>();
    for (const row of value.filamentInventory ?? []) {
      const key = `${row.material}|${row.color}`;
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: ["filamentInventory"], message: `${row.color} ${row.material} is listed twice` });
      seen.add(key);
    }
  });

/** Stock is kept only in the printer's own materials; throws AppError("invalid") for the first row outside them. */
export function checkStockMaterials(printerMaterials: readonly string[], rows: readonly { material: string }[]): void {
  const outside = rows.find((row) => !printerMaterials.includes(row.material));
  if (outside) {
    throw new AppError("invalid", `This printer doesn't offer ${outside.material}. Add it to the printer's materials first.`, {
      field: "material",
    });
  }
}

export interface PlacementRequest {
  location: string;
  /** the owner's own coordinates, or null to place the printer from its location text */
  coordinates: { latitude: number; longitude: number } | null;
}

/**
 * Where a printer is placed after an edit; null when neither its location nor its coordinates
 * were sent. Given coordinates win, except that a changed location sent with the old coordinates
 * (a form that kept them) is placed again from its text.
 */
export function placementAfterEdit(
  current: { location: string; latitude: number | null; longitude: number | null },
  changes: { location?: string; latitude?: number; longitude?: number },
): PlacementRequest | null {
  if (changes.location === undefined && changes.latitude === undefined && changes.longitude === undefined) return null;
  const location = changes.location ?? current.location;
  if (changes.latitude === undefined || changes.longitude === undefined) return { location, coordinates: null };
  const sameCoordinates = changes.latitude === current.latitude && changes.longitude === current.longitude;
  if (location !== current.location && sameCoordinates) return { location, coordinates: null };
  return { location, coordinates: { latitude: changes.latitude, longitude: changes.longitude } };
}

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

/** The values a posted form gets from its model: null when the model has no preset. */
interface PresetOutcome {
  model: string;
  preset: ModelPreset;
  /** posted without any volume (no JavaScript filled them): blank price and materials take the preset's too */
  fillBlanks: boolean;
}

/**
 * The server's half of the model preset: a known model's volume is locked to the catalogue's, and
 * a form posted without volumes (no JavaScript filled them) also gets the suggested price and
 * default materials where it left them blank.
 */
function presetFor(model: unknown, volumes: unknown[]): PresetOutcome | null {
  const known = findPrinterModel(typeof model === "string" ? model : null);
  const preset = modelPreset(known?.name);
  if (!known || !preset) return null;
  const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === "";
  return { model: known.name, preset, fillBlanks: volumes.every(blank) };
}

/** The preset applied to a posted add-printer form (the page). */
export function applyModelPreset(form: FormData): FormData {
  const outcome = presetFor(
    form.get("model"),
    VOLUME_FIELDS.map((key) => form.get(key) ?? undefined),
  );
  if (!outcome) return form;
  const { model, preset, fillBlanks } = outcome;
  const next = new FormData();
  for (const [key, value] of form) {
    if (key === "model" || (VOLUME_FIELDS as readonly string[]).includes(key)) continue;
    if (fillBlanks && key === "pricePerGram" && String(value).trim() === "") continue;
    next.append(key, value);
  }
  next.set("model", model);
  for (const key of VOLUME_FIELDS) next.set(key, preset[key]);
  if (fillBlanks) {
    if (!next.has("pricePerGram")) next.set("pricePerGram", preset.pricePerGram);
    if (!next.has("materials")) for (const m of preset.materials) next.append("materials", m);
  }
  return next;
}

/** The preset applied to a JSON add-printer body (the API). */
export function applyModelPresetToJson(body: Record<string, unknown>): Record<string, unknown> {
  const outcome = presetFor(
    body.model,
    VOLUME_FIELDS.map((key) => body[key]),
  );
  if (!outcome) return body;
  const { model, preset, fillBlanks } = outcome;
  const next: Record<string, unknown> = { ...body, model };
  for (const key of VOLUME_FIELDS) next[key] = Number(preset[key]);
  if (fillBlanks && (body.pricePerGram === undefined || body.pricePerGram === "")) next.pricePerGram = preset.pricePerGram;
  if (fillBlanks && (!Array.isArray(body.materials) || body.materials.length === 0)) next.materials = preset.materials;
  return next;
}

/** The stored model name: the catalogue's spelling, or the owner's own words for Custom/Other. */
export function storedModelName(model: string, customModel?: string | null): string {
  const known = findPrinterModel(model);
  if (known && known.name !== CUSTOM_PRINTER_MODEL_NAME) return known.name;
  return customModel?.trim() || CUSTOM_PRINTER_MODEL_NAME;
}

export const MODEL_OPTIONS = PRINTER_MODELS.map((m) => m.name);
