// Print weight and time from the mesh itself: a light slicer that measures each layer's area and outline per body.

import { groupBodies, type BodyGroups } from "./body-groups";
import { DEFAULT_CALIBRATION, type Calibration } from "./calibration";
import { probeLayers, smallIslandShares } from "./islands";
import { addLayers, addSupports, printSeconds, type EstimateRun } from "./layers";
import type { BasicMetrics } from "./metrics";
import { addSkinMargins } from "./skin-margins";
import { LayerSums, SliceSettings, sliceGroup } from "./slice";
import type { Topology } from "./topology";
import type { SupportsMode } from "./types";

export interface PrintSettings {
  /** millimetres */
  layerHeight: number;
  /** percent, 0-100 */
  infill: number;
  /** grams per cm3 */
  density: number;
  supports: SupportsMode;
}

export interface PrintEstimate {
  grams: number;
  minutes: number;
  /** mm3 of plastic, supports included */
  materialVolume: number;
  /** mm3 of plastic in supports */
  supportVolume: number;
  layers: number;
  /** false when the mesh was not watertight (or too costly to slice) and a surface-based formula was used instead of layer slices */
  sliced: boolean;
  /** layer crossings and layer visits spent slicing; bounded by sliceBudget */
  sliceWork: number;
}

/**
 * Slicing costs one step per layer a triangle crosses, so a few triangles miles tall cost as much as
 * billions of honest ones. Past this many steps (a floor plus a share per triangle, about half a second
 * at most beyond what the triangles themselves cost) the mesh is estimated from its surface instead.
 */
export function sliceBudget(triangles: number): number {
  return 20_000_000 + 20 * triangles;
}
/** Share of open or non-manifold edges beyond which a mesh is estimated from its surface instead of sliced. */
export const MAX_FLAWED_EDGE_SHARE = 0.01;
/** Layers a mesh may have to be sliced (4 m at 0.04 mm): per-layer arrays are allocated for each. */
export const MAX_SLICED_LAYERS = 100_000;

/**
 * Slices every body at the middle of each layer (as PrusaSlicer does): the cross-section area comes
 * from the shoelace sum of the triangle/plane segments, its outline length from their lengths, with
 * no polygon assembly. Up- and down-facing area decides where top and bottom skins go.
 */
export function estimatePrint(
  topo: Topology,
  basic: BasicMetrics,
  settings: PrintSettings,
  cal: Calibration = DEFAULT_CALIBRATION,
): PrintEstimate {
  const h = settings.layerHeight;
  const nTri = topo.indices.length / 3;
  const z0 = basic.min[2];
  const height = basic.max[2] - z0;
  const N = Math.max(1, Math.ceil(height / h - 1e-6));
  const infillFraction = Math.min(1, Math.max(0, settings.infill / 100));
  const spacing = cal.extrusionWidth - h * (1 - Math.PI / 4);
  const wall = cal.perimeters * spacing;

  // per-body volume and box: cavities (inward-facing shells inside another body) are sliced with their host
  const groups = groupBodies(topo, basic, z0, height);
  let overBudget = N > MAX_SLICED_LAYERS;
  const L = overBudget ? 0 : N;
  const run: EstimateRun = {
    cal,
    h,
    N,
    spacing,
    wall,
    infillFraction,
    budget: sliceBudget(nTri),
    sums: new LayerSums(L, nTri, topo.vertexCount),
    layerSeconds: new Float64Array(L),
    layerLength: new Float64Array(L),
    work: 0,
    material: 0,
    supportVolume: 0,
    slicedVolume: 0,
  };
  const slice = new SliceSettings(
    topo.indices,
    topo.positions,
    groups.order,
    { z0, h, N, wall, spacing },
    cal,
    settings.supports,
  );

  for (let group = 0; group < topo.bodies && !overBudget; group++) overBudget = !estimateGroup(run, slice, groups, group);

  let material = run.material;
  let seconds = printSeconds(run.layerSeconds, run.layerLength, cal);
  let sliced = true;
  // an open or self-intersecting mesh gives cross-sections that do not add up to its volume; a few stray open or
  // non-manifold edges in a real scan or export (the slicer repairs those) still slice as they are
  const flawed = topo.openEdges + topo.nonManifoldEdges > MAX_FLAWED_EDGE_SHARE * topo.edges;
  if (overBudget || flawed || Math.abs(run.slicedVolume - basic.volume) > 0.1 * basic.volume + 1) {
    sliced = false;
    material = surfaceEstimate(basic, topo, settings, cal, wall, infillFraction);
    seconds =
      material / (spacing * h) / (cal.speeds.perimeter * cal.speedEfficiency.perimeter) +
      N * (cal.layerOverhead + cal.islandOverhead);
  }
  const total = material + run.supportVolume;
  return {
    grams: (total * settings.density) / 1000,
    minutes: seconds / 60,
    materialVolume: total,
    supportVolume: run.supportVolume,
    layers: N,
    sliced,
    sliceWork: run.work,
  };
}

