// Slicing a group's triangles at the middle of each layer (as PrusaSlicer does): cross-section area from the shoelace sum
// of the triangle/plane segments, outline length from their lengths, with no polygon assembly; up- and down-facing area
// decides where top and bottom skins go, down-facing walls where overhang perimeters and supports go.

import { DEFAULT_CALIBRATION, type Calibration } from "./calibration";
import { keepShape } from "./shapes";
import type { SupportsMode } from "./types";

/** The layer grid, the triangles and the profile's constants that slicing reads, fixed for one estimate. */
export class SliceSettings {
  /** height of the bed */
  readonly z0: number;
  /** layer height */
  readonly h: number;
  /** layers */
  readonly N: number;
  /** width of the perimeters a sloped skin strip loses */
  readonly skinInset: number;
  readonly spacing: number;
  /** how far a wall may lean out per layer before it is an overhang (0.3 of a line) */
  readonly overhangWidth: number;
  readonly overhangFactor: number;
  readonly topLayers: number;
  readonly bottomLayers: number;
  readonly supportsOn: boolean;
  /** how far down a triangle must face to be supported */
  readonly overhangNz: number;
  constructor(
    readonly idx: Uint32Array,
    readonly pos: Float32Array,
    /** triangles sorted by group, or null for file order */
    readonly order: Uint32Array | null,
    layers: { z0: number; h: number; N: number; wall: number; spacing: number },
    cal: Calibration,
    supports: SupportsMode,
  ) {
    this.z0 = layers.z0;
    this.h = layers.h;
    this.N = layers.N;
    this.skinInset = layers.wall * cal.skinInsetFactor;
    this.spacing = layers.spacing;
    // calibration constants read once, outside the per-triangle loop (0.3 * width is the product the test always formed first)
    this.overhangWidth = 0.3 * cal.extrusionWidth;
    this.overhangFactor = cal.overhangPerimeterFactor;
    this.topLayers = cal.topLayers;
    this.bottomLayers = cal.bottomLayers;
    this.supportsOn = supports !== "no";
    // auto supports overhangs steeper than 45 degrees from vertical; "yes" everything facing down by more than ~25 degrees
    this.overhangNz = supports === "yes" ? 0.42 : 0.7071;
  }
}

/** What slicing sums per layer for one group; reset over the group's layers before it is sliced. */
export class LayerSums {
  /** cross-section area */
  readonly area: Float64Array;
  /** outline length */
  readonly outline: Float64Array;
  /** top and bottom skin area */
  readonly skin: Float64Array;
  /** the part of the skin printed as a bridge */
  readonly bridge: Float64Array;
  /** overhang area needing supports below it */
  readonly support: Float64Array;
  /** extra perimeter area on overhanging walls */
  readonly overhang: Float64Array;
  /** positions (in slicing order) of the group's triangles that cross at least one layer's middle, degenerate ones too */
  readonly crossing: Uint32Array;
  crossingCount = 0;
  /** those triangles per layer, as differences: +1 at the first layer whose middle a triangle crosses, -1 past its last */
  readonly crossingSteps: Int32Array;
  /** flat[o]: the triangle at slicing position o is flat (corners at one height), marked while slicing for the skin margins */
  readonly flat: Uint8Array;
  /** vertices of flat triangles (groups share no vertex, so a mark never reaches another group's triangles) */
  readonly flatVertex: Uint8Array;
  /** whether the group being sliced has a flat triangle */
  anyFlat = false;
  constructor(layers: number, triangles: number, vertices: number) {
    this.crossing = new Uint32Array(layers > 0 ? triangles : 0);
    this.crossingSteps = new Int32Array(layers + 1);
    this.flat = new Uint8Array(layers > 0 ? triangles : 0);
    this.flatVertex = new Uint8Array(layers > 0 ? vertices : 0);
    this.area = new Float64Array(layers);
    this.outline = new Float64Array(layers);
    this.skin = new Float64Array(layers);
    this.bridge = new Float64Array(layers);
    this.support = new Float64Array(layers);
    this.overhang = new Float64Array(layers);
  }

  reset(kLo: number, kHi: number): void {
    const { area, outline, skin, bridge, support, overhang } = this;
    for (let k = kLo; k <= kHi; k++) area[k] = outline[k] = skin[k] = bridge[k] = support[k] = overhang[k] = 0;
    // a group's triangles cross only layers within its kLo..kHi
    this.crossingSteps.fill(0, kLo, kHi + 2);
    this.crossingCount = 0;
    this.anyFlat = false;
  }
}

// fractional values, so the samples' fields are doubles as real ones may be
keepShape(
  new SliceSettings(
    new Uint32Array(0),
    new Float32Array(0),
    null,
    { z0: 0.5, h: 0.2, N: 1, wall: 0.8, spacing: 0.4 },
    DEFAULT_CALIBRATION,
    "auto",
  ),
);
keepShape(new LayerSums(0, 0, 0));

const SLICE_BLOCK = 1 << 14;

/**
 * Slices the group's triangles first..last (positions in `order`) with the winding sign of the group, adding each
 * block's work to totals.work; false once the work would pass the budget (the sums are then incomplete).
 */
