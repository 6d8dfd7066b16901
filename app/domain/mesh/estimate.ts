// Print weight and time from the mesh itself: a light slicer that measures each layer's area and outline per body.

import type { BasicMetrics } from "./metrics";
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

/**
 * Constants of the reference profile (PrusaSlicer 2.5, 0.4 mm nozzle, 0.45 mm lines, 2 perimeters,
 * 3 top and 3 bottom layers, gyroid) plus the factors fitted by scripts/calibrate.ts.
 */
export interface Calibration {
  extrusionWidth: number;
  perimeters: number;
  topLayers: number;
  bottomLayers: number;
  /** mm2: sparse regions smaller than this are printed solid (solid_infill_below_area) */
  solidBelowArea: number;
  /** sparse infill material per unit of nominal density (gyroid lines, anchors and overlap) */
  infillFactor: number;
  /** extra material of a bridging layer over air or sparse infill (thick bridges) */
  bridgeFactor: number;
  /** perimeter material per mm of outline, relative to perimeters x line spacing */
  shellFactor: number;
  /** mm2 of sparse-infill material per mm of outline per layer: anchors and turns along the perimeters */
  anchorWidth: number;
  /** extra perimeter (extra_perimeters) on overhanging walls, as a share of one line per layer */
  overhangPerimeterFactor: number;
  /**
   * share of the perimeter width taken out of a sloped skin strip: 1 when the skin starts where the
   * perimeters end, less when ensure_vertical_shell_thickness fills the strip under a slope anyway
   */
  skinInsetFactor: number;
  /**
   * solid_infill_below_area applies to each island of sparse infill, which the layer sums do not see. A
   * layer whose sparse infill could be split into small islands (pi w^2 < islandProbe x solidBelowArea, with
   * w = 2 x sparse / outline) has its outline assembled into loops, and islands under the area print solid.
   * 0 never looks.
   */
  islandProbe: number;
  /**
   * mm: top and bottom skins grow by this much into the sparse infill beside them (PrusaSlicer 2.5's
   * external infill margin, 3 mm), counted along the inner corners where a flat skin meets a wall
   */
  skinMargin: number;
  /** mm/s */
  speeds: {
    externalPerimeter: number;
    perimeter: number;
    infill: number;
    solidInfill: number;
    topSolid: number;
    bridge: number;
    firstLayer: number;
    travel: number;
  };
  /** share of the nominal speed reached on average once acceleration is counted, per feature */
  speedEfficiency: { externalPerimeter: number; perimeter: number; infill: number; solid: number };
  /** seconds per layer for the layer change */
  layerOverhead: number;
  /** seconds per separate part per layer for travel and retraction */
  islandOverhead: number;
  /** slowdown_below_layer_time: layers are stretched to at least this many seconds */
  minLayerTime: number;
  /** min_print_speed, mm/s: the cooling slowdown stops here */
  minPrintSpeed: number;
  /** support lines' share of the volume under an overhang */
  supportDensity: number;
}

