// Geometry and topology of a mesh: one pass for volume/area/box, typed-array hash tables for welding and edges.

import type { Mesh, Vec3Box } from "./types";

export interface BasicMetrics {
  /** mm3, absolute */
  volume: number;
  /** signed tetrahedra sum: negative when the mesh is inside out */
  signedVolume: number;
  /** mm2 */
  surfaceArea: number;
  boundingBox: Vec3Box;
  min: [number, number, number];
  max: [number, number, number];
  triangles: number;
}

export function computeBasicMetrics(mesh: Mesh): BasicMetrics {
  const p = mesh.positions;
  // tetrahedra are measured from the first vertex, not the origin, so far-away models keep their precision
  const idx = mesh.indices;
  const o0 = idx ? idx[0] * 3 : 0;
  const acc = idx
    ? indexedSums(p, idx, mesh.triangleCount, p[o0], p[o0 + 1], p[o0 + 2])
    : soupSums(p, mesh.triangleCount, p[0], p[1], p[2]);
  const signedVolume = acc[0] / 6;
  const minX = acc[2],
    minY = acc[3],
    minZ = acc[4],
    maxX = acc[5],
    maxY = acc[6],
    maxZ = acc[7];
  return {
    volume: Math.abs(signedVolume),
    signedVolume,
    surfaceArea: acc[1] / 2,
    boundingBox: { x: maxX - minX, y: maxY - minY, z: maxZ - minZ },
    min: [minX, minY, minZ],
    max: [maxX, maxY, maxZ],
    triangles: mesh.triangleCount,
  };
}

// one shared result buffer: the sums are copied out at once, so no per-call allocation is needed
const sums = new Float64Array(8);

/** Volume, area and box of a triangle soup in one pass (same arithmetic and order as the indexed case). */
function soupSums(p: Float32Array, n: number, ox: number, oy: number, oz: number): Float64Array {
  startSums();
  for (let t = 0; t < n; t = blockEnd(t, n)) soupChunk(p, t, blockEnd(t, n), ox, oy, oz, sums);
  return sums;
}

/** Hot loops run in blocks of small functions, which the JIT optimises whole; one long call ran on OSR code, 3-4x slower for the first analyses. */
const CHUNK = 1 << 15;

/** The first block is tiny so it runs to the end unoptimised and records type feedback for the code after the loop too. */
export function blockEnd(start: number, n: number): number {
  return Math.min(n, start === 0 ? 64 : start + CHUNK);
}

function startSums(): void {
  sums[0] = 0;
  sums[1] = 0;
  sums[2] = sums[3] = sums[4] = Infinity;
  sums[5] = sums[6] = sums[7] = -Infinity;
}

/** One block of soupSums; the running sums travel through `sums` as doubles, so the arithmetic is unchanged. */
function soupChunk(p: Float32Array, from: number, to: number, ox: number, oy: number, oz: number, sums: Float64Array): void {
  let minX = sums[2],
    minY = sums[3],
    minZ = sums[4];
  let maxX = sums[5],
    maxY = sums[6],
    maxZ = sums[7];
  let vol6 = sums[0];
  let area2 = sums[1];
  for (let t = from, o = 9 * from; t < to; t++, o += 9) {
    const px = p[o],
      py = p[o + 1],
      pz = p[o + 2];
    const qx = p[o + 3],
      qy = p[o + 4],
      qz = p[o + 5];
    const rx = p[o + 6],
      ry = p[o + 7],
      rz = p[o + 8];
    // the box sees corners in file order, exactly like a scan of the position array
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
    if (pz < minZ) minZ = pz;
    if (pz > maxZ) maxZ = pz;
    if (qx < minX) minX = qx;
    if (qx > maxX) maxX = qx;
    if (qy < minY) minY = qy;
    if (qy > maxY) maxY = qy;
    if (qz < minZ) minZ = qz;
    if (qz > maxZ) maxZ = qz;
    if (rx < minX) minX = rx;
    if (rx > maxX) maxX = rx;
    if (ry < minY) minY = ry;
    if (ry > maxY) maxY = ry;
    if (rz < minZ) minZ = rz;
    if (rz > maxZ) maxZ = rz;
    const ax = px - ox,
      ay = py - oy,
      az = pz - oz;
    const bx = qx - ox,
      by = qy - oy,
      bz = qz - oz;
    const cx = rx - ox,
      cy = ry - oy,
      cz = rz - oz;
    vol6 += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az;
    const vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    area2 += Math.sqrt(nx * nx + ny * ny + nz * nz);
  }
  sums[0] = vol6;
  sums[1] = area2;
  sums[2] = minX;
  sums[3] = minY;
  sums[4] = minZ;
  sums[5] = maxX;
  sums[6] = maxY;
  sums[7] = maxZ;
}

