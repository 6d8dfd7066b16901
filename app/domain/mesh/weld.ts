// Welding: bit-identical corners become one vertex, through a typed-array hash table of vertex ids.

import { blockEnd } from "./metrics";
import { keepShape } from "./shapes";

function nextPow2(n: number): number {
  let c = 16;
  while (c < n) c *= 2;
  return c;
}

/**
 * Welds bit-identical corners. Slots hold only id + 1 (4 bytes, so the table is a quarter of a keyed one and mostly
 * stays in cache); a probe confirms against the compact positions, which for the usual recently seen vertex are cached too.
 */
export function weldVertices(
  positions: Float32Array,
  count: number,
  expected = count,
): { positions: Float32Array; remap: Uint32Array; vertexCount: number } {
  // Int32 views keep every key operation in 32-bit integers (a Uint32 above 2^31 would become a double)
  const bits = new Int32Array(positions.buffer, positions.byteOffset, count * 3);
  const w = new WeldTable(nextPow2(Math.max(16, Math.min(count, expected)) * 2), count);
  for (let v = 0; v < count; v = blockEnd(v, count)) weldBlock(w, bits, v, blockEnd(v, count));
  // the table goes out of scope here; the welded positions are the front of `out`, copied out only when more than an
  // eighth of it is spare (the table's size is a guess for a soup)
  const welded = new Float32Array(w.out.buffer, 0, w.u * 3);
  const spare = w.out.length - welded.length;
  return { positions: spare > w.out.length >>> 3 ? welded.slice() : welded, remap: w.remap, vertexCount: w.u };
}

/** Weld state carried between block calls; one class shape keeps weldBlock monomorphic. */
class WeldTable {
  table: Int32Array;
  out: Int32Array;
  readonly remap: Uint32Array;
  cap: number;
  shift: number;
  u = 0;
  constructor(cap: number, count: number) {
    this.cap = cap;
    this.shift = 32 - Math.log2(cap);
    this.table = new Int32Array(cap);
    // the table grows once it holds more than cap / 2 vertices, so cap / 2 + 1 always fit here
    this.out = new Int32Array(((cap >>> 1) + 1) * 3);
    this.remap = new Uint32Array(count);
  }

  /** Doubles the table and re-inserts every vertex from the compact positions, in id order. */
  grow(): void {
    this.cap *= 2;
    this.shift--;
    const mask = this.cap - 1;
    const table = new Int32Array(this.cap);
    const out = this.out;
    for (let i = 0, q = 0; i < this.u; i++, q += 3) {
      let slot = hash3(out[q], out[q + 1], out[q + 2]) >>> this.shift;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
    this.table = table;
    const grown = new Int32Array(((this.cap >>> 1) + 1) * 3);
    grown.set(out);
    this.out = grown;
  }
}

keepShape(new WeldTable(16, 0));

/** Corners [from, to) of weldVertices. */
function weldBlock(w: WeldTable, bits: Int32Array, from: number, to: number): void {
  let table = w.table;
  let out = w.out;
  let shift = w.shift;
  let mask = w.cap - 1;
  const remap = w.remap;
  let u = w.u;
  for (let v = from, o = 3 * from; v < to; v++, o += 3) {
    let x = bits[o];
    let y = bits[o + 1];
    let z = bits[o + 2];
    // -0 and +0 are the same point
    if (x === -0x80000000) x = 0;
    if (y === -0x80000000) y = 0;
    if (z === -0x80000000) z = 0;
    const home = hash3(x, y, z) >>> shift;
    let slot = home;
    for (;;) {
      const id = table[slot];
      if (id === 0) {
        table[slot] = u + 1;
        out[3 * u] = x;
        out[3 * u + 1] = y;
        out[3 * u + 2] = z;
        remap[v] = u++;
        if (u * 2 > w.cap) {
          w.u = u;
          w.grow();
          table = w.table;
          out = w.out;
          shift = w.shift;
          mask = w.cap - 1;
        }
        break;
      }
      const q = 3 * (id - 1);
      if (out[q] === x && out[q + 1] === y && out[q + 2] === z) {
        remap[v] = id - 1;
        // a soup repeats a corner in nearby triangles: at its home slot it is found first (the displaced run stays unbroken)
        if (slot !== home) {
          table[slot] = table[home];
          table[home] = id;
        }
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  w.u = u;
}

/** Multiplicative (Fibonacci) hashing: callers take the top bits, which mix all input bits. */
function hash3(x: number, y: number, z: number): number {
  return Math.imul(x ^ Math.imul(y ^ (y >>> 16), 0x85ebca77) ^ Math.imul(z ^ (z >>> 16), 0xc2b2ae3d), 0x9e3779b1);
}