export function sliceGroup(
  settings: SliceSettings,
  sums: LayerSums,
  first: number,
  last: number,
  sign: number,
  totals: { work: number },
  budget: number,
): boolean {
  // the triangle loop lives in its own function, called per block (see sliceBlock)
  for (let o = first; o < last;) {
    // a tiny first block runs to its end unoptimised, so the JIT has type feedback for the whole function
    const stop = Math.min(last, o === 0 ? 64 : o + SLICE_BLOCK);
    const spent = sliceBlock(settings, sums, o, stop, sign, budget - totals.work);
    if (spent < 0) return false;
    totals.work += spent;
    o = stop;
  }
  return true;
}

/** Triangles first..last of one group, same operations in the same order: inside estimatePrint this loop ran on OSR code that deoptimised at every exit, twice as slow. */
function sliceBlock(
  settings: SliceSettings,
  sums: LayerSums,
  first: number,
  last: number,
  sign: number,
  allowance: number,
): number {
  const { idx, pos, order, z0, h, N, skinInset, spacing, overhangWidth, overhangFactor, topLayers, bottomLayers } = settings;
  const { supportsOn, overhangNz } = settings;
  const { skin, bridge, support, overhang, crossing, crossingSteps, flat, flatVertex } = sums;
  let crossed = sums.crossingCount;
  let anyFlat = sums.anyFlat;
  let spent = 0;
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    const a = idx[3 * t] * 3;
    const b = idx[3 * t + 1] * 3;
    const c = idx[3 * t + 2] * 3;
    if (pos[a + 2] === pos[b + 2] && pos[a + 2] === pos[c + 2]) {
      flat[o] = 1;
      flatVertex[idx[3 * t]] = flatVertex[idx[3 * t + 1]] = flatVertex[idx[3 * t + 2]] = 1;
      anyFlat = true;
    }
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

    // the lowest and highest corner, by the comparisons crossSections makes on whole corners
    let lz = az,
      mz = bz,
      hz = cz,
      s: number;
    if (lz > mz) {
      s = lz;
      lz = mz;
      mz = s;
    }
    if (mz > hz) {
      s = mz;
      mz = hz;
      hz = s;
    }
    if (lz > mz) lz = mz;
    // lz / h and hz / h serve the cross-sections and the skins: the same divisions, done once
    const lzh = lz / h;
    const hzh = hz / h;
    const kStart = Math.max(0, Math.floor(lzh - 0.5) + 1);
    const kEnd = Math.min(N - 1, Math.ceil(hzh - 0.5) - 1);
    const span0 = kEnd - kStart + 1;
    // the islands' loops are chained from these triangles' segments, degenerate ones included
    if (span0 > 0) {
      crossing[crossed++] = o;
      crossingSteps[kStart]++;
      crossingSteps[kEnd + 1]--;
    }
    if (n2 === 0) continue;
    // layers crossed here and below for the skins; a hostile tall triangle stops the slicing before its loops run
    spent += (span0 > 0 ? span0 : 0) + (hzh - lzh) + 2;
    if (spent > allowance) return -1;
    // most triangles of a fine mesh cross no layer's middle
    if (span0 > 0) crossSections(settings, sums, kStart, kEnd, a, b, c, sign);

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
  sums.crossingCount = crossed;
  sums.anyFlat = anyFlat;
  return spent;
}

/**
 * Cross-sections of one triangle (corners at offsets a, b, c of the positions) at the middle of layers kStart..kEnd: area
 * by the shoelace sum, and outline length. It takes offsets, not coordinates, and reloads them: doubles passed to a call
 * that is not inlined are boxed, a heap allocation each.
 */
function crossSections(
  settings: SliceSettings,
  sums: LayerSums,
  kStart: number,
  kEnd: number,
  a: number,
  b: number,
  c: number,
  sign: number,
): void {
  const { pos, z0, h } = settings;
  const ax = pos[a],
    ay = pos[a + 1],
    az = pos[a + 2] - z0;
  const bx = pos[b],
    by = pos[b + 1],
    bz = pos[b + 2] - z0;
  const cx = pos[c],
    cy = pos[c + 1],
    cz = pos[c + 2] - z0;
  // the outward normal's horizontal part, as sliceBlock computed it
  const ux = bx - ax,
    uy = by - ay,
    uz = bz - az;
  const vx = cx - ax,
    vy = cy - ay,
    vz = cz - az;
  const nx = (uy * vz - uz * vy) * sign;
  const ny = (uz * vx - ux * vz) * sign;
  const { area, outline } = sums;
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
  for (let k = kStart; k <= kEnd; k++) {
    const z = (k + 0.5) * h;
    const f = (z - lz) / (hz - lz);
    const px = lx + (hx - lx) * f;
    const py = ly + (hy - ly) * f;
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
    // walk the outline counter-clockwise seen from above: the outward normal must be on the right (swapping p and q
    // negates the cross product exactly)
    const cross = (px * qy - qx * py) * 0.5;
    area[k] += dy * nx - dx * ny < 0 ? -cross : cross;
    outline[k] += Math.sqrt(dx * dx + dy * dy);
  }
}
