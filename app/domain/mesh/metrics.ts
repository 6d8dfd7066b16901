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
  const idx = mesh.indices;
  const n = mesh.triangleCount;
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  let vol6 = 0;
  let area2 = 0;
  // tetrahedra are measured from the first vertex, not the origin, so far-away models keep their precision
  const ox = p[idx ? idx[0] * 3 : 0];
  const oy = p[idx ? idx[0] * 3 + 1 : 1];
  const oz = p[idx ? idx[0] * 3 + 2 : 2];
  for (let t = 0; t < n; t++) {
    const a = idx ? idx[3 * t] * 3 : 9 * t;
    const b = idx ? idx[3 * t + 1] * 3 : 9 * t + 3;
    const c = idx ? idx[3 * t + 2] * 3 : 9 * t + 6;
    const ax = p[a] - ox;
    const ay = p[a + 1] - oy;
    const az = p[a + 2] - oz;
    const bx = p[b] - ox;
    const by = p[b + 1] - oy;
    const bz = p[b + 2] - oz;
    const cx = p[c] - ox;
    const cy = p[c + 1] - oy;
    const cz = p[c + 2] - oz;
    vol6 += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
    const ux = bx - ax;
    const uy = by - ay;
    const uz = bz - az;
    const vx = cx - ax;
    const vy = cy - ay;
    const vz = cz - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    area2 += Math.sqrt(nx * nx + ny * ny + nz * nz);
  }
  // the box over referenced corners only: unused OBJ vertices must not stretch it
  if (idx) {
    for (let k = 0; k < idx.length; k++) {
      const o = idx[k] * 3;
      const x = p[o];
      const y = p[o + 1];
      const z = p[o + 2];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  } else {
    for (let o = 0; o < p.length; o += 3) {
      const x = p[o];
      const y = p[o + 1];
      const z = p[o + 2];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  }
  const signedVolume = vol6 / 6;
  return {
    volume: Math.abs(signedVolume),
    signedVolume,
    surfaceArea: area2 / 2,
    boundingBox: { x: maxX - minX, y: maxY - minY, z: maxZ - minZ },
    min: [minX, minY, minZ],
    max: [maxX, maxY, maxZ],
    triangles: n,
  };
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
 * Welds corners with bit-identical coordinates (as exporters write shared corners) using an
 * open-addressing table of 8-byte slots [hash, id + 1]: a probe touches one small slot, and the
 * full key is only compared (against the vertex's first corner, usually still in cache) when the
 * 32-bit hashes match. `expected` sizes the table; it doubles when it gets half full.
 */
export function weldVertices(
  positions: Float32Array,
  count: number,
  expected = count,
): { positions: Float32Array; remap: Uint32Array; vertexCount: number } {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, count * 3);
  let cap = nextPow2(Math.max(16, expected) * 2);
  let shift = 32 - Math.log2(cap);
  let mask = cap - 1;
  let table = new Int32Array(cap * 2);
  let first = new Uint32Array(Math.max(16, Math.min(count, expected)));
  const remap = new Uint32Array(count);
  let u = 0;
  for (let v = 0; v < count; v++) {
    let x = bits[3 * v];
    let y = bits[3 * v + 1];
    let z = bits[3 * v + 2];
    // -0 and +0 are the same point
    if (x === 0x80000000) x = 0;
    if (y === 0x80000000) y = 0;
    if (z === 0x80000000) z = 0;
    const h = hash3(x, y, z);
    let slot = h >>> shift;
    for (;;) {
      const o = slot << 1;
      const id = table[o + 1];
      if (id === 0) {
        table[o] = h;
        table[o + 1] = u + 1;
        if (u === first.length) {
          const next = new Uint32Array(first.length * 2);
          next.set(first);
          first = next;
        }
        first[u] = v;
        remap[v] = u++;
        if (u * 2 > cap) {
          cap *= 2;
          mask = cap - 1;
          shift--;
          table = rehash(table, cap, shift);
        }
        break;
      }
      if (table[o] === h) {
        const f = 3 * first[id - 1];
        if (sameBits(bits[f], x) && sameBits(bits[f + 1], y) && sameBits(bits[f + 2], z)) {
          remap[v] = id - 1;
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
  }
  const out = new Float32Array(u * 3);
  for (let k = 0; k < u; k++) {
    const f = 3 * first[k];
    // +0 for -0, so the welded copy matches the key
    out[3 * k] = positions[f] + 0;
    out[3 * k + 1] = positions[f + 1] + 0;
    out[3 * k + 2] = positions[f + 2] + 0;
  }
  return { positions: out, remap, vertexCount: u };
}

function sameBits(stored: number, key: number): boolean {
  return stored === key || (stored === 0x80000000 && key === 0);
}

/** Multiplicative (Fibonacci) hashing: callers take the top bits, which mix all input bits. */
function hash3(x: number, y: number, z: number): number {
  return Math.imul(x ^ Math.imul(y ^ (y >>> 16), 0x85ebca77) ^ Math.imul(z ^ (z >>> 16), 0xc2b2ae3d), 0x9e3779b1);
}

function rehash(old: Int32Array, cap: number, shift: number): Int32Array<ArrayBuffer> {
  const mask = cap - 1;
  const table = new Int32Array(cap * 2);
  for (let o = 0; o < old.length; o += 2) {
    if (old[o + 1] === 0) continue;
    let slot = old[o] >>> shift;
    while (table[(slot << 1) + 1] !== 0) slot = (slot + 1) & mask;
    table[slot << 1] = old[o];
    table[(slot << 1) + 1] = old[o + 1];
  }
  return table;
}

/**
 * Counts how many triangles use each edge. Half-edges are bucketed by their lower vertex (a
 * counting sort into a CSR layout), then each vertex's short list is sorted and run-length
 * counted: sequential passes instead of a hash probe per half-edge.
 */
export function countEdges(
  indices: Uint32Array,
  vertexCount: number,
): { edges: number; openEdges: number; nonManifoldEdges: number } {
  const half = indices.length;
  const start = new Uint32Array(vertexCount + 1);
  for (let k = 0; k < half; k++) {
    const a = indices[k];
    const b = indices[k % 3 === 2 ? k - 2 : k + 1];
    if (a !== b) start[(a < b ? a : b) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const cursor = start.slice(0, vertexCount);
  const other = new Uint32Array(start[vertexCount]);
  for (let k = 0; k < half; k++) {
    const a = indices[k];
    const b = indices[k % 3 === 2 ? k - 2 : k + 1];
    if (a === b) continue; // degenerate edge of a collapsed triangle
    if (a < b) other[cursor[a]++] = b;
    else other[cursor[b]++] = a;
  }
  let edges = 0;
  let openEdges = 0;
  let nonManifoldEdges = 0;
  for (let v = 0; v < vertexCount; v++) {
    const s = start[v];
    const e = start[v + 1];
    if (e - s > 24) other.subarray(s, e).sort();
    else {
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
    let i = s;
    while (i < e) {
      let j = i + 1;
      while (j < e && other[j] === other[i]) j++;
      const uses = j - i;
      edges++;
      if (uses === 1) openEdges++;
      else if (uses > 2) nonManifoldEdges++;
      i = j;
    }
  }
  return { edges, openEdges, nonManifoldEdges };
}

export function computeTopology(mesh: Mesh): Topology {
  const n = mesh.triangleCount;
  let indices: Uint32Array;
  let positions: Float32Array;
  let vertexCount: number;
  if (mesh.indices) {
    const w = weldVertices(mesh.positions, mesh.positions.length / 3);
    indices = new Uint32Array(n * 3);
    const src = mesh.indices;
    for (let k = 0; k < indices.length; k++) indices[k] = w.remap[src[k]];
    positions = w.positions;
    vertexCount = w.vertexCount;
  } else {
    // a closed triangle mesh has about half as many vertices as triangles
    const w = weldVertices(mesh.positions, n * 3, Math.max(64, n >>> 1));
    indices = w.remap;
    positions = w.positions;
    vertexCount = w.vertexCount;
  }
  const { edges, openEdges, nonManifoldEdges } = countEdges(indices, vertexCount);

  // bodies: union-find over welded vertices with path halving
  const parent = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  for (let t = 0; t < n; t++) {
    const a = find(indices[3 * t]);
    const b = find(indices[3 * t + 1]);
    if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
    const c = find(indices[3 * t + 2]);
    const r = find(a);
    if (c !== r) parent[c < r ? r : c] = c < r ? c : r;
  }
  const bodyId = new Int32Array(vertexCount).fill(-1);
  const bodyOfTriangle = new Uint32Array(n);
  let bodies = 0;
  for (let t = 0; t < n; t++) {
    const r = find(indices[3 * t]);
    let id = bodyId[r];
    if (id < 0) id = bodyId[r] = bodies++;
    bodyOfTriangle[t] = id;
  }
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