export const DEFAULT_CALIBRATION: Calibration = {
  extrusionWidth: 0.45,
  perimeters: 2,
  topLayers: 3,
  bottomLayers: 3,
  solidBelowArea: 70,
  // fitted by `npx tsx scripts/calibrate.ts --fit` against PrusaSlicer 2.5 (docs/weight-estimate.md)
  infillFactor: 0.95,
  bridgeFactor: 1.36,
  shellFactor: 1.0,
  anchorWidth: 0.177,
  overhangPerimeterFactor: 3.95,
  skinInsetFactor: 1,
  islandProbe: 4,
  skinMargin: 3,
  speeds: {
    externalPerimeter: 25,
    perimeter: 45,
    infill: 80,
    solidInfill: 80,
    topSolid: 40,
    bridge: 30,
    firstLayer: 20,
    travel: 150,
  },
  speedEfficiency: { externalPerimeter: 0.799, perimeter: 0.836, infill: 0.618, solid: 0.782 },
  layerOverhead: 0.045,
  islandOverhead: 0.136,
  minLayerTime: 5,
  minPrintSpeed: 10,
  supportDensity: 0.2,
};

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
  const pos = topo.positions;
  const idx = topo.indices;
  const nTri = idx.length / 3;
  const nBodies = topo.bodies;
  const z0 = basic.min[2];
  const height = basic.max[2] - z0;
  const N = Math.max(1, Math.ceil(height / h - 1e-6));
  const infillFraction = Math.min(1, Math.max(0, settings.infill / 100));
  const spacing = cal.extrusionWidth - h * (1 - Math.PI / 4);
  const wall = cal.perimeters * spacing;

  // per-body volume and box: cavities (inward-facing shells inside another body) are sliced with their host
  const bot = topo.bodyOfTriangle;
  const groupVol = new Float64Array(nBodies);
  const zMin = new Float64Array(nBodies).fill(Infinity);
  const zMax = new Float64Array(nBodies).fill(-Infinity);
  const groupCount = new Uint32Array(nBodies + 1);
  let order: Uint32Array | null = null;
  if (nBodies === 1) {
    // one body: the whole-mesh figures already say everything; no grouping or sorting needed
    groupVol[0] = basic.signedVolume;
    zMin[0] = 0;
    zMax[0] = height;
    groupCount[1] = nTri;
  } else {
    const bodyVol = new Float64Array(nBodies);
    const box = new Float64Array(nBodies * 6);
    for (let b = 0; b < nBodies; b++) {
      box[6 * b] = box[6 * b + 1] = box[6 * b + 2] = Infinity;
      box[6 * b + 3] = box[6 * b + 4] = box[6 * b + 5] = -Infinity;
    }
    for (let t = 0; t < nTri; t++) {
      const a = idx[3 * t] * 3;
      const b = idx[3 * t + 1] * 3;
      const c = idx[3 * t + 2] * 3;
      const body = bot[t];
      const ax = pos[a],
        ay = pos[a + 1],
        az = pos[a + 2] - z0;
      const bx = pos[b],
        by = pos[b + 1],
        bz = pos[b + 2] - z0;
      const cx = pos[c],
        cy = pos[c + 1],
        cz = pos[c + 2] - z0;
      bodyVol[body] += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
      const o = 6 * body;
      box[o] = Math.min(box[o], ax, bx, cx);
      box[o + 1] = Math.min(box[o + 1], ay, by, cy);
      box[o + 2] = Math.min(box[o + 2], az, bz, cz);
      box[o + 3] = Math.max(box[o + 3], ax, bx, cx);
      box[o + 4] = Math.max(box[o + 4], ay, by, cy);
      box[o + 5] = Math.max(box[o + 5], az, bz, cz);
    }
    const groupOf = groupCavities(nBodies, bodyVol, box);
    for (let b = 0; b < nBodies; b++) {
      const g = groupOf[b];
      groupVol[g] += bodyVol[b];
      zMin[g] = Math.min(zMin[g], box[6 * b + 2]);
      zMax[g] = Math.max(zMax[g], box[6 * b + 5]);
    }
    for (let t = 0; t < nTri; t++) groupCount[groupOf[bot[t]] + 1]++;
    // counting sort of triangles by group
    for (let g = 0; g < nBodies; g++) groupCount[g + 1] += groupCount[g];
    order = new Uint32Array(nTri);
    const fillAt = groupCount.slice(0, nBodies);
    for (let t = 0; t < nTri; t++) order[fillAt[groupOf[bot[t]]]++] = t;
  }

  const budget = sliceBudget(nTri);
  let work = 0;
  let overBudget = N > MAX_SLICED_LAYERS;
  const L = overBudget ? 0 : N;
  const area = new Float64Array(L);
  const outline = new Float64Array(L);
  const skin = new Float64Array(L);
  const bridge = new Float64Array(L);
  const support = new Float64Array(L);
  const overhang = new Float64Array(L);
  const layerSeconds = new Float64Array(L);
  const layerLength = new Float64Array(L);
  let material = 0;
  let supportVolume = 0;
  let slicedVolume = 0;
  const supportsOn = settings.supports !== "no";
  // auto supports overhangs steeper than 45 degrees from vertical; "yes" everything facing down by more than ~25 degrees
  const overhangNz = settings.supports === "yes" ? 0.42 : 0.7071;
  // calibration constants read once, outside the per-triangle loop (0.3 * width is the product the test always formed first)
  const overhangWidth = 0.3 * cal.extrusionWidth;
  const overhangFactor = cal.overhangPerimeterFactor;
  const topLayers = cal.topLayers;
  const bottomLayers = cal.bottomLayers;

  for (let group = 0; group < nBodies && !overBudget; group++) {
    const first = groupCount[group];
    const last = groupCount[group + 1];
    if (first === last) continue;
    const sign = groupVol[group] < 0 ? -1 : 1;
    const kLo = Math.max(0, Math.floor(zMin[group] / h - 0.5) - 1);
    const kHi = Math.min(N - 1, Math.ceil(zMax[group] / h) + 1);
    work += kHi - kLo + 1;
    if (work > budget) {
      overBudget = true;
      break;
    }
    for (let k = kLo; k <= kHi; k++) area[k] = outline[k] = skin[k] = bridge[k] = support[k] = overhang[k] = 0;

    // the triangle loop lives in its own function, called per block (see sliceBlock)
    for (let o = first; o < last;) {
      // a tiny first block runs to its end unoptimised, so the JIT has type feedback for the whole function
      const stop = Math.min(last, o === 0 ? 64 : o + SLICE_BLOCK);
      const spent = sliceBlock(
        idx,
        pos,
        order,
        o,
        stop,
        z0,
        sign,
        h,
        N,
        wall * cal.skinInsetFactor,
        spacing,
        overhangWidth,
        overhangFactor,
        topLayers,
        bottomLayers,
        supportsOn,
        overhangNz,
        area,
        outline,
        skin,
        bridge,
        support,
        overhang,
        budget - work,
      );
      if (spent < 0) {
        overBudget = true;
        break;
      }
      work += spent;
      o = stop;
    }
    if (overBudget) break;

    if (cal.skinMargin > 0) {
      work += last - first;
      addSkinMargins(idx, pos, order, first, last, z0, sign, h, N, cal, skin);
    }

    // layers whose sparse infill may fall apart into islands under solidBelowArea: assemble their loops
    let islands: Float64Array | null = null;
    let islandRings: Float64Array | null = null;
    if (cal.islandProbe > 0 && infillFraction > 0 && infillFraction < 1) {
      let probe: Float64Array | null = null;
      for (let k = kLo; k <= kHi; k++) {
        const A = area[k];
        if (A <= 1e-9) continue;
        const L = outline[k];
        const inner = A - ringOf(A, L, overhang[k], wall, cal.shellFactor);
        const sparse = inner - Math.min(inner, skin[k]);
        const w = (2 * sparse) / L;
        if (sparse >= cal.solidBelowArea && Math.PI * w * w < cal.islandProbe * cal.solidBelowArea) {
          if (!probe) probe = new Float64Array(N);
          // the layer's share of inner area left sparse after the skins
          probe[k] = sparse / inner;
        }
      }
      if (probe) {
        work += last - first;
        if (work > budget) {
          overBudget = true;
          break;
        }
        islands = new Float64Array(N);
        islandRings = new Float64Array(N);
        smallIslandShares(idx, pos, order, first, last, z0, sign, h, N, probe, wall, cal, islands, islandRings);
      }
    }

    for (let k = kLo; k <= kHi; k++) {
      const A = area[k];
      if (A <= 1e-9) continue;
      slicedVolume += A * h;
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
      material += layerMat;

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
    if (supportsOn) {
      // each supported overhang patch needs a column down to the bed: lines plus 3 denser interface layers
      let any = false;
      for (let k = kLo; k <= kHi; k++) {
        const s = support[k];
        if (s <= 0) continue;
        const column = s * k * h * cal.supportDensity + s * 3 * h * 0.5;
        supportVolume += column;
        const len = column / (spacing * h);
        // the column's time is spread over the layers below it; kept here and summed from the top down
        support[k] = len / k / 60;
        any = true;
      }
      if (any) {
        work += kHi;
        let above = 0;
        for (let j = kHi - 1; j >= 0; j--) {
          const s = support[j + 1];
          if (s > 0 && j + 1 >= kLo) above += s;
          layerSeconds[j] += above;
        }
      }
    }
  }

  let seconds = 0;
  for (let k = 0; k < L; k++) {
    let sec = layerSeconds[k];
    if (sec <= 0) continue;
    sec += cal.layerOverhead;
    // cooling: short layers are slowed to the minimum layer time, but never below the minimum print speed
    const slowest = layerLength[k] / cal.minPrintSpeed;
    if (sec < cal.minLayerTime) sec = Math.max(sec, Math.min(cal.minLayerTime, slowest));
    seconds += sec;
  }

  let sliced = true;
  // an open or self-intersecting mesh gives cross-sections that do not add up to its volume; a few stray open or
  // non-manifold edges in a real scan or export (the slicer repairs those) still slice as they are
  const flawed = topo.openEdges + topo.nonManifoldEdges > MAX_FLAWED_EDGE_SHARE * topo.edges;
  if (overBudget || flawed || Math.abs(slicedVolume - basic.volume) > 0.1 * basic.volume + 1) {
    sliced = false;
    material = surfaceEstimate(basic, topo, settings, cal, wall, infillFraction);
    seconds =
      material / (spacing * h) / (cal.speeds.perimeter * cal.speedEfficiency.perimeter) +
      N * (cal.layerOverhead + cal.islandOverhead);
  }
  const total = material + supportVolume;
  return {
    grams: (total * settings.density) / 1000,
    minutes: seconds / 60,
    materialVolume: total,
    supportVolume,
    layers: N,
    sliced,
    sliceWork: work,
  };
}

