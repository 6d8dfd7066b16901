// Does a design fit a printer: build volume in any orientation, material offered, colour in stock.

export interface Dimensions {
  x: number;
  y: number;
  z: number;
}

export type SortedTriple = readonly [number, number, number];

function dimension(value: number | null | undefined): number {
  // A missing or nonsensical dimension constrains nothing.
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function sortedTriple(a: number | null | undefined, b: number | null | undefined, c: number | null | undefined): SortedTriple {
  const [s0, s1, s2] = [dimension(a), dimension(b), dimension(c)].sort((p, q) => p - q) as [number, number, number];
  return [s0, s1, s2];
}

/** Part laid on any face: sorted-vs-sorted is exact, since if any axis permutation fits the sorted one does. */
export function fitsBuildVolume(part: Dimensions, volume: Dimensions): boolean {
  const p = sortedTriple(part.x, part.y, part.z);
  const v = sortedTriple(volume.x, volume.y, volume.z);
  return p[0] <= v[0] && p[1] <= v[1] && p[2] <= v[2];
}

/** For SQL: a printer fits iff min(x,y,z) >= t[0], (x+y+z-min-max) >= t[1] and max(x,y,z) >= t[2]. */
export function minVolumeFilter(
  minX: number | null | undefined,
  minY: number | null | undefined,
  minZ: number | null | undefined,
): SortedTriple {
  return sortedTriple(minX, minY, minZ);
}

export interface InventoryRow {
  material: string;
  color: string;
  grams: number;
}

export interface FitPrinter {
  buildVolumeX: number | null;
  buildVolumeY: number | null;
  buildVolumeZ: number | null;
  materials: readonly string[];
  inventory?: readonly InventoryRow[] | null;
}

export interface FitDesign {
  material?: string | null;
  color?: string | null;
  weightGrams?: number | null;
  minX?: number | null;
  minY?: number | null;
  minZ?: number | null;
}

export interface Compatibility {
  compatible: boolean;
  reasons: string[];
}

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function blank(value: string | null | undefined): value is null | undefined {
  return value == null || value.trim() === "";
}

function mm(t: SortedTriple | readonly number[]): string {
  return `${t.join(" × ")} mm`;
}

/** A colour asked needs a stocked row holding the weight (no rows → incompatible: stock unproven); no colour and no rows → materials list decides. */
export function isDesignCompatible(printer: FitPrinter, design: FitDesign): Compatibility {
  const reasons: string[] = [];

  const part = { x: dimension(design.minX), y: dimension(design.minY), z: dimension(design.minZ) };
  const hasSize = part.x > 0 || part.y > 0 || part.z > 0;
  if (hasSize) {
    const volume = { x: dimension(printer.buildVolumeX), y: dimension(printer.buildVolumeY), z: dimension(printer.buildVolumeZ) };
    if (volume.x === 0 || volume.y === 0 || volume.z === 0) {
      reasons.push("The printer's build volume is not recorded");
    } else if (!fitsBuildVolume(part, volume)) {
      reasons.push(
        `The design (${mm([part.x, part.y, part.z])}) does not fit the build volume (${mm([volume.x, volume.y, volume.z])}) in any orientation`,
      );
    }
  }

  const material = blank(design.material) ? null : design.material.trim();
  const color = blank(design.color) ? null : design.color.trim();
  const weight = dimension(design.weightGrams);

  if (material && !printer.materials.some((m) => same(m, material))) {
    reasons.push(`The printer does not print ${material}`);
  }

  const inventory = printer.inventory ?? [];
  const needsStock = color !== null || (material !== null && inventory.length > 0);
  if (needsStock) {
    const label = [color, material].filter(Boolean).join(" ");
    const rows = inventory.filter(
      (row) => (material === null || same(row.material, material)) && (color === null || same(row.color, color)),
    );
    const best = rows.reduce((max, row) => Math.max(max, Number.isFinite(row.grams) ? row.grams : 0), 0);
    if (inventory.length === 0) {
      reasons.push(`The printer has no filament inventory recorded, so ${label} cannot be confirmed in stock`);
    } else if (best <= 0) {
      reasons.push(`No ${label} filament in stock`);
    } else if (best < weight) {
      reasons.push(`Only ${best} g of ${label} filament in stock; the design needs ${weight} g`);
    }
  }

  return { compatible: reasons.length === 0, reasons };
}