/** Same as soupSums through an index; the box covers referenced corners only, so unused OBJ vertices do not stretch it. */
function indexedSums(p: Float32Array, idx: Uint32Array, n: number, ox: number, oy: number, oz: number): Float64Array {
  startSums();
  for (let t = 0; t < n; t = blockEnd(t, n)) indexedChunk(p, idx, t, blockEnd(t, n), ox, oy, oz, sums);
  return sums;
}

function indexedChunk(
  p: Float32Array,
  idx: Uint32Array,
  from: number,
  to: number,
  ox: number,
  oy: number,
  oz: number,
  sums: Float64Array,
): void {
  let minX = sums[2],
    minY = sums[3],
    minZ = sums[4];
  let maxX = sums[5],
    maxY = sums[6],
    maxZ = sums[7];
  let vol6 = sums[0];
  let area2 = sums[1];
  for (let t = from; t < to; t++) {
    const a = idx[3 * t] * 3,
      b = idx[3 * t + 1] * 3,
      c = idx[3 * t + 2] * 3;
    const px = p[a],
      py = p[a + 1],
      pz = p[a + 2];
    const qx = p[b],
      qy = p[b + 1],
      qz = p[b + 2];
    const rx = p[c],
      ry = p[c + 1],
      rz = p[c + 2];
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
    if (pz < minZ) minZ = pz;
    if (pz > maxZ) maxZ = pz;
    if (qx < minX) minX = qx;
    if (qx > maxX) maxX = qx;
    if (qy < minY) minY = qy;
    if (qy > maxY) maxY = qy;
    if (qz < minZ) minZ = qz;
    if (qz > maxZ) maxZ = qz;
    if (rx < minX) minX = rx;
    if (rx > maxX) maxX = rx;
    if (ry < minY) minY = ry;
    if (ry > maxY) maxY = ry;
    if (rz < minZ) minZ = rz;
    if (rz > maxZ) maxZ = rz;
    const ax = px - ox,
      ay = py - oy,
      az = pz - oz;
    const bx = qx - ox,
      by = qy - oy,
      bz = qz - oz;
    const cx = rx - ox,
      cy = ry - oy,
      cz = rz - oz;
    vol6 += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
    const ux = bx - ax,
      uy = by - ay,
      uz = bz - az;
    const vx = cx - ax,
      vy = cy - ay,
      vz = cz - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    area2 += Math.sqrt(nx * nx + ny * ny + nz * nz);
  }
  sums[0] = vol6;
  sums[1] = area2;
  sums[2] = minX;
  sums[3] = minY;
  sums[4] = minZ;
  sums[5] = maxX;
  sums[6] = maxY;
  sums[7] = maxZ;
}

export interface Topology {
  /** distinct vertex positions after welding */
  vertexCount: number;
  /** welded corner indices, three per triangle */
  indices: Uint32Array;
  /** welded positions, x y z per vertex */
  positions: Float32Array;
  /** connected components over welded vertices */
  bodies: number;
  /** compact body id of each triangle */
  bodyOfTriangle: Uint32Array;
  edges: number;
  /** edges used by exactly one triangle */
  openEdges: number;
  /** edges used by three or more triangles */
  nonManifoldEdges: number;
  /** every edge shared by exactly two triangles */
  closed: boolean;
}

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
  // the table goes out of scope here; only the compact copy of the positions is kept
  return { positions: new Float32Array(w.out.buffer, 0, w.u * 3).slice(), remap: w.remap, vertexCount: w.u };
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
    let slot = hash3(x, y, z) >>> shift;
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

