// Skin margins: the slicer grows every top and bottom skin 3 mm into the sparse infill beside it, counted here along
// the inner corners where a flat skin meets a wall.

import { DEFAULT_CALIBRATION, type Calibration } from "./calibration";
import { blockEnd } from "./metrics";
import { keepShape } from "./shapes";
import type { LayerSums } from "./slice";

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
  sums: LayerSums,
): void {
  // flat triangles are usually many (every face of a plate) and inner corners few: slicing marked the flat triangles and
  // their vertices; keep only the horizontal edges of walls whose both ends are marked, then look up only the flat
  // edges whose both ends lie on such a wall edge. No map ever holds more than the corners.
  if (!sums.anyFlat) return;
  const m = new SkinMargins(idx, pos, order, z0, sign, h, N, cal, sums.skin, sums.flat, sums.flatVertex);
  // each pass runs in blocks, like the other long loops of the engine
  for (let o = first; o < last; o = blockEnd(o, last)) m.findWalls(o, blockEnd(o, last));
  if (m.wallEdges.size === 0) return;
  for (let o = first; o < last; o = blockEnd(o, last)) m.addCorners(o, blockEnd(o, last));
}

/** One group's triangles and what the passes learn about them. */
class SkinMargins {
  readonly nV: number;
  /** wall edges on flat vertices: key -> +1 when the wall rises from the edge, -1 when it falls, 0 when ambiguous */
  readonly wallEdges = new Map<number, number>();
  readonly wallVertex: Uint8Array;
  constructor(
    readonly idx: Uint32Array,
    readonly pos: Float32Array,
    readonly order: Uint32Array | null,
    readonly z0: number,
    readonly sign: number,
    readonly h: number,
    readonly N: number,
    readonly cal: Calibration,
    readonly skin: Float64Array,
    /** flat[o]: the triangle at slicing position o is flat, so the passes need not load its corners to know */
    readonly flat: Uint8Array,
    readonly flatVertex: Uint8Array,
  ) {
    this.nV = pos.length / 3;
    this.wallVertex = new Uint8Array(this.nV);
  }

  /** The wall edges of the triangles in from..to. */
  findWalls(from: number, to: number): void {
    const { idx, order, flat, flatVertex } = this;
    for (let o = from; o < to; o++) {
      // a flat triangle has no wall edge, and a wall edge needs two flat ends
      if (flat[o]) continue;
      const t = order ? order[o] : o;
      const i0 = idx[3 * t],
        i1 = idx[3 * t + 1],
        i2 = idx[3 * t + 2];
      if (flatVertex[i0] + flatVertex[i1] + flatVertex[i2] < 2) continue;
      this.wallEdge(i0, i1, i2);
      this.wallEdge(i1, i2, i0);
      this.wallEdge(i2, i0, i1);
    }
  }

  /** Edge a-b of a triangle whose third corner is c: a wall edge when a and b are flat vertices at one height and c is not. */
  private wallEdge(a: number, b: number, c: number): void {
    const { pos, flatVertex } = this;
    if (!flatVertex[a] || !flatVertex[b]) return;
    const za = pos[3 * a + 2];
    const zc = pos[3 * c + 2];
    if (za !== pos[3 * b + 2] || zc === za) return;
    const key = Math.min(a, b) * this.nV + Math.max(a, b);
    const dir = zc > za ? 1 : -1;
    const seen = this.wallEdges.get(key);
    this.wallEdges.set(key, seen === undefined || seen === dir ? dir : 0);
    this.wallVertex[a] = this.wallVertex[b] = 1;
  }

  /** The margins along the inner corners of the flat triangles in from..to. */
  addCorners(from: number, to: number): void {
    const { idx, pos, order, flat, wallVertex, sign } = this;
    for (let o = from; o < to; o++) {
      if (!flat[o]) continue;
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
      this.cornerMargin(side, i0, i1);
      this.cornerMargin(side, i1, i2);
      this.cornerMargin(side, i2, i0);
    }
  }

  /** Edge a-b of a flat triangle facing up (side 1) or down (-1): at an inner corner, margin x its length is added to the skin. */
  private cornerMargin(side: number, a: number, b: number): void {
    const { pos, wallVertex, cal, skin, N } = this;
    if (!wallVertex[a] || !wallVertex[b]) return;
    const dir = this.wallEdges.get(Math.min(a, b) * this.nV + Math.max(a, b));
    // a floor meets a wall rising from it, a ceiling one falling from it: an inner corner
    if (dir === undefined || dir !== side) return;
    const len = Math.hypot(pos[3 * b] - pos[3 * a], pos[3 * b + 1] - pos[3 * a + 1]);
    const extra = len * cal.skinMargin;
    const zr = (pos[3 * a + 2] - this.z0) / this.h;
    const n = side > 0 ? cal.topLayers : cal.bottomLayers;
    // a floor's skin is the layers just below it, a ceiling's the layers just above it
    const k0 = side > 0 ? Math.floor(zr - 0.5) : Math.floor(zr + 0.5);
    for (let j = 0; j < n; j++) {
      const k = side > 0 ? k0 - j : k0 + j;
      if (k >= 0 && k < N) skin[k] += extra;
    }
  }
}

// fractional values, so the sample's fields are doubles as real ones may be
keepShape(
  new SkinMargins(
    new Uint32Array(0),
    new Float32Array(0),
    null,
    0.5,
    1,
    0.2,
    1,
    DEFAULT_CALIBRATION,
    new Float64Array(0),
    new Uint8Array(0),
    new Uint8Array(0),
  ),
);
