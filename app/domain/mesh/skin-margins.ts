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
