// Bodies grouped for slicing: an inside-out shell inside another body is that body's cavity, sliced with it.

import type { BasicMetrics } from "./metrics";
import type { Topology } from "./topology";

/** Groups of triangles sliced together, each with its signed volume and height range above the bed. */
export interface BodyGroups {
  /** signed volume per group (negative when the group is inside out) */
  volume: Float64Array;
  zMin: Float64Array;
  zMax: Float64Array;
  /** group g holds the triangles order[start[g]] .. order[start[g + 1] - 1] */
  start: Uint32Array;
  /** triangles sorted by group; null when there is one body and the triangles are in file order */
  order: Uint32Array | null;
}

/** Per-body volume and box, cavities joined to their hosts, and the triangles counting-sorted by group. */
export function groupBodies(topo: Topology, basic: BasicMetrics, z0: number, height: number): BodyGroups {
  const pos = topo.positions;
  const idx = topo.indices;
  const nTri = idx.length / 3;
  const nBodies = topo.bodies;
  const bot = topo.bodyOfTriangle;
  const groupVol = new Float64Array(nBodies);
  const zMin = new Float64Array(nBodies).fill(Infinity);
  const zMax = new Float64Array(nBodies).fill(-Infinity);
  const groupCount = new Uint32Array(nBodies + 1);
  if (nBodies === 1) {
    // one body: the whole-mesh figures already say everything; no grouping or sorting needed
    groupVol[0] = basic.signedVolume;
    zMin[0] = 0;
    zMax[0] = height;
    groupCount[1] = nTri;
    return { volume: groupVol, zMin, zMax, start: groupCount, order: null };
  }
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
  const order = new Uint32Array(nTri);
  const fillAt = groupCount.slice(0, nBodies);
  for (let t = 0; t < nTri; t++) order[fillAt[groupOf[bot[t]]]++] = t;
  return { volume: groupVol, zMin, zMax, start: groupCount, order };
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
