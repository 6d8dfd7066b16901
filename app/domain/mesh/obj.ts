// OBJ reader: v and f lines only; mtllib and every other statement are skipped, never followed.

import { MeshError, MAX_TRIANGLES, badNumber, tooManyTriangles } from "./errors";
import { GrowF32, GrowU32, isSpace, numberEnd, readDecimal, readInt } from "./bytes";
import type { Mesh } from "./types";

export function parseObj(bytes: Uint8Array): Mesh {
  const end = bytes.length;
  const verts = new GrowF32(Math.min(1 << 22, Math.max(1024, (end / 40) | 0)));
  const tris = new GrowU32(Math.min(1 << 22, Math.max(1024, (end / 20) | 0)));
  // indices of the polygon being read; faces rarely have more than a handful of corners
  let poly = new Int32Array(64);
  let vertexCount = 0;
  let maxIndex = -1;
  let line = 0;
  let i = 0;
  while (i < end) {
    line++;
    while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
    const c0 = i < end ? bytes[i] : 10;
    const c1 = i + 1 < end ? bytes[i + 1] : 10;
    if (c0 === 118 /* v */ && (c1 === 32 || c1 === 9)) {
      i += 2;
      for (let k = 0; k < 3; k++) {
        while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
        const v = readDecimal(bytes, i, end);
        if (v - v !== 0 || (numberEnd < end && !isSpace(bytes[numberEnd]))) throw badNumber("OBJ", `on line ${line}`);
        i = numberEnd;
        if (k === 0) verts.push3(v, 0, 0);
        else verts.data[verts.length - 3 + k] = v;
      }
      vertexCount++;
    } else if (c0 === 102 /* f */ && (c1 === 32 || c1 === 9)) {
      i += 2;
      let n = 0;
      for (;;) {
        while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
        if (i >= end || bytes[i] === 10 || bytes[i] === 13) break;
        if (bytes[i] === 92 /* line continuation */ && (bytes[i + 1] === 10 || bytes[i + 1] === 13)) {
          i++;
          while (i < end && (bytes[i] === 10 || bytes[i] === 13)) i++;
          line++;
          continue;
        }
        const raw = readInt(bytes, i, end);
        if (Number.isNaN(raw) || raw === 0) {
          throw new MeshError(`This OBJ file has a face with an unreadable vertex index on line ${line}.`, "malformed");
        }
        i = numberEnd;
        // skip the /texture/normal parts of a corner
        while (i < end && !isSpace(bytes[i])) i++;
        const index = raw > 0 ? raw - 1 : vertexCount + raw;
        if (index < 0) {
          throw new MeshError(
            `This OBJ file has a face on line ${line} that refers to vertex ${raw}, but only ${vertexCount} vertices are defined before it.`,
            "missing-vertex",
          );
        }
        if (index > maxIndex) maxIndex = index;
        if (n === poly.length) {
          const next = new Int32Array(n * 2);
          next.set(poly);
          poly = next;
        }
        poly[n++] = index;
      }
      if (n < 3) throw new MeshError(`This OBJ file has a face with fewer than three corners on line ${line}.`, "malformed");
      // a fan is exact for the convex polygons exporters write; volume and area do not depend on the split
      for (let k = 1; k + 1 < n; k++) tris.push3(poly[0], poly[k], poly[k + 1]);
      if (tris.length > MAX_TRIANGLES * 3) throw tooManyTriangles();
    } else if (c0 === 0) {
      throw new MeshError("Invalid file type. Only STL, OBJ, and 3MF files are allowed.", "invalid-type");
    }
    // next line
    while (i < end && bytes[i] !== 10 && bytes[i] !== 13) i++;
    if (i < end && bytes[i] === 13 && bytes[i + 1] === 10) i++;
    i++;
  }
  if (maxIndex >= vertexCount) {
    throw new MeshError(
      `This OBJ file has a face that refers to vertex ${maxIndex + 1}, but only ${vertexCount} vertices are defined.`,
      "missing-vertex",
    );
  }
  const triangleCount = tris.length / 3;
  if (triangleCount === 0) throw new MeshError("This OBJ file holds no faces to print.", "empty");
  return { positions: verts.toArray(), indices: tris.toArray(), triangleCount, format: "obj", numberOfColors: 1 };
}
