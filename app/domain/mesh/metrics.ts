// Volume, area and bounding box of a mesh in one pass, run in blocks the JIT optimises whole.

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

/** blockEnd for a loop walking down from n: the start of the block that ends at `end`. */
export function blockStart(end: number, n: number): number {
  return Math.max(0, end === n ? n - 64 : end - CHUNK);
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