/** Uses per edge: buckets by lower vertex (CSR filled backwards, so one array is counts then offsets), then sorts each short list. */
export function countEdges(
  indices: Uint32Array,
  vertexCount: number,
): { edges: number; openEdges: number; nonManifoldEdges: number } {
  const r = edgeLists(indices, (indices.length / 3) | 0, vertexCount, null);
  return { edges: r[0], openEdges: r[1], nonManifoldEdges: r[2] };
}

/**
 * Edge counts [edges, open, non-manifold]; with `parent` it also unions the two ends of every edge, which joins
 * exactly the vertices a triangle-by-triangle union would (a collapsed triangle has no edge and joins nothing new).
 */
function edgeLists(indices: Uint32Array, n: number, vertexCount: number, parent: Int32Array | null): Int32Array {
  const at = new Int32Array(vertexCount + 1);
  for (let t = 0; t < n; t = blockEnd(t, n)) countBlock(indices, at, t, blockEnd(t, n));
  let total = 0;
  for (let v = 0; v < vertexCount; v++) {
    total += at[v];
    at[v] = total;
  }
  at[vertexCount] = total;
  const other = new Int32Array(total);
  for (let t = 0; t < n; t = blockEnd(t, n)) fillBlock(indices, at, other, t, blockEnd(t, n));
  // at[v] is now where vertex v's list starts
  const counts = new Int32Array(3);
  for (let v = 0; v < vertexCount; v = blockEnd(v, vertexCount)) {
    if (parent) unionBlock(at, other, parent, counts, v, blockEnd(v, vertexCount));
    else listBlock(at, other, counts, v, blockEnd(v, vertexCount));
  }
  return counts;
}

function countBlock(indices: Uint32Array, at: Int32Array, from: number, to: number): void {
  for (let k = 3 * from, end = 3 * to; k < end; k += 3) {
    const a = indices[k];
    const b = indices[k + 1];
    const c = indices[k + 2];
    // a collapsed triangle's zero-length edge is not an edge
    if (a !== b) at[a < b ? a : b]++;
    if (b !== c) at[b < c ? b : c]++;
    if (c !== a) at[c < a ? c : a]++;
  }
}

function fillBlock(indices: Uint32Array, at: Int32Array, other: Int32Array, from: number, to: number): void {
  for (let k = 3 * from, end = 3 * to; k < end; k += 3) {
    const a = indices[k];
    const b = indices[k + 1];
    const c = indices[k + 2];
    if (a !== b) {
      if (a < b) other[--at[a]] = b;
      else other[--at[b]] = a;
    }
    if (b !== c) {
      if (b < c) other[--at[b]] = c;
      else other[--at[c]] = b;
    }
    if (c !== a) {
      if (c < a) other[--at[c]] = a;
      else other[--at[a]] = c;
    }
  }
}

/** Sorts the list of each vertex in [from, to) and counts its distinct edges into counts. */
function listBlock(at: Int32Array, other: Int32Array, counts: Int32Array, from: number, to: number): void {
  let edges = counts[0];
  let openEdges = counts[1];
  let nonManifoldEdges = counts[2];
  for (let v = from; v < to; v++) {
    const s = at[v];
    const e = at[v + 1];
    sortList(other, s, e);
    let i = s;
    while (i < e) {
      const w = other[i];
      let j = i + 1;
      while (j < e && other[j] === w) j++;
      const uses = j - i;
      edges++;
      if (uses === 1) openEdges++;
      else if (uses > 2) nonManifoldEdges++;
      i = j;
    }
  }
  counts[0] = edges;
  counts[1] = openEdges;
  counts[2] = nonManifoldEdges;
}