/** Triangles first..last of one group, same operations in the same order: inside estimatePrint this loop ran on OSR code that deoptimised at every exit, twice as slow. */
function sliceBlock(
  idx: Uint32Array,
  pos: Float32Array,
  order: Uint32Array | null,
  first: number,
  last: number,
  z0: number,
  sign: number,
  h: number,
  N: number,
  skinInset: number,
  spacing: number,
  overhangWidth: number,
  overhangFactor: number,
  topLayers: number,
  bottomLayers: number,
  supportsOn: boolean,
  overhangNz: number,
  area: Float64Array,
  outline: Float64Array,
  skin: Float64Array,
  bridge: Float64Array,
  support: Float64Array,
  overhang: Float64Array,
  allowance: number,
): number {
  let spent = 0;
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    const a = idx[3 * t] * 3;
    const b = idx[3 * t + 1] * 3;
    const c = idx[3 * t + 2] * 3;
    const ax = pos[a],
      ay = pos[a + 1],
      az = pos[a + 2] - z0;
    const bx = pos[b],
      by = pos[b + 1],
      bz = pos[b + 2] - z0;
    const cx = pos[c],
      cy = pos[c + 1],
      cz = pos[c + 2] - z0;
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az;
    const vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const nx = (uy * vz - uz * vy) * sign;
    const ny = (uz * vx - ux * vz) * sign;
    const nz = (ux * vy - uy * vx) * sign;
    const n2 = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (n2 === 0) continue;

    // order corners by height
    let lx = ax,
      ly = ay,
      lz = az,
      mx = bx,
      my = by,
      mz = bz,
      hx = cx,
      hy = cy,
      hz = cz,
      s: number;
    if (lz > mz) {
      s = lx;
      lx = mx;
      mx = s;
      s = ly;
      ly = my;
      my = s;
      s = lz;
      lz = mz;
      mz = s;
    }
    if (mz > hz) {
      s = mx;
      mx = hx;
      hx = s;
      s = my;
      my = hy;
      hy = s;
      s = mz;
      mz = hz;
      hz = s;
    }
    if (lz > mz) {
      s = lx;
      lx = mx;
      mx = s;
      s = ly;
      ly = my;
      my = s;
      s = lz;
      lz = mz;
      mz = s;
    }

    // cross-sections at the middle of every layer this triangle spans
    // lz / h and hz / h are reused below for the skins: the same divisions, done once
    const lzh = lz / h;
    const hzh = hz / h;
    const kStart = Math.max(0, Math.floor(lzh - 0.5) + 1);
    const kEnd = Math.min(N - 1, Math.ceil(hzh - 0.5) - 1);
    // layers crossed here and below for the skins; a hostile tall triangle stops the slicing before its loops run
    const span0 = kEnd - kStart + 1;
    spent += (span0 > 0 ? span0 : 0) + (hzh - lzh) + 2;
    if (spent > allowance) return -1;
    for (let k = kStart; k <= kEnd; k++) {
      const z = (k + 0.5) * h;
      const f = (z - lz) / (hz - lz);
      let px = lx + (hx - lx) * f;
      let py = ly + (hy - ly) * f;
      let qx: number, qy: number;
      if (z < mz) {
        const g = (z - lz) / (mz - lz);
        qx = lx + (mx - lx) * g;
        qy = ly + (my - ly) * g;
      } else {
        const g = (z - mz) / (hz - mz);
        qx = mx + (hx - mx) * g;
        qy = my + (hy - my) * g;
      }
      const dx = qx - px;
      const dy = qy - py;
      // walk the outline counter-clockwise seen from above: the outward normal must be on the right
      if (dy * nx - dx * ny < 0) {
        s = px;
        px = qx;
        qx = s;
        s = py;
        py = qy;
        qy = s;
      }
      area[k] += (px * qy - qx * py) * 0.5;
      outline[k] += Math.sqrt(dx * dx + dy * dy);
    }

    // top and bottom skins: exposed horizontal area, and how much of it lies inside the perimeters
    const cosT = nz / n2;
    const absCos = cosT < 0 ? -cosT : cosT;
    if (absCos < 1e-4) continue;
    const projected = (n2 * absCos) / 2;
    const sinT = Math.sqrt(Math.max(0, 1 - absCos * absCos));
    // exposed strip per layer is h*cos/sin wide; the part within `wall` of the edge is printed as perimeter
    const ratio = (skinInset * sinT) / (h * absCos);
    const up = cosT > 0;
    // walls leaning out by more than about a third of a line per layer get an extra perimeter
    if (!up && h * absCos > overhangWidth * sinT && sinT > 0.05) {
      const kk = Math.min(N - 1, Math.max(0, Math.floor((lz + hz) / 2 / h)));
      overhang[kk] += (n2 / 2) * sinT * spacing * overhangFactor;
    }
    const layers = up ? topLayers : bottomLayers;
    const offset = up ? -0.5 : 0.5;
    const u0 = lzh + offset;
    const u1 = hzh + offset;
    const span = u1 - u0;
    const k0 = Math.floor(u0);
    const k1 = Math.floor(u1);
    for (let k = k0; k <= k1; k++) {
      const w = span > 1e-9 ? (Math.min(u1, k + 1) - Math.max(u0, k)) / span : 1;
      if (w <= 0) continue;
      const part = projected * w;
      const kk = k < 0 ? 0 : k >= N ? N - 1 : k;
      for (let j = 0; j < layers; j++) {
        const inside = j + 1 - ratio;
        if (inside <= 0) continue;
        const share = part * (inside > 1 ? 1 : inside);
        const layer = up ? kk - j : kk + j;
        if (layer < 0 || layer >= N) continue;
        skin[layer] += share;
        // the lowest top layer sits on sparse infill and the first layer over air is a bridge
        if ((up && j === layers - 1) || (!up && j === 0 && kk > 0)) bridge[layer] += share;
      }
      if (supportsOn && !up && kk > 0 && absCos >= overhangNz) support[kk] += part;
    }
  }
  return spent;
}

