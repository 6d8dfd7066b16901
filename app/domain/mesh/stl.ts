// STL reader: binary is decided by the size rule (84 + 50 x count), never by the word "solid".

import { MeshError, MAX_TRIANGLES, badNumber, notAnStl, tooManyTriangles } from "./errors";
import { isSpace, numberEnd, readDecimal, startsWithAsciiCi } from "./bytes";
import type { Mesh } from "./types";

export function declaredBinaryTriangles(bytes: Uint8Array): number {
  if (bytes.length < 84) return -1;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
}

/** True when the file length matches a binary STL of the triangle count in its header. */
export function isBinaryStl(bytes: Uint8Array): boolean {
  const n = declaredBinaryTriangles(bytes);
  return n >= 0 && 84 + 50 * n === bytes.length;
}

function firstWordIsSolid(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length && i < 1024 && isSpace(bytes[i])) i++;
  return startsWithAsciiCi(bytes, i, "solid");
}

export function parseStl(bytes: Uint8Array): Mesh {
  if (isBinaryStl(bytes)) return parseBinaryStl(bytes, declaredBinaryTriangles(bytes));
  if (firstWordIsSolid(bytes) && !hasNulInHead(bytes)) return parseAsciiStl(bytes);
  const n = declaredBinaryTriangles(bytes);
  if (n < 0) throw new MeshError("This STL file is truncated: it is shorter than the 84-byte binary STL header.", "truncated");
  const holds = Math.floor((bytes.length - 84) / 50);
  // a header declaring more triangles than we take, in a file too short to hold them, is not a model's header
  // (random bytes almost always read so): the file is not an STL, and simplifying it would not help
  if (holds < n && n > MAX_TRIANGLES) throw notAnStl();
  if (n > MAX_TRIANGLES) throw tooManyTriangles();
  if (holds < n) {
    throw new MeshError(
      `This STL file is truncated: it declares ${n.toLocaleString("en-US")} triangles but holds ${holds.toLocaleString("en-US")}.`,
      "truncated",
    );
  }
  // A few exporters pad the end of the file; the declared triangles are all present, so read them.
  return parseBinaryStl(bytes, n);
}

function hasNulInHead(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 512);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export function parseBinaryStl(bytes: Uint8Array, count: number): Mesh {
  if (count > MAX_TRIANGLES) throw tooManyTriangles();
  if (count === 0) throw new MeshError("This STL file holds no triangles.", "empty");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const positions = new Float32Array(count * 9);
  let bad = 0;
  for (let t = 0, off = 84 + 12, o = 0; t < count; t++, off += 50) {
    for (let k = 0; k < 9; k++, o++) {
      const v = dv.getFloat32(off + 4 * k, true);
      // v - v is NaN for NaN and for both infinities, so one comparison rejects all three
      if (v - v !== 0) bad++;
      positions[o] = v;
    }
  }
  if (bad > 0) throw badNumber("STL", `(${bad} of them)`);
  return { positions, indices: null, triangleCount: count, format: "stl", numberOfColors: 1 };
}

const VERTEX = [118, 101, 114, 116, 101, 120]; // "vertex"
const FACET = [102, 97, 99, 101, 116]; // "facet"
const ENDSOLID = [101, 110, 100, 115, 111, 108, 105, 100]; // "endsolid"

function tokenIs(b: Uint8Array, start: number, end: number, word: number[]): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((b[start + k] | 32) !== word[k]) return false;
  return true;
}

export function parseAsciiStl(bytes: Uint8Array): Mesh {
  const end = bytes.length;
  // a facet takes far more than 20 bytes per float, so this rarely grows and usually needs no trimming copy
  let data: Float32Array = new Float32Array(Math.max(1024, Math.ceil(end / 20)));
  let n = 0;
  let facets = 0;
  let vertices = 0;
  let endsolids = 0;
  let i = 0;
  while (i < end) {
    let c = bytes[i];
    // whitespace is exactly isSpace (9-13 and 32); testing c > 32 first makes token bytes one comparison
    if (c <= 32 && (c === 32 || (c >= 9 && c <= 13))) {
      i++;
      continue;
    }
    const start = i++;
    while (i < end) {
      c = bytes[i];
      if (c <= 32 && (c === 32 || (c >= 9 && c <= 13))) break;
      i++;
    }
    const len = i - start;
    const first = bytes[start] | 32;
    if (first === 118 && len === 6 && tokenIs(bytes, start, i, VERTEX)) {
      if (n + 3 > data.length) data = grow(data, n);
      for (let k = 0; k < 3; k++) {
        while (i < end && (bytes[i] === 32 || bytes[i] === 9)) i++;
        const v = readDecimal(bytes, i, end);
        const stop = numberEnd;
        if (v - v !== 0 || (stop < end && !isSpace(bytes[stop]))) {
          if (i >= end || stop >= end) throw truncatedAscii();
          throw badNumber("STL", `near vertex ${vertices + 1}`);
        }
        i = stop;
        data[n + k] = v;
      }
      n += 3;
      vertices++;
    } else if (first === 102 && len === 5 && tokenIs(bytes, start, i, FACET)) {
      facets++;
      if (facets > MAX_TRIANGLES) throw tooManyTriangles();
    } else if (first === 101 && len === 8 && tokenIs(bytes, start, i, ENDSOLID)) {
      endsolids++;
    }
  }
  if (vertices === 0) {
    if (facets > 0) throw truncatedAscii();
    throw new MeshError("This STL file holds no triangles.", "empty");
  }
  if (vertices % 3 !== 0 || vertices / 3 !== facets || endsolids === 0) throw truncatedAscii();
  // keep the buffer when little of it is spare: the trimming copy would cost more than the slack
  const positions = n * 5 >= data.length * 4 ? data.subarray(0, n) : data.slice(0, n);
  return { positions, indices: null, triangleCount: facets, format: "stl", numberOfColors: 1 };
}

function grow(data: Float32Array, n: number): Float32Array {
  const next = new Float32Array(data.length * 2);
  next.set(data.subarray(0, n));
  return next;
}

function truncatedAscii(): MeshError {
  return new MeshError("This STL file is truncated: its last facet is incomplete or 'endsolid' is missing.", "truncated");
}
