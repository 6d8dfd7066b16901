// What each sliced layer of a group prints, from its sums: perimeters, skins, sparse infill and supports, and the
// time they take at the profile's speeds.

import type { Calibration } from "./calibration";
import type { LayerSums } from "./slice";

/** One estimate's profile, layer sums and running totals; the totals are added to in the order one long loop would. */
export interface EstimateRun {
  readonly cal: Calibration;
  /** layer height */
  readonly h: number;
  /** layers */
  readonly N: number;
  readonly spacing: number;
  /** perimeters x line spacing */
  readonly wall: number;
  readonly infillFraction: number;
  readonly budget: number;
  readonly sums: LayerSums;
  readonly layerSeconds: Float64Array;
  /** extrusion length per layer, for the cooling slowdown */
  readonly layerLength: Float64Array;
  /** layer crossings and layer visits spent slicing */
  work: number;
  material: number;
  supportVolume: number;
  slicedVolume: number;
}

/** Perimeter area of a cross-section of area A and outline L (a square loses 4 t^2 at its corners when offset inwards, a circle pi t^2: sharp corners dominate real parts). */
export function ringOf(A: number, L: number, overhang: number, wall: number, shellFactor: number): number {
  let ring = L * wall * shellFactor - 4 * wall * wall + overhang;
  if (ring < L * wall * 0.5) ring = L * wall * 0.5;
  return ring > A ? A : ring;
}

/** Material and time of layers kLo..kHi of one group; on probed layers, islands say the share of sparse infill in small islands. */
export function addLayers(
  run: EstimateRun,
  kLo: number,
  kHi: number,
  islands: Float64Array | null,
  islandRings: Float64Array | null,
): void {
  const { cal, h, spacing, wall, infillFraction, layerSeconds, layerLength } = run;
  const { area, outline, skin, bridge, overhang } = run.sums;
  for (let k = kLo; k <= kHi; k++) {
    const A = area[k];
    if (A <= 1e-9) continue;
    run.slicedVolume += A * h;
    const L = outline[k];
    // a square loses 4 t^2 at its corners when offset inwards, a circle pi t^2: sharp corners dominate real parts
    let ring = ringOf(A, L, overhang[k], wall, cal.shellFactor);
    // islands narrower than their perimeters hold less than the layer's sums suggest
    if (islandRings && islandRings[k] > 0 && islandRings[k] + overhang[k] < ring)
      ring = Math.min(A, islandRings[k] + overhang[k]);
    const inner = A - ring;
    let solid = Math.min(inner, skin[k]);
    let sparse = inner - solid;
    if (infillFraction >= 1 || (infillFraction > 0 && sparse < cal.solidBelowArea)) {
      solid += sparse;
      sparse = 0;
    } else if (islands && islands[k] > 0) {
      const small = Math.min(sparse, islands[k] * sparse);
      solid += small;
      sparse -= small;
    }
    const bridged = Math.min(solid, bridge[k]);
    const sparseMat = Math.min(sparse, sparse * infillFraction * cal.infillFactor + (sparse > 0 ? L * cal.anchorWidth : 0));
    const layerMat = (ring + solid + bridged * (cal.bridgeFactor - 1) + sparseMat) * h;
    run.material += layerMat;

    // time: extrusion length per feature = area / line spacing
    const perimLen = ring / spacing;
    const extLen = Math.min(L, perimLen);
    const innerLen = perimLen - extLen;
    const solidLen = solid / spacing;
    const sparseLen = sparseMat / spacing;
    let sec: number;
    if (k === 0) {
      sec = (perimLen + solidLen + sparseLen) / (cal.speeds.firstLayer * cal.speedEfficiency.perimeter);
    } else {
      const topShare = Math.min(solidLen, (skin[k] - bridge[k]) / spacing) * 0.3;
      sec =
        extLen / (cal.speeds.externalPerimeter * cal.speedEfficiency.externalPerimeter) +
        innerLen / (cal.speeds.perimeter * cal.speedEfficiency.perimeter) +
        (solidLen - topShare) / (cal.speeds.solidInfill * cal.speedEfficiency.solid) +
        topShare / (cal.speeds.topSolid * cal.speedEfficiency.solid) +
        sparseLen / (cal.speeds.infill * cal.speedEfficiency.infill);
    }
    layerSeconds[k] += sec + cal.islandOverhead;
    layerLength[k] += perimLen + solidLen + sparseLen;
  }
}

/** Each supported overhang patch of one group needs a column down to the bed: lines plus 3 denser interface layers. */
export function addSupports(run: EstimateRun, kLo: number, kHi: number): void {
  const { cal, h, spacing, layerSeconds } = run;
  const support = run.sums.support;
  let any = false;
  for (let k = kLo; k <= kHi; k++) {
    const s = support[k];
    if (s <= 0) continue;
    const column = s * k * h * cal.supportDensity + s * 3 * h * 0.5;
    run.supportVolume += column;
    const len = column / (spacing * h);
    // the column's time is spread over the layers below it; kept here and summed from the top down
    support[k] = len / k / 60;
    any = true;
  }
  if (any) {
    run.work += kHi;
    let above = 0;
    for (let j = kHi - 1; j >= 0; j--) {
      const s = support[j + 1];
      if (s > 0 && j + 1 >= kLo) above += s;
      layerSeconds[j] += above;
    }
  }
}

/** Print seconds of all layers: each with its layer change, short layers slowed for cooling. */
export function printSeconds(layerSeconds: Float64Array, layerLength: Float64Array, cal: Calibration): number {
  let seconds = 0;
  for (let k = 0; k < layerSeconds.length; k++) {
    let sec = layerSeconds[k];
    if (sec <= 0) continue;
    sec += cal.layerOverhead;
    // cooling: short layers are slowed to the minimum layer time, but never below the minimum print speed
    const slowest = layerLength[k] / cal.minPrintSpeed;
    if (sec < cal.minLayerTime) sec = Math.max(sec, Math.min(cal.minLayerTime, slowest));
    seconds += sec;
  }
  return seconds;
}
