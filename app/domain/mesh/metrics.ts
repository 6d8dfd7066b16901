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
 * open-addressing table of Int32 slots. Returns the unique positions and a corner->vertex map.
 */
export function weldVertices(
  positions: Float32Array,
  count: number,
): { positions: Float32Array; remap: Uint32Array; vertexCount: number } {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, count * 3);
  const cap = nextPow2(count * 2);
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1);
  const uniq = new Uint32Array(count * 3);
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
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y ^ (y >>> 15), 0x85ebca77) ^ Math.imul(z ^ (z >>> 13), 0xc2b2ae3d);
    h ^= h >>> 16;
    let slot = h & mask;
    for (;;) {
      const e = table[slot];
      if (e < 0) {
        table[slot] = u;
        uniq[3 * u] = x;
        uniq[3 * u + 1] = y;
        uniq[3 * u + 2] = z;
        remap[v] = u++;
        break;
      }
      if (uniq[3 * e] === x && uniq[3 * e + 1] === y && uniq[3 * e + 2] === z) {
        remap[v] = e;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const out = new Float32Array(uniq.buffer, 0, u * 3).slice();
  return { positions: out, remap, vertexCount: u };
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
    const w = weldVertices(mesh.positions, n * 3);
    indices = w.remap;
    positions = w.positions;
    vertexCount = w.vertexCount;
  }

  // edge use counts in an open-addressing table keyed by the (low, high) vertex pair
  const cap = nextPow2(n * 3 + 1);
  const mask = cap - 1;
  const keyLo = new Int32Array(cap).fill(-1);
  const keyHi = new Int32Array(cap);
  const uses = new Uint8Array(cap);
  let edges = 0;
  for (let k = 0; k < n * 3; k++) {
    const a = indices[k];
    const b = indices[k % 3 === 2 ? k - 2 : k + 1];
    if (a === b) continue; // degenerate edge of a collapsed triangle
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & mask;
    for (;;) {
      const e = keyLo[slot];
      if (e < 0) {
        keyLo[slot] = lo;
        keyHi[slot] = hi;
        uses[slot] = 1;
        edges++;
        break;
      }
      if (e === lo && keyHi[slot] === hi) {
        if (uses[slot] < 255) uses[slot]++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  let openEdges = 0;
  let nonManifoldEdges = 0;
  for (let s = 0; s < cap; s++) {
    const u = uses[s];
    if (u === 1) openEdges++;
    else if (u > 2) nonManifoldEdges++;
  }

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
