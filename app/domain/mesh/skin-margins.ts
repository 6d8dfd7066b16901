// Skin margins: the slicer grows every top and bottom skin 3 mm into the sparse infill beside it, counted here along
// the inner corners where a flat skin meets a wall.

import type { Calibration } from "./calibration";

/**
 * Skins grow into the sparse infill beside them: for each inner corner where a flat skin triangle meets a
 * wall (a floor meeting a wall that rises, a ceiling meeting one that falls), margin x the corner's length
 * is added to the skin of the layers that flat skin covers.
 */
export function addSkinMargins(
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
  // flat[o - first]: the triangle at o is flat, so the later passes need not load its corners to know
  const flat = new Uint8Array(last - first);
  if (!markFlat(idx, pos, order, first, last, flat, flatVertex)) return;
  // wall edges on flat vertices: key -> +1 when the wall rises from the edge, -1 when it falls, 0 when ambiguous
  const wallEdges = new Map<number, number>();
  const wallVertex = new Uint8Array(nV);
  for (let o = first; o < last; o++) {
    // a flat triangle has no wall edge, and a wall edge needs two flat ends
    if (flat[o - first]) continue;
    const t = order ? order[o] : o;
    const i0 = idx[3 * t],
      i1 = idx[3 * t + 1],
      i2 = idx[3 * t + 2];
    if (flatVertex[i0] + flatVertex[i1] + flatVertex[i2] < 2) continue;
    addWallEdge(pos, nV, flatVertex, wallEdges, wallVertex, i0, i1, i2);
    addWallEdge(pos, nV, flatVertex, wallEdges, wallVertex, i1, i2, i0);
    addWallEdge(pos, nV, flatVertex, wallEdges, wallVertex, i2, i0, i1);
  }
  if (wallEdges.size === 0) return;
  const margin: Margin = { pos, nV, wallVertex, wallEdges, z0, h, N, cal, skin };
  for (let o = first; o < last; o++) {
    if (!flat[o - first]) continue;
    const t = order ? order[o] : o;
    const i0 = idx[3 * t],
      i1 = idx[3 * t + 1],
      i2 = idx[3 * t + 2];
    if (!(wallVertex[i0] | wallVertex[i1] | wallVertex[i2])) continue;
    // facing up or down, with the group's winding
    const ux = pos[3 * i1] - pos[3 * i0],
      uy = pos[3 * i1 + 1] - pos[3 * i0 + 1];
    const vx = pos[3 * i2] - pos[3 * i0],
      vy = pos[3 * i2 + 1] - pos[3 * i0 + 1];
    const nz = (ux * vy - uy * vx) * sign;
    if (nz === 0) continue;
    const side = nz > 0 ? 1 : -1;
    addCornerMargin(margin, side, i0, i1);
    addCornerMargin(margin, side, i1, i2);
    addCornerMargin(margin, side, i2, i0);
  }
}

/** Marks the flat triangles (all corners at one height) and their vertices; false when there is none. */
function markFlat(
  idx: Uint32Array,
  pos: Float32Array,
  order: Uint32Array | null,
  first: number,
  last: number,
  flat: Uint8Array,
  flatVertex: Uint8Array,
): boolean {
  let anyFlat = false;
  for (let o = first; o < last; o++) {
    const t = order ? order[o] : o;
    const a = idx[3 * t],
      b = idx[3 * t + 1],
      c = idx[3 * t + 2];
    const za = pos[3 * a + 2];
    if (za !== pos[3 * b + 2] || za !== pos[3 * c + 2]) continue;
    flat[o - first] = 1;
    flatVertex[a] = flatVertex[b] = flatVertex[c] = 1;
    anyFlat = true;
  }
  return anyFlat;
}

/** Edge a-b of a triangle whose third corner is c: a wall edge when a and b are flat vertices at one height and c is not. */
function addWallEdge(
  pos: Float32Array,
  nV: number,
  flatVertex: Uint8Array,
  wallEdges: Map<number, number>,
  wallVertex: Uint8Array,
  a: number,
  b: number,
  c: number,
): void {
  if (!flatVertex[a] || !flatVertex[b]) return;
  const za = pos[3 * a + 2];
  const zc = pos[3 * c + 2];
  if (za !== pos[3 * b + 2] || zc === za) return;
  const key = Math.min(a, b) * nV + Math.max(a, b);
  const dir = zc > za ? 1 : -1;
  const seen = wallEdges.get(key);
  wallEdges.set(key, seen === undefined || seen === dir ? dir : 0);
  wallVertex[a] = wallVertex[b] = 1;
}

/** What the last pass reads: the wall edges found, and where the margins go. */
interface Margin {
  pos: Float32Array;
  nV: number;
  wallVertex: Uint8Array;
  wallEdges: Map<number, number>;
  z0: number;
  h: number;
  N: number;
  cal: Calibration;
  skin: Float64Array;
}

/** Edge a-b of a flat triangle facing up (side 1) or down (-1): at an inner corner, margin x its length is added to the skin. */
function addCornerMargin(m: Margin, side: number, a: number, b: number): void {
  const { pos, wallVertex, wallEdges, nV, cal, skin, N } = m;
  if (!wallVertex[a] || !wallVertex[b]) return;
  const dir = wallEdges.get(Math.min(a, b) * nV + Math.max(a, b));
  // a floor meets a wall rising from it, a ceiling one falling from it: an inner corner
  if (dir === undefined || dir !== side) return;
  const len = Math.hypot(pos[3 * b] - pos[3 * a], pos[3 * b + 1] - pos[3 * a + 1]);
  const extra = len * cal.skinMargin;
  const zr = (pos[3 * a + 2] - m.z0) / m.h;
  const n = side > 0 ? cal.topLayers : cal.bottomLayers;
  // a floor's skin is the layers just below it, a ceiling's the layers just above it
  const k0 = side > 0 ? Math.floor(zr - 0.5) : Math.floor(zr + 0.5);
  for (let j = 0; j < n; j++) {
    const k = side > 0 ? k0 - j : k0 + j;
    if (k >= 0 && k < N) skin[k] += extra;
  }
}