const SLICE_BLOCK = 1 << 14;

/**
 * Skins grow into the sparse infill beside them: for each inner corner where a flat skin triangle meets a
 * wall (a floor meeting a wall that rises, a ceiling meeting one that falls), margin x the corner's length
 * is added to the skin of the layers that flat skin covers.
 */
function addSkinMargins(
  idx: Uint32Array,
  pos: Float32Array,
  order: Uint32Array | null,
  first: number,
  last: number,
  z0: number,
  sign: number,
  h: number,
  N: number,
  cal: Calibration,
  skin: Float64Array,
): void {
  const nV = pos.length / 3;
  // flat triangles are usually many (every face of a plate) and inner corners few: mark the vertices of flat
  // triangles, then keep only the horizontal edges of walls whose both ends are marked, then look up only
  // the flat edges whose both ends lie on such a wall edge. No map ever holds more than the corners.
  const flatVertex = new Uint8Array(nV);
  let anyFlat = false;
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    const a = idx[3 * t],
      b = idx[3 * t + 1],
      c = idx[3 * t + 2];
    const za = pos[3 * a + 2];
    if (za !== pos[3 * b + 2] || za !== pos[3 * c + 2]) continue;
    flatVertex[a] = flatVertex[b] = flatVertex[c] = 1;
    anyFlat = true;
  }
  if (!anyFlat) return;
  // wall edges on flat vertices: key -> +1 when the wall rises from the edge, -1 when it falls, 0 when ambiguous
  const wallEdges = new Map<number, number>();
  const wallVertex = new Uint8Array(nV);
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    for (let e = 0; e < 3; e++) {
      const a = idx[3 * t + e],
        b = idx[3 * t + ((e + 1) % 3)],
        c = idx[3 * t + ((e + 2) % 3)];
      if (!flatVertex[a] || !flatVertex[b]) continue;
      const za = pos[3 * a + 2];
      const zc = pos[3 * c + 2];
      if (za !== pos[3 * b + 2] || zc === za) continue;
      const key = Math.min(a, b) * nV + Math.max(a, b);
      const dir = zc > za ? 1 : -1;
      const seen = wallEdges.get(key);
      wallEdges.set(key, seen === undefined || seen === dir ? dir : 0);
      wallVertex[a] = wallVertex[b] = 1;
    }
  }
  if (wallEdges.size === 0) return;
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    const i0 = idx[3 * t],
      i1 = idx[3 * t + 1],
      i2 = idx[3 * t + 2];
    if (!(wallVertex[i0] | wallVertex[i1] | wallVertex[i2])) continue;
    const za = pos[3 * i0 + 2];
    if (za !== pos[3 * i1 + 2] || za !== pos[3 * i2 + 2]) continue;
    // facing up or down, with the group's winding
    const ux = pos[3 * i1] - pos[3 * i0],
      uy = pos[3 * i1 + 1] - pos[3 * i0 + 1];
    const vx = pos[3 * i2] - pos[3 * i0],
      vy = pos[3 * i2 + 1] - pos[3 * i0 + 1];
    const nz = (ux * vy - uy * vx) * sign;
    if (nz === 0) continue;
    const side = nz > 0 ? 1 : -1;
    for (let e = 0; e < 3; e++) {
      const a = idx[3 * t + e],
        b = idx[3 * t + ((e + 1) % 3)];
      if (!wallVertex[a] || !wallVertex[b]) continue;
      const dir = wallEdges.get(Math.min(a, b) * nV + Math.max(a, b));
      // a floor meets a wall rising from it, a ceiling one falling from it: an inner corner
      if (dir === undefined || dir !== side) continue;
      const len = Math.hypot(pos[3 * b] - pos[3 * a], pos[3 * b + 1] - pos[3 * a + 1]);
      const extra = len * cal.skinMargin;
      const zr = (za - z0) / h;
      const n = side > 0 ? cal.topLayers : cal.bottomLayers;
      // a floor's skin is the layers just below it, a ceiling's the layers just above it
      const k0 = side > 0 ? Math.floor(zr - 0.5) : Math.floor(zr + 0.5);
      for (let j = 0; j < n; j++) {
        const k = side > 0 ? k0 - j : k0 + j;
        if (k >= 0 && k < N) skin[k] += extra;
      }
    }
  }
}

