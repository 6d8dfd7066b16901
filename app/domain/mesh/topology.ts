// Topology of a welded mesh: edges counted per vertex list, bodies found by union-find while they are counted.

import { blockEnd, blockStart } from "./metrics";
import type { Mesh } from "./types";
import { weldVertices } from "./weld";

export interface Topology {
  /** distinct vertex positions after welding */
  vertexCount: number;
  /** welded corner indices, three per triangle (the mesh's own array when welding merged no vertex) */
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

/** Uses per edge: buckets by lower vertex (CSR filled backwards, so one array is counts then offsets), then sorts each short list. */
export function countEdges(
  indices: Uint32Array,
  vertexCount: number,
): { edges: number; openEdges: number; nonManifoldEdges: number } {
  const r = edgeLists(indices, (indices.length / 3) | 0, vertexCount, selfRooted(vertexCount));
  return { edges: r[0], openEdges: r[1], nonManifoldEdges: r[2] };
}

/**
 * Edge counts [edges, open, non-manifold], uniting the two ends of every edge in `parent`, which joins exactly the
 * vertices a triangle-by-triangle union would (a collapsed triangle has no edge and joins nothing new).
 */
function edgeLists(indices: Uint32Array, n: number, vertexCount: number, parent: Int32Array): Int32Array {
  const at = new Int32Array(vertexCount + 1);
  for (let t = 0; t < n; t = blockEnd(t, n)) countBlock(indices, at, t, blockEnd(t, n));
  let total = 0;
  for (let v = 0; v < vertexCount; v = blockEnd(v, vertexCount)) total = prefixBlock(at, v, blockEnd(v, vertexCount), total);
  at[vertexCount] = total;
  const other = new Int32Array(total);
  // filled from the last triangle back, each list is in file order, where higher vertices mostly come later: nearly sorted
  for (let t = n; t > 0; t = blockStart(t, n)) fillBlock(indices, at, other, blockStart(t, n), t);
  // at[v] is now where vertex v's list starts
  const counts = new Int32Array(3);
  for (let v = 0; v < vertexCount; v = blockEnd(v, vertexCount))
    unionBlock(at, other, parent, counts, v, blockEnd(v, vertexCount));
  return counts;
}

/** Running totals of at[from..to), starting from total; returns the last one. */
function prefixBlock(at: Int32Array, from: number, to: number, total: number): number {
  for (let v = from; v < to; v++) {
    total += at[v];
    at[v] = total;
  }
  return total;
}

/** A union-find forest in which every vertex is its own root. */
function selfRooted(vertexCount: number): Int32Array {
  const parent = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v = blockEnd(v, vertexCount)) selfBlock(parent, v, blockEnd(v, vertexCount));
  return parent;
}

/** Each vertex of from..to its own root. */
function selfBlock(parent: Int32Array, from: number, to: number): void {
  for (let v = from; v < to; v++) parent[v] = v;
}

/** Roots among the vertices from..to. */
function rootBlock(parent: Int32Array, from: number, to: number): number {
  let roots = 0;
  for (let v = from; v < to; v++) if (parent[v] === v) roots++;
  return roots;
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

/** Triangles [from, to) last to first, and their edges last to first, so each list receives them in file order. */
function fillBlock(indices: Uint32Array, at: Int32Array, other: Int32Array, from: number, to: number): void {
  for (let k = 3 * to - 3, end = 3 * from; k >= end; k -= 3) {
    const a = indices[k];
    const b = indices[k + 1];
    const c = indices[k + 2];
    if (c !== a) {
      if (c < a) other[--at[c]] = a;
      else other[--at[a]] = c;
    }
    if (b !== c) {
      if (b < c) other[--at[b]] = c;
      else other[--at[c]] = b;
    }
    if (a !== b) {
      if (a < b) other[--at[a]] = b;
      else other[--at[b]] = a;
    }
  }
}

/** Sorts the list of each vertex in [from, to), counts its distinct edges into counts, and links the two roots of each (the smaller index stays root). */
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
  for (let v = 0; v < vertexCount; v = blockEnd(v, vertexCount)) roots += rootBlock(parent, v, blockEnd(v, vertexCount));
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

/** The file's corner indices through the weld's remap. */
function remapIndices(src: Uint32Array, remap: Uint32Array, vertexCount: number): Uint32Array {
  // ids are given in file order, so a weld that merged nothing maps every vertex to itself: the file's indices are the
  // welded ones, shared rather than copied (neither the mesh nor its topology is written after it is built)
  if (vertexCount === remap.length) return src;
  const out = new Uint32Array(src.length);
  for (let k = 0; k < src.length; k = blockEnd(k, src.length)) remapBlock(src, remap, out, k, blockEnd(k, src.length));
  return out;
}

function remapBlock(src: Uint32Array, remap: Uint32Array, out: Uint32Array, from: number, to: number): void {
  for (let k = from; k < to; k++) out[k] = remap[src[k]];
}

export function computeTopology(mesh: Mesh): Topology {
  const n = mesh.triangleCount;
  let indices: Uint32Array;
  let positions: Float32Array;
  let vertexCount: number;
  if (mesh.indices) {
    const w = weldVertices(mesh.positions, mesh.positions.length / 3);
    indices = remapIndices(mesh.indices, w.remap, w.vertexCount);
    positions = w.positions;
    vertexCount = w.vertexCount;
  } else {
    // a closed triangle mesh has about half as many vertices as triangles
    const w = weldVertices(mesh.positions, n * 3, Math.max(64, n >>> 1));
    indices = w.remap;
    positions = w.positions;
    vertexCount = w.vertexCount;
  }
  const parent = selfRooted(vertexCount);
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
