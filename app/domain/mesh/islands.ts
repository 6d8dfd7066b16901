// Infill islands: solid_infill_below_area applies to each island of sparse infill, which the layer sums do not see.
// A layer whose sparse infill could fall apart into small islands has its cut segments chained into loops.

import type { Calibration } from "./calibration";
import { ringOf } from "./layers";
import { blockEnd } from "./metrics";
import { keepShape } from "./shapes";
import type { LayerSums, SliceSettings } from "./slice";

/**
 * Layers whose sparse infill could be split into islands under solidBelowArea (pi w^2 < islandProbe x solidBelowArea,
 * with w = 2 x sparse / outline), each with its share of inner area left sparse after the skins; null when none.
 */
export function probeLayers(
  sums: LayerSums,
  kLo: number,
  kHi: number,
  N: number,
  wall: number,
  cal: Calibration,
): Float64Array | null {
  const { area, outline, skin, overhang } = sums;
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
  return probe;
}

/**
 * For each probed layer, the share of its sparse infill that lies in islands smaller than solidBelowArea, and the
 * perimeters of its islands. The layer's segments are chained into loops through the mesh edges they cut (one key per
 * edge, so both triangles of an edge give the same key); counter-clockwise loops are islands, clockwise ones holes,
 * each hole given to the smallest island whose box holds it. A layer whose loops do not close keeps share 0.
 */
export function smallIslandShares(
  settings: SliceSettings,
  sums: LayerSums,
  kLo: number,
  kHi: number,
  sign: number,
  probe: Float64Array,
  wall: number,
  cal: Calibration,
  shares: Float64Array,
  rings: Float64Array,
): void {
  const segs = islandSegments(settings, sums, kLo, kHi, sign, probe);
  for (const [k, list] of segs) {
    const loops = chainLoops(list, list.length / 6);
    if (loops !== null) islandFigures(loops, probe[k], wall, cal, k, shares, rings);
  }
}

/** Layers with more segments than this are not assembled (their share stays 0): the chaining is bounded. */
const MAX_LAYER_SEGMENTS = 200_000;

/**
 * Per probed layer with 1 to MAX_LAYER_SEGMENTS segments, its segments oriented with the outward normal on their right:
 * px, py, qx, qy, key of p, key of q. Each layer gets a typed array of its exact size: one segment per triangle crossing
 * its middle, counted while slicing.
 */
function islandSegments(
  settings: SliceSettings,
  sums: LayerSums,
  kLo: number,
  kHi: number,
  sign: number,
  probe: Float64Array,
): Map<number, Float64Array> {
  const N = settings.N;
  const { crossing, crossingCount, crossingSteps } = sums;
  // probed layers up to k, to skip a triangle that crosses none of them in O(1)
  const upTo = new Uint32Array(N + 1);
  for (let k = 0; k < N; k++) upTo[k + 1] = upTo[k] + (probe[k] > 0 ? 1 : 0);
  const segs = new Map<number, Float64Array>();
  const lists: Array<Float64Array | null> = [];
  let n = 0;
  for (let k = 0; k < N; k++) {
    // the group's triangles cross only layers kLo..kHi; steps outside them may be another group's
    if (k >= kLo && k <= kHi) n += crossingSteps[k];
    const list = probe[k] > 0 && n > 0 && n <= MAX_LAYER_SEGMENTS ? new Float64Array(6 * n) : null;
    if (list) segs.set(k, list);
    lists.push(list);
  }
  // how many segments of each layer are written so far
  const count = new Uint32Array(N);
  for (let q = 0; q < crossingCount; q = blockEnd(q, crossingCount))
    walkSegments(settings, crossing, q, blockEnd(q, crossingCount), sign, upTo, count, lists);
  return segs;
}

/** Cuts the crossing triangles crossing[from..to) at the middle of each layer with a list; count[k]: segments written so far. */
function walkSegments(
  settings: SliceSettings,
  crossing: Uint32Array,
  from: number,
  to: number,
  sign: number,
  upTo: Uint32Array,
  count: Uint32Array,
  lists: Array<Float64Array | null>,
): void {
  const { idx, pos, order, z0, h, N } = settings;
  const nV = pos.length / 3;
  // the others cross no layer's middle, so they would be skipped below
  for (let q = from; q < to; q++) {
    const o = crossing[q];
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
      const list = lists[k];
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
      // from p to q, or from q to p when that puts the outward normal on the right
      const flip = dy * nx - dx * ny < 0;
      const at = 6 * count[k]++;
      list[at] = flip ? qx : px;
      list[at + 1] = flip ? qy : py;
      list[at + 2] = flip ? px : qx;
      list[at + 3] = flip ? py : qy;
      list[at + 4] = flip ? kq : keyLH;
      list[at + 5] = flip ? keyLH : kq;
    }
  }
}

/** The loops of one layer's n segments (area, length, min x, min y, max x, max y each); null when one does not close or there are too many. */
function chainLoops(list: Float64Array, n: number): number[] | null {
  const startOf = new SegmentStarts(n);
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
      if (next < 0) {
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
  return broken || m > 2000 ? null : loops;
}

/** Holes given to their islands, then the layer's island perimeters and the share of its sparse infill in small islands. */
function islandFigures(
  loops: number[],
  sparseShare: number,
  wall: number,
  cal: Calibration,
  k: number,
  shares: Float64Array,
  rings: Float64Array,
): void {
  const m = loops.length / 6;
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
  if (innerSum <= 0) return;
  // skins are spread over the islands in proportion to their inner area
  let small = 0;
  for (let i = 0; i < m; i++) if (inner[i] > 0 && inner[i] * sparseShare < cal.solidBelowArea) small += inner[i];
  shares[k] = small / innerSum;
}

/**
 * Segment by the key of its start, the last one set winning (as a Map would keep it). Keys are whole numbers up to
 * about 2^48, which a Map would box on every call; here they stay doubles in a typed array.
 */
class SegmentStarts {
  private readonly keys: Float64Array;
  private readonly values: Int32Array;
  private readonly mask: number;
  constructor(n: number) {
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    this.keys = new Float64Array(cap);
    this.values = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  set(key: number, segment: number): void {
    const { keys, values, mask } = this;
    let i = slotOf(key) & mask;
    while (values[i] >= 0 && keys[i] !== key) i = (i + 1) & mask;
    keys[i] = key;
    values[i] = segment;
  }

  /** The segment starting at key, or -1. */
  get(key: number): number {
    const { keys, values, mask } = this;
    let i = slotOf(key) & mask;
    while (values[i] >= 0) {
      if (keys[i] === key) return values[i];
      i = (i + 1) & mask;
    }
    return -1;
  }
}

keepShape(new SegmentStarts(0));

/** The low and high 32 bits of a whole-number key, mixed. */
function slotOf(key: number): number {
  const lo = key >>> 0;
  const hi = ((key - lo) / 4294967296) | 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca77), 0x9e3779b1) >>> 0;
}
