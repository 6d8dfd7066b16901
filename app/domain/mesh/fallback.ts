// The estimate rules that do not need the mesh: the size-based fallback, layer-height buckets and quality presets.

import { findMaterial } from "../materials";
import type { MeshFormat } from "./types";

/**
 * Without a readable mesh the volume is estimated from the file size: 5000 per MB, 8000 for 3MF, 3000 for OBJ.
 * Reading chosen: mm3 of printed plastic per MB of file. A compressed 3MF holds the most geometry
 * per MB and a verbose OBJ the least, which is the order of the three numbers.
 */
export const FALLBACK_MM3_PER_MB: Record<MeshFormat, number> = { stl: 5000, "3mf": 8000, obj: 3000 };

/** PrusaSlicer's reference 20 mm cube prints 3.43 g in about 17 minutes: about 5 minutes per gram. */
const FALLBACK_MINUTES_PER_GRAM = 5;

/**
 * Grams as the product reports them: to 0.01 g below 10 g (a 1.4 g part rounded to 0.1 g would already
 * carry 4% error), to 0.1 g above.
 */
export function roundGrams(grams: number): number {
  return grams < 10 ? Math.round(grams * 100) / 100 : Math.round(grams * 10) / 10;
}

export interface SizeEstimate {
  estimatedWeight: number;
  estimatedTimeMinutes: number;
}

/** Only for when the mesh cannot be read (for example a worker ran out of time); never preferred over analyzeModel. */
export function estimateFromFileSize(bytes: number, format: MeshFormat, material = "PLA"): SizeEstimate {
  const mb = Math.max(0, bytes) / (1024 * 1024);
  const density = findMaterial(material)?.density ?? 1.24;
  const grams = ((mb * FALLBACK_MM3_PER_MB[format]) / 1000) * density;
  return {
    estimatedWeight: roundGrams(grams),
    estimatedTimeMinutes: Math.max(1, Math.round(grams * FALLBACK_MINUTES_PER_GRAM)),
  };
}

/** A layer height up to 0.15 maps to 0.1, from 0.25 to 0.3, otherwise to 0.2. */
export function layerHeightBucket(layerHeight: number): 0.1 | 0.2 | 0.3 {
  if (layerHeight <= 0.15) return 0.1;
  if (layerHeight >= 0.25) return 0.3;
  return 0.2;
}

export const QUALITY_PRESETS = { draft: 0.3, normal: 0.2, fine: 0.1, ultra: 0.05 } as const;
export type QualityPreset = keyof typeof QUALITY_PRESETS;

export function layerHeightForQuality(quality: string | null | undefined): number {
  const key = (quality ?? "").trim().toLowerCase();
  return key in QUALITY_PRESETS ? QUALITY_PRESETS[key as QualityPreset] : QUALITY_PRESETS.normal;
}
