// Printer model presets for the add-printer form: picking one fills volume, materials and price.

import { PRINTER_MATERIALS, type MaterialName } from "./materials";

export interface BuildVolume {
  /** millimetres */
  x: number;
  y: number;
  z: number;
}

export interface PrinterModel {
  name: string;
  slug: string;
  /** null for "Custom/Other": the owner types the volume */
  buildVolume: BuildVolume | null;
  imagePath: string;
  defaultMaterials: readonly MaterialName[];
  /** integer cents per gram, 10-35 as the full form suggests; null when there is no preset */
  suggestedPricePerGramCents: number | null;
}

export const CUSTOM_PRINTER_MODEL_NAME = "Custom/Other";

const OPEN_FRAME: readonly MaterialName[] = ["PLA", "PETG", "TPU", "Wood Fill", "Glow in Dark"];
// Enclosed, heated chambers keep ABS/ASA/PC from warping, so those machines offer them by default.
const ENCLOSED: readonly MaterialName[] = ["PLA", "PETG", "ABS", "ASA", "TPU", "PC", "Carbon Fiber"];

function model(
  name: string,
  slug: string,
  buildVolume: BuildVolume | null,
  defaultMaterials: readonly MaterialName[],
  suggestedPricePerGramCents: number | null,
): PrinterModel {
  return Object.freeze({
    name,
    slug,
    buildVolume: buildVolume ? Object.freeze(buildVolume) : null,
    imagePath: `/printer-models/${slug}.svg`,
    defaultMaterials: Object.freeze([...defaultMaterials]),
    suggestedPricePerGramCents,
  });
}

export const PRINTER_MODELS: readonly PrinterModel[] = Object.freeze([
  model("Bambu Lab P1S", "bambu-lab-p1s", { x: 256, y: 256, z: 256 }, ENCLOSED, 20),
  // Open-frame machines leave ABS/ASA off: without an enclosure they warp and crack.
  model("Bambu Lab A1 mini", "bambu-lab-a1-mini", { x: 180, y: 180, z: 180 }, ["PLA", "PETG", "TPU"], 12),
  model("Prusa MK4", "prusa-mk4", { x: 250, y: 210, z: 220 }, ["PLA", "PETG", "TPU", "Wood Fill", "Carbon Fiber"], 18),
  // The V2 feeds through a Bowden tube, which handles flexible TPU poorly.
  model("Creality Ender 3 V2", "creality-ender-3-v2", { x: 220, y: 220, z: 250 }, ["PLA", "PETG"], 10),
  model("Creality Ender 3 S1", "creality-ender-3-s1", { x: 220, y: 220, z: 270 }, OPEN_FRAME, 12),
  // 220×220×250 mm is Anycubic's published Kobra 2 build volume.
  model("Anycubic Kobra 2", "anycubic-kobra-2", { x: 220, y: 220, z: 250 }, ["PLA", "PETG", "TPU"], 10),
  model("Qidi X-Max 3", "qidi-x-max-3", { x: 325, y: 325, z: 315 }, [...ENCLOSED, "Nylon"], 25),
  model("Elegoo Neptune 4", "elegoo-neptune-4", { x: 225, y: 225, z: 265 }, OPEN_FRAME, 12),
  model(CUSTOM_PRINTER_MODEL_NAME, "custom", null, ["PLA"], null),
]);

/** The known models, whose preset gives the build volume (the quick form offers only these). */
export const PRESET_MODEL_NAMES: readonly string[] = PRINTER_MODELS.filter((m) => m.buildVolume).map((m) => m.name);

// Fail at import, not on a page, if a preset names a material the owner form cannot tick.
for (const m of PRINTER_MODELS) {
  for (const material of m.defaultMaterials) {
    if (!PRINTER_MATERIALS.includes(material)) throw new Error(`${m.name}: ${material} is not a printer material`);
  }
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/** Case- and punctuation-insensitive lookup by name or slug ("prusa mk4", "bambu-lab-p1s"). */
export function findPrinterModel(name: string | null | undefined): PrinterModel | undefined {
  if (!name) return undefined;
  const wanted = normalize(name);
  if (!wanted) return undefined;
  return PRINTER_MODELS.find((m) => normalize(m.name) === wanted || normalize(m.slug) === wanted);
}