/** listBlock plus union-find: each distinct edge links its two roots, the smaller index staying root. */
function unionBlock(at: Int32Array, other: Int32Array, parent: Int32Array, counts: Int32Array, from: number, to: number): void {
  let edges = counts[0];
  let openEdges = counts[1];
  let nonManifoldEdges = counts[2];
  for (let v = from; v < to; v++) {
    const s = at[v];
    const e = at[v + 1];
    if (s === e) continue;
    sortList(other, s, e);
    let rv = v;
    while (parent[rv] !== rv) rv = parent[rv] = parent[parent[rv]];
    let i = s;
    while (i < e) {
      const w = other[i];
      let j = i + 1;
      while (j < e && other[j] === w) j++;
      const uses = j - i;
      edges++;
      if (uses === 1) openEdges++;
      else if (uses > 2) nonManifoldEdges++;
      i = j;
      let rw = w;
      while (parent[rw] !== rw) rw = parent[rw] = parent[parent[rw]];
      if (rw < rv) {
        parent[rv] = rw;
        rv = rw;
      } else if (rw > rv) parent[rw] = rv;
    }
  }
  counts[0] = edges;
  counts[1] = openEdges;
  counts[2] = nonManifoldEdges;
}

function sortList(other: Int32Array, s: number, e: number): void {
  if (e - s > 24) {
    other.subarray(s, e).sort();
    return;
  }
  for (let i = s + 1; i < e; i++) {
    const x = other[i];
    let j = i - 1;
    while (j >= s && other[j] > x) {
      other[j + 1] = other[j];
      j--;
    }
    other[j + 1] = x;
  }
}

/** Compact body id of each triangle, given the finished union-find forest (every root is its component's smallest vertex). */
function bodiesOf(
  indices: Uint32Array,
  n: number,
  vertexCount: number,
  parent: Int32Array,
): { bodies: number; bodyOfTriangle: Uint32Array } {
  let roots = 0;
  for (let v = 0; v < vertexCount; v++) if (parent[v] === v) roots++;
  const bodyOfTriangle = new Uint32Array(n);
  // one root among all vertices means one body: every triangle is already 0
  if (roots <= 1) return { bodies: n > 0 ? 1 : 0, bodyOfTriangle };
  // compact ids in order of each body's first triangle
  const bodyId = new Int32Array(vertexCount);
  const state = new Int32Array(1);
  for (let t = 0; t < n; t = blockEnd(t, n)) bodyBlock(indices, parent, bodyId, bodyOfTriangle, state, t, blockEnd(t, n));
  return { bodies: state[0], bodyOfTriangle };
}

function bodyBlock(
  indices: Uint32Array,
  parent: Int32Array,
  bodyId: Int32Array,
  bodyOfTriangle: Uint32Array,
  state: Int32Array,
  from: number,
  to: number,
): void {
  let bodies = state[0];
  for (let t = from; t < to; t++) {
    let r = indices[3 * t];
    while (parent[r] !== r) r = parent[r] = parent[parent[r]];
    let id = bodyId[r];
    if (id === 0) id = bodyId[r] = ++bodies;
    bodyOfTriangle[t] = id - 1;
  }
  state[0] = bodies;
}

export function computeTopology(mesh: Mesh): Topology {
  const n = mesh.triangleCount;
  let indices: Uint32Array;
  let positions: Float32Array;
  let vertexCount: number;
  if (mesh.indices) {
    const w = weldVertices(mesh.positions, mesh.positions.length / 3);
    const remap = w.remap;
    const src = mesh.indices;
    indices = new Uint32Array(n * 3);
    for (let k = 0; k < indices.length; k++) indices[k] = remap[src[k]];
    positions = w.positions;
    vertexCount = w.vertexCount;
  } else {
    // a closed triangle mesh has about half as many vertices as triangles
    const w = weldVertices(mesh.positions, n * 3, Math.max(64, n >>> 1));
    indices = w.remap;
    positions = w.positions;
    vertexCount = w.vertexCount;
  }
  const parent = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const counts = edgeLists(indices, n, vertexCount, parent);
  const edges = counts[0],
    openEdges = counts[1],
    nonManifoldEdges = counts[2];
  const { bodies, bodyOfTriangle } = bodiesOf(indices, n, vertexCount, parent);
  return {
    vertexCount,
    indices,
    positions,
    bodies,
    bodyOfTriangle,
    edges,
    openEdges,
    nonManifoldEdges,
    closed: openEdges === 0 && nonManifoldEdges === 0,
  };
}