/** Perimeter area of a cross-section of area A and outline L (a square loses 4 t^2 at its corners when offset inwards, a circle pi t^2: sharp corners dominate real parts). */
function ringOf(A: number, L: number, overhang: number, wall: number, shellFactor: number): number {
  let ring = L * wall * shellFactor - 4 * wall * wall + overhang;
  if (ring < L * wall * 0.5) ring = L * wall * 0.5;
  return ring > A ? A : ring;
}

/**
 * For each probed layer, the share of its sparse infill that lies in islands smaller than solidBelowArea.
 * The layer's segments are chained into loops through the mesh edges they cut (one key per edge, so both
 * triangles of an edge give the same key); counter-clockwise loops are islands, clockwise ones holes, each
 * hole given to the smallest island whose box holds it. A layer whose loops do not close keeps share 0.
 */
function smallIslandShares(
  idx: Uint32Array,
  pos: Float32Array,
  order: Uint32Array | null,
  first: number,
  last: number,
  z0: number,
  sign: number,
  h: number,
  N: number,
  probe: Float64Array,
  wall: number,
  cal: Calibration,
  shares: Float64Array,
  rings: Float64Array,
): void {
  const nV = pos.length / 3;
  // per probed layer: px, py, qx, qy, key of p, key of q
  const segs = new Map<number, number[]>();
  for (let k = 0; k < N; k++) if (probe[k] > 0) segs.set(k, []);
  // probed layers up to k, to skip a triangle that crosses none of them in O(1)
  const upTo = new Uint32Array(N + 1);
  for (let k = 0; k < N; k++) upTo[k + 1] = upTo[k] + (probe[k] > 0 ? 1 : 0);
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    let vl = idx[3 * t],
      vm = idx[3 * t + 1],
      vh = idx[3 * t + 2],
      sw: number;
    // corners ordered by height, ties broken by vertex id so both triangles of an edge agree
    if (pos[3 * vl + 2] > pos[3 * vm + 2] || (pos[3 * vl + 2] === pos[3 * vm + 2] && vl > vm)) {
      sw = vl;
      vl = vm;
      vm = sw;
    }
    if (pos[3 * vm + 2] > pos[3 * vh + 2] || (pos[3 * vm + 2] === pos[3 * vh + 2] && vm > vh)) {
      sw = vm;
      vm = vh;
      vh = sw;
    }
    if (pos[3 * vl + 2] > pos[3 * vm + 2] || (pos[3 * vl + 2] === pos[3 * vm + 2] && vl > vm)) {
      sw = vl;
      vl = vm;
      vm = sw;
    }
    const lz = pos[3 * vl + 2] - z0;
    const hz = pos[3 * vh + 2] - z0;
    const kStart = Math.max(0, Math.floor(lz / h - 0.5) + 1);
    const kEnd = Math.min(N - 1, Math.ceil(hz / h - 0.5) - 1);
    if (kStart > kEnd || upTo[kEnd + 1] === upTo[kStart]) continue;
    const lx = pos[3 * vl],
      ly = pos[3 * vl + 1];
    const mx = pos[3 * vm],
      my = pos[3 * vm + 1],
      mz = pos[3 * vm + 2] - z0;
    const hx = pos[3 * vh],
      hy = pos[3 * vh + 1];

    // outward normal (winding corrected by the group's sign)
    const ux = pos[3 * idx[3 * t + 1]] - pos[3 * idx[3 * t]],
      uy = pos[3 * idx[3 * t + 1] + 1] - pos[3 * idx[3 * t] + 1];
    const vx = pos[3 * idx[3 * t + 2]] - pos[3 * idx[3 * t]],
      vy = pos[3 * idx[3 * t + 2] + 1] - pos[3 * idx[3 * t] + 1];
    const uz = pos[3 * idx[3 * t + 1] + 2] - pos[3 * idx[3 * t] + 2],
      vz = pos[3 * idx[3 * t + 2] + 2] - pos[3 * idx[3 * t] + 2];
    const nx = (uy * vz - uz * vy) * sign;
    const ny = (uz * vx - ux * vz) * sign;
    const keyLH = Math.min(vl, vh) * nV + Math.max(vl, vh);
    const keyLM = Math.min(vl, vm) * nV + Math.max(vl, vm);
    const keyMH = Math.min(vm, vh) * nV + Math.max(vm, vh);
    for (let k = kStart; k <= kEnd; k++) {
      const list = segs.get(k);
      if (!list) continue;
      const z = (k + 0.5) * h;
      const f = (z - lz) / (hz - lz);
      const px = lx + (hx - lx) * f;
      const py = ly + (hy - ly) * f;
      let qx: number, qy: number, kq: number;
      if (z < mz) {
        const g = (z - lz) / (mz - lz);
        qx = lx + (mx - lx) * g;
        qy = ly + (my - ly) * g;
        kq = keyLM;
      } else if (z > mz) {
        const g = (z - mz) / (hz - mz);
        qx = mx + (hx - mx) * g;
        qy = my + (hy - my) * g;
        kq = keyMH;
      } else {
        qx = mx;
        qy = my;
        kq = nV * nV + vm;
      }
      const dx = qx - px;
      const dy = qy - py;
      if (dy * nx - dx * ny < 0) list.push(qx, qy, px, py, kq, keyLH);
      else list.push(px, py, qx, qy, keyLH, kq);
    }
  }

  for (const [k, list] of segs) {
    const n = list.length / 6;
    if (n === 0 || n > 200_000) continue;
    const startOf = new Map<number, number>();
    for (let i = 0; i < n; i++) startOf.set(list[6 * i + 4], i);
    const used = new Uint8Array(n);
    const loops: number[] = []; // area, length, minx, miny, maxx, maxy
    let broken = false;
    for (let i = 0; i < n && !broken; i++) {
      if (used[i]) continue;
      let a = 0,
        len = 0,
        x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
      let j = i;
      for (;;) {
        used[j] = 1;
        const px = list[6 * j],
          py = list[6 * j + 1],
          qx = list[6 * j + 2],
          qy = list[6 * j + 3];
        a += (px * qy - qx * py) * 0.5;
        len += Math.hypot(qx - px, qy - py);
        if (px < x0) x0 = px;
        if (px > x1) x1 = px;
        if (py < y0) y0 = py;
        if (py > y1) y1 = py;
        const next = startOf.get(list[6 * j + 5]);
        if (next === undefined) {
          broken = true;
          break;
        }
        if (next === i) break;
        if (used[next]) {
          broken = true;
          break;
        }
        j = next;
      }
      loops.push(a, len, x0, y0, x1, y1);
    }
    const m = loops.length / 6;
    if (broken || m > 2000) continue;
    // holes to the smallest island whose box holds them
    const islandA = new Float64Array(m);
    const islandL = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      if (loops[6 * i] <= 0) continue;
      islandA[i] += loops[6 * i];
      islandL[i] += loops[6 * i + 1];
    }
    for (let i = 0; i < m; i++) {
      if (loops[6 * i] > 0) continue;
      let best = -1;
      for (let c = 0; c < m; c++) {
        if (loops[6 * c] <= 0) continue;
        if (
          loops[6 * c + 2] <= loops[6 * i + 2] &&
          loops[6 * c + 3] <= loops[6 * i + 3] &&
          loops[6 * c + 4] >= loops[6 * i + 4] &&
          loops[6 * c + 5] >= loops[6 * i + 5] &&
          (best < 0 || loops[6 * c] < loops[6 * best])
        )
          best = c;
      }
      if (best < 0) continue;
      islandA[best] += loops[6 * i];
      islandL[best] += loops[6 * i + 1];
    }
    let innerSum = 0;
    let ringSum = 0;
    const inner = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      if (islandA[i] <= 0) continue;
      const ring = ringOf(islandA[i], islandL[i], 0, wall, cal.shellFactor);
      inner[i] = islandA[i] - ring;
      innerSum += inner[i];
      ringSum += ring;
    }
    rings[k] = ringSum;
    if (innerSum <= 0) continue;
    // skins are spread over the islands in proportion to their inner area
    const sparseShare = probe[k];
    let small = 0;
    for (let i = 0; i < m; i++) if (inner[i] > 0 && inner[i] * sparseShare < cal.solidBelowArea) small += inner[i];
    shares[k] = small / innerSum;
  }
}

