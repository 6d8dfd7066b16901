// The one materials table and colour palette, read by every screen.

export interface Material {
  name: MaterialName;
  /** grams per cubic centimetre */
  density: number;
  /** typical filament price per kilogram in whole dollars, shown on the pricing page */
  typicalRatePerKg: number;
}

export const MATERIAL_NAMES = [
  "PLA",
  "PETG",
  "ABS",
  "TPU",
  "ASA",
  "PC",
  "Nylon",
  "Wood Fill",
  "Carbon Fiber",
  "Metal Fill",
  "Glow in Dark",
  "Resin",
] as const;
export type MaterialName = (typeof MATERIAL_NAMES)[number];

export const MATERIALS: readonly Material[] = [
  { name: "PLA", density: 1.24, typicalRatePerKg: 20 },
  { name: "PETG", density: 1.27, typicalRatePerKg: 28 },
  { name: "ABS", density: 1.04, typicalRatePerKg: 25 },
  { name: "TPU", density: 1.2, typicalRatePerKg: 35 },
  { name: "ASA", density: 1.07, typicalRatePerKg: 30 },
  { name: "PC", density: 1.2, typicalRatePerKg: 35 },
  { name: "Nylon", density: 1.14, typicalRatePerKg: 40 },
  { name: "Wood Fill", density: 1.28, typicalRatePerKg: 30 },
  { name: "Carbon Fiber", density: 1.3, typicalRatePerKg: 45 },
  { name: "Metal Fill", density: 3.0, typicalRatePerKg: 60 },
  { name: "Glow in Dark", density: 1.3, typicalRatePerKg: 30 },
  { name: "Resin", density: 1.15, typicalRatePerKg: 45 },
];

export function findMaterial(name: string | null | undefined): Material | undefined {
  if (!name) return undefined;
  const wanted = name.trim().toLowerCase();
  // wood fill is also written "WOOD"
  if (wanted === "wood") return MATERIALS.find((m) => m.name === "Wood Fill");
  return MATERIALS.find((m) => m.name.toLowerCase() === wanted);
}

/** Materials offered for a design upload. */
export const UPLOAD_MATERIALS: readonly MaterialName[] = ["PLA", "PETG", "ABS", "TPU"];
/** Materials in the /browse filter. */
export const BROWSE_MATERIALS: readonly MaterialName[] = ["PLA", "ABS", "PETG", "TPU", "Resin"];
/** Materials in the /printers filter. */
export const PRINTERS_PAGE_MATERIALS: readonly MaterialName[] = ["PLA", "ABS", "PETG", "TPU", "ASA", "PC", "Nylon"];
/** Materials a printer owner can tick on the full add-printer form. */
export const PRINTER_MATERIALS: readonly MaterialName[] = [
  "PLA",
  "ABS",
  "PETG",
  "TPU",
  "ASA",
  "PC",
  "Nylon",
  "Wood Fill",
  "Metal Fill",
  "Carbon Fiber",
  "Glow in Dark",
];

export const COLOR_NAMES = [
  "Black",
  "White",
  "Red",
  "Blue",
  "Green",
  "Yellow",
  "Orange",
  "Purple",
  "Gray",
  "Clear",
  "Natural",
] as const;
export type ColorName = (typeof COLOR_NAMES)[number];

/** Swatch colours for the palette, used by colour pickers and badges. */
export const COLOR_SWATCHES: Record<ColorName, string> = {
  Black: "#111827",
  White: "#ffffff",
  Red: "#dc2626",
  Blue: "#2563eb",
  Green: "#16a34a",
  Yellow: "#facc15",
  Orange: "#f97316",
  Purple: "#9333ea",
  Gray: "#6b7280",
  Clear: "#e0f2fe",
  Natural: "#f5f0e1",
};

/**
 * The submit page's colour swatches: the whole palette (every picker offers the one palette), each
 * selectable only when the printer stocks it; the choice falls back to the first stocked colour.
 */
export function colorChoices(inStock: readonly string[], asked?: string | null) {
  const swatches = COLOR_NAMES.map((name) => ({ name, swatch: COLOR_SWATCHES[name], available: inStock.includes(name) }));
  const selectable = inStock.filter((c) => (COLOR_NAMES as readonly string[]).includes(c));
  const color = asked && selectable.includes(asked) ? asked : (selectable[0] ?? null);
  return { swatches, color };
}
