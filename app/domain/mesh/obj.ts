// OBJ reader: v and f lines only; mtllib and every other statement are skipped, never followed.

import { MeshError, MAX_TRIANGLES, badNumber, tooManyTriangles } from "./errors";
import { isSpace, numberEnd, readDecimal, readInt } from "./bytes";
import { keepShape } from "./shapes";
import type { Mesh } from "./types";

export function parseObj(bytes: Uint8Array): Mesh {
  const r = new ObjReader(bytes);
  const end = bytes.length;
  let i = 0;
  while (i < end) {
    r.line++;
    let c = bytes[i];
    while ((c === 32 || c === 9) && ++i < end) c = bytes[i];
    if (i >= end) break;
    const c1 = i + 1 < end ? bytes[i + 1] : 10;
    if (c === 118 /* v */ && (c1 === 32 || c1 === 9)) i = r.vertex(i + 2);
    else if (c === 102 /* f */ && (c1 === 32 || c1 === 9)) i = r.face(i + 2);
    else if (c === 0) throw new MeshError("Invalid file type. Only STL, OBJ, and 3MF files are allowed.", "invalid-type");
    // next line
    while (i < end && (c = bytes[i]) !== 10 && c !== 13) i++;
    if (c === 13 && i + 1 < end && bytes[i + 1] === 10) i++;
    i++;
  }
  return r.mesh();
}

/** The vertices and triangles read so far, in typed arrays grown by doubling; one class shape keeps the line readers monomorphic. */
class ObjReader {
  line = 0;
  private verts: Float32Array;
  private nv = 0;
  private tris: Uint32Array;
  private nt = 0;
  private vertexCount = 0;
  private maxIndex = -1;
  constructor(private readonly b: Uint8Array) {
    this.verts = new Float32Array(Math.min(1 << 22, Math.max(1024, (b.length / 40) | 0)));
    this.tris = new Uint32Array(Math.min(1 << 22, Math.max(1024, (b.length / 20) | 0)));
  }

  /** Reads the three coordinates after "v "; returns where the third one ended. */
  vertex(i: number): number {
    const b = this.b;
    const end = b.length;
    if (this.nv + 3 > this.verts.length) this.verts = grown(this.verts, this.nv + 3);
    const verts = this.verts;
    for (let k = 0; k < 3; k++) {
      let c = i < end ? b[i] : 10;
      while ((c === 32 || c === 9) && ++i < end) c = b[i];
      const v = readDecimal(b, i, end);
      i = numberEnd;
      if (v - v !== 0 || (i < end && !isSpace(b[i]))) throw badNumber("OBJ", `on line ${this.line}`);
      verts[this.nv + k] = v;
    }
    this.nv += 3;
    this.vertexCount++;
    return i;
  }

  /** Reads the corners after "f " up to the end of the line and adds their fan of triangles; returns the end of the line. */
  face(i: number): number {
    const b = this.b;
    const end = b.length;
    let n = 0;
    let first = 0;
    let prev = 0;
    const before = this.nt;
    for (;;) {
      let c = i < end ? b[i] : 10;
      while ((c === 32 || c === 9) && ++i < end) c = b[i];
      if (i >= end || c === 10 || c === 13) break;
      if (c === 92 /* line continuation */ && i + 1 < end && (b[i + 1] === 10 || b[i + 1] === 13)) {
        i++;
        while (i < end && (b[i] === 10 || b[i] === 13)) i++;
        this.line++;
        continue;
      }
      let raw: number;
      if (c >= 48 && c <= 57) {
        // digits only: the same arithmetic as readInt
        raw = c - 48;
        while (++i < end && (c = b[i] - 48) >= 0 && c <= 9) raw = raw * 10 + c;
      } else {
        raw = readInt(b, i, end);
        i = numberEnd;
      }
      if (Number.isNaN(raw) || raw === 0) {
        throw new MeshError(`This OBJ file has a face with an unreadable vertex index on line ${this.line}.`, "malformed");
      }
      // skip the /texture/normal parts of a corner
      while (i < end && !isSpace(b[i])) i++;
      const index = raw > 0 ? raw - 1 : this.vertexCount + raw;
      if (index < 0) {
        throw new MeshError(
          `This OBJ file has a face on line ${this.line} that refers to vertex ${raw}, but only ${this.vertexCount} vertices are defined before it.`,
          "missing-vertex",
        );
      }
      if (index > this.maxIndex) this.maxIndex = index;
      // a fan is exact for the convex polygons exporters write; volume and area do not depend on the split
      if (n === 0) first = index;
      else if (n >= 2 && this.nt - before <= 3 * MAX_TRIANGLES) this.triangle(first, prev, index);
      prev = index;
      n++;
    }
    if (n < 3) throw new MeshError(`This OBJ file has a face with fewer than three corners on line ${this.line}.`, "malformed");
    if (this.nt > MAX_TRIANGLES * 3) throw tooManyTriangles();
    return i;
  }

  private triangle(a: number, b: number, c: number): void {
    let nt = this.nt;
    if (nt + 3 > this.tris.length) this.tris = grown(this.tris, nt + 3);
    const tris = this.tris;
    tris[nt++] = a;
    tris[nt++] = b;
    tris[nt++] = c;
    this.nt = nt;
  }

  mesh(): Mesh {
    if (this.maxIndex >= this.vertexCount) {
      throw new MeshError(
        `This OBJ file has a face that refers to vertex ${this.maxIndex + 1}, but only ${this.vertexCount} vertices are defined.`,
        "missing-vertex",
      );
    }
    const triangleCount = this.nt / 3;
    if (triangleCount === 0) throw new MeshError("This OBJ file holds no faces to print.", "empty");
    // right-sized copies, so the spare capacity can be collected
    return {
      positions: this.verts.slice(0, this.nv),
      indices: this.tris.slice(0, this.nt),
      triangleCount,
      format: "obj",
      numberOfColors: 1,
    };
  }
}

keepShape(new ObjReader(new Uint8Array(0)));

function grown<T extends Float32Array | Uint32Array>(a: T, min: number): T {
  let cap = a.length * 2;
  while (cap < min) cap *= 2;
  const next = new (a.constructor as new (n: number) => T)(cap);
  next.set(a);
  return next;
}