/**
 * Maps each body to the body it is a cavity of (opposite winding, smaller, inside its box), or to
 * itself. Quadratic, so very fragmented meshes skip it and keep one group per body.
 */
function groupCavities(n: number, vol: Float64Array, box: Float64Array): Int32Array {
  const parent = new Int32Array(n);
  for (let b = 0; b < n; b++) parent[b] = b;
  if (n < 2 || n > 2000) return parent;
  const eps = 1e-4;
  for (let b = 0; b < n; b++) {
    let best = -1;
    for (let c = 0; c < n; c++) {
      if (c === b || vol[b] * vol[c] >= 0 || Math.abs(vol[b]) >= Math.abs(vol[c])) continue;
      const ob = 6 * b,
        oc = 6 * c;
      if (
        box[ob] < box[oc] - eps ||
        box[ob + 1] < box[oc + 1] - eps ||
        box[ob + 2] < box[oc + 2] - eps ||
        box[ob + 3] > box[oc + 3] + eps ||
        box[ob + 4] > box[oc + 4] + eps ||
        box[ob + 5] > box[oc + 5] + eps
      )
        continue;
      if (best < 0 || Math.abs(vol[c]) < Math.abs(vol[best])) best = c;
    }
    if (best >= 0) parent[b] = best;
  }
  // follow chains (a solid inside a cavity inside a solid) to the outermost host
  const root = new Int32Array(n);
  for (let b = 0; b < n; b++) {
    let r = b;
    for (let guard = 0; parent[r] !== r && guard < n; guard++) r = parent[r];
    root[b] = r;
  }
  return root;
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