/** Slices one group and adds its layers' material and time to the run; false once the work passes the budget. */
function estimateGroup(run: EstimateRun, slice: SliceSettings, groups: BodyGroups, group: number): boolean {
  const first = groups.start[group];
  const last = groups.start[group + 1];
  if (first === last) return true;
  const { cal, h, N } = run;
  const sign = groups.volume[group] < 0 ? -1 : 1;
  const kLo = Math.max(0, Math.floor(groups.zMin[group] / h - 0.5) - 1);
  const kHi = Math.min(N - 1, Math.ceil(groups.zMax[group] / h) + 1);
  run.work += kHi - kLo + 1;
  if (run.work > run.budget) return false;
  run.sums.reset(kLo, kHi);
  if (!sliceGroup(slice, run.sums, first, last, sign, run, run.budget)) return false;

  if (cal.skinMargin > 0) {
    run.work += last - first;
    addSkinMargins(slice.idx, slice.pos, slice.order, first, last, slice.z0, sign, h, N, cal, run.sums);
  }

  // layers whose sparse infill may fall apart into islands under solidBelowArea: assemble their loops
  let islands: Float64Array | null = null;
  let islandRings: Float64Array | null = null;
  if (cal.islandProbe > 0 && run.infillFraction > 0 && run.infillFraction < 1) {
    const probe = probeLayers(run.sums, kLo, kHi, N, run.wall, cal);
    if (probe) {
      run.work += last - first;
      if (run.work > run.budget) return false;
      islands = new Float64Array(N);
      islandRings = new Float64Array(N);
      smallIslandShares(slice, run.sums, kLo, kHi, sign, probe, run.wall, cal, islands, islandRings);
    }
  }

  addLayers(run, kLo, kHi, islands, islandRings);
  if (slice.supportsOn) addSupports(run, kLo, kHi);
  return true;
}

/** Fallback for meshes that cannot be sliced: shells over the surface, infill in what is left of the volume. */
function surfaceEstimate(
  basic: BasicMetrics,
  topo: Topology,
  settings: PrintSettings,
  cal: Calibration,
  wall: number,
  infillFraction: number,
): number {
  const pos = topo.positions;
  const idx = topo.indices;
  let side = 0;
  let flat = 0;
  for (let t = 0; t < idx.length / 3; t++) {
    const a = idx[3 * t] * 3,
      b = idx[3 * t + 1] * 3,
      c = idx[3 * t + 2] * 3;
    const ux = pos[b] - pos[a],
      uy = pos[b + 1] - pos[a + 1],
      uz = pos[b + 2] - pos[a + 2];
    const vx = pos[c] - pos[a],
      vy = pos[c + 1] - pos[a + 1],
      vz = pos[c + 2] - pos[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const n2 = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (n2 === 0) continue;
    const cz = Math.abs(nz) / n2;
    side += (n2 / 2) * Math.sqrt(1 - cz * cz);
    flat += (n2 / 2) * cz;
  }
  const shells = side * wall + (flat * (cal.topLayers + cal.bottomLayers) * settings.layerHeight) / 2;
  const vol = basic.volume;
  if (vol <= 0) return shells;
  const rest = Math.max(0, vol - shells);
  return Math.min(vol, shells) + rest * Math.min(1, infillFraction * cal.infillFactor);
}
