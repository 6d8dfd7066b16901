// <vertex> and <triangle> tags, nearly every byte of a 3MF model: read in a single pass where they lie in the inflated
// chunk, or from the whole tag the scanner hands over when the single pass does not fully accept them.

import { MeshError, badNumber } from "./errors";
import { numberEnd, readDecimal, readInt } from "./bytes";

/** The object being read: where its vertices and triangles go (the triangle count is checked there). */
export interface MeshTagSink {
  addVertex(x: number, y: number, z: number): void;
  addTriangle(v1: number, v2: number, v3: number): void;
}

/** b[i] follows '<': `vertex` + whitespace, then ws-separated name="value" pairs (either quote), then `/>` or `>`; x/y/z must be plain decimals. Returns the index after '>' once stored, or -1 (nothing stored). */
export function readVertexTag(b: Uint8Array, i: number, end: number, sink: MeshTagSink): number {
  if (i + 7 > end) return -1;
  if (b[i + 1] !== 101 || b[i + 2] !== 114 || b[i + 3] !== 116 || b[i + 4] !== 101 || b[i + 5] !== 120) return -1;
  let p = i + 6;
  let c = b[p];
  if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return -1;
  const plain = plainVertexTag(b, p, end, sink);
  if (plain >= 0) return plain;
  let x = NaN;
  let y = NaN;
  let z = NaN;
  for (;;) {
    while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
    if (p >= end) return -1;
    if (c === 62) {
      p++;
      break;
    }
    if (c === 47) {
      if (p + 1 < end && b[p + 1] === 62) {
        p += 2;
        break;
      }
      return -1;
    }
    let letter = 0;
    if ((c === 120 || c === 121 || c === 122) && p + 1 < end && b[p + 1] === 61) {
      // the usual `x=`: no name scan
      letter = c;
      p++;
    } else {
      const ns = p;
      while (p < end && (c = b[p]) > 32 && c !== 61 && c !== 62 && c !== 47 && c !== 34 && c !== 39) p++;
      if (p >= end || p === ns) return -1;
      // a one-letter name, as the generic reader requires for x/y/z
      if (p - ns === 1) letter = b[ns];
      while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
      if (p >= end || c !== 61) return -1;
    }
    p++;
    while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
    if (p + 1 >= end || (c !== 34 && c !== 39)) return -1;
    const q = c;
    p++;
    if (letter === 120 || letter === 121 || letter === 122) {
      const v = readDecimal(b, p, end);
      p = numberEnd;
      // the number must fill the value exactly and be finite, else the generic reader decides (and reports)
      if (v - v !== 0 || p >= end || b[p] !== q) return -1;
      if (letter === 120) x = v;
      else if (letter === 121) y = v;
      else z = v;
    } else {
      while (p < end && b[p] !== q) p++;
      if (p >= end) return -1;
    }
    p++;
    if (p >= end) return -1;
    c = b[p];
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 47 && c !== 62) return -1;
  }
  if (x - x !== 0 || y - y !== 0 || z - z !== 0) return -1;
  sink.addVertex(x, y, z);
  return p;
}

/** b[i] follows '<': `triangle` + whitespace, then ws-separated name="value" pairs (either quote); v1/v2/v3 must be plain digit runs. Returns the index after '>' once stored, or -1. */
export function readTriangleTag(b: Uint8Array, i: number, end: number, sink: MeshTagSink): number {
  if (i + 9 > end) return -1;
  if (
    b[i + 1] !== 114 ||
    b[i + 2] !== 105 ||
    b[i + 3] !== 97 ||
    b[i + 4] !== 110 ||
    b[i + 5] !== 103 ||
    b[i + 6] !== 108 ||
    b[i + 7] !== 101
  )
    return -1;
  let p = i + 8;
  let c = b[p];
  if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return -1;
  const plain = plainTriangleTag(b, p, end, sink);
  if (plain >= 0) return plain;
  let v1 = -1;
  let v2 = -1;
  let v3 = -1;
  for (;;) {
    while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
    if (p >= end) return -1;
    if (c === 62) {
      p++;
      break;
    }
    if (c === 47) {
      if (p + 1 < end && b[p + 1] === 62) {
        p += 2;
        break;
      }
      return -1;
    }
    let digit = 0;
    if (c === 118 && p + 2 < end && b[p + 2] === 61 && (c = b[p + 1]) >= 49 && c <= 51) {
      // the usual `v1=`: no name scan
      digit = c;
      p += 2;
    } else {
      const ns = p;
      while (p < end && (c = b[p]) > 32 && c !== 61 && c !== 62 && c !== 47 && c !== 34 && c !== 39) p++;
      if (p >= end || p === ns) return -1;
      // v1/v2/v3 exactly; p1/p2/p3, pid and the rest are skipped as the generic reader does
      if (p - ns === 2 && b[ns] === 118) digit = b[ns + 1];
      while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
      if (p >= end || c !== 61) return -1;
    }
    p++;
    while (p < end && ((c = b[p]) === 32 || c === 9 || c === 10 || c === 13)) p++;
    if (p + 1 >= end || (c !== 34 && c !== 39)) return -1;
    const q = c;
    p++;
    if (digit >= 49 && digit <= 51) {
      const first = p;
      let v = 0;
      while (p < end && (c = b[p] - 48) >= 0 && c <= 9) {
        v = v * 10 + c;
        p++;
      }
      // digits only, closed by the quote, and short enough to be exact
      if (p === first || p - first > 15 || p >= end || b[p] !== q) return -1;
      if (digit === 49) v1 = v;
      else if (digit === 50) v2 = v;
      else v3 = v;
    } else {
      while (p < end && b[p] !== q) p++;
      if (p >= end) return -1;
    }
    p++;
    if (p >= end) return -1;
    c = b[p];
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 47 && c !== 62) return -1;
  }
  if (v1 < 0 || v2 < 0 || v3 < 0) return -1;
  sink.addTriangle(v1, v2, v3);
  return p;
}

/** ` x="1" y="2" z="3"` as writers emit it (single spaces, double quotes, in order), then `/>`, ` />` or `>`: read with no name scan. -1 (nothing stored) leaves anything else to readVertexTag's loop, which reads this form the same. */
function plainVertexTag(b: Uint8Array, p: number, end: number, sink: MeshTagSink): number {
  let x = 0;
  let y = 0;
  let z = 0;
  for (let k = 0; k < 3; k++) {
    if (p + 4 >= end || b[p] !== 32 || b[p + 1] !== 120 + k || b[p + 2] !== 61 || b[p + 3] !== 34) return -1;
    const v = readDecimal(b, p + 4, end);
    p = numberEnd;
    if (v - v !== 0 || p >= end || b[p] !== 34) return -1;
    p++;
    if (k === 0) x = v;
    else if (k === 1) y = v;
    else z = v;
  }
  p = tagClose(b, p, end);
  if (p < 0) return -1;
  sink.addVertex(x, y, z);
  return p;
}

/** ` v1="1" v2="2" v3="3"` as writers emit it, then the tag's end: read with no name scan; -1 leaves anything else to readTriangleTag's loop. */
function plainTriangleTag(b: Uint8Array, p: number, end: number, sink: MeshTagSink): number {
  let v1 = 0;
  let v2 = 0;
  let v3 = 0;
  for (let k = 0; k < 3; k++) {
    if (p + 5 >= end || b[p] !== 32 || b[p + 1] !== 118 || b[p + 2] !== 49 + k || b[p + 3] !== 61 || b[p + 4] !== 34) return -1;
    p += 5;
    const first = p;
    let v = 0;
    let c: number;
    while (p < end && (c = b[p] - 48) >= 0 && c <= 9) {
      v = v * 10 + c;
      p++;
    }
    // digits only, closed by the quote, and short enough to be exact
    if (p === first || p - first > 15 || p >= end || b[p] !== 34) return -1;
    p++;
    if (k === 0) v1 = v;
    else if (k === 1) v2 = v;
    else v3 = v;
  }
  p = tagClose(b, p, end);
  if (p < 0) return -1;
  sink.addTriangle(v1, v2, v3);
  return p;
}

/** `/>`, ` />`, `>` or ` >` at p: the index after it, or -1. */
function tagClose(b: Uint8Array, p: number, end: number): number {
  if (p < end && b[p] === 32) p++;
  if (p < end && b[p] === 62) return p + 1;
  if (p + 1 < end && b[p] === 47 && b[p + 1] === 62) return p + 2;
  return -1;
}

// the tag path: s is just after the element name, e at the closing '>'; attributes are read inline, without callbacks
export function vertexAttributes(b: Uint8Array, s: number, e: number, sink: MeshTagSink): void {
  let x = NaN;
  let y = NaN;
  let z = NaN;
  let i = s;
  while (i < e) {
    let eq = i;
    while (eq < e && b[eq] !== 61) eq++;
    if (eq >= e) break;
    let q = eq + 1;
    while (q < e && b[q] !== 34 && b[q] !== 39) q++;
    if (q >= e) break;
    // the attribute name is the single letter just before '=' (after optional spaces)
    let n = eq - 1;
    while (n > i && (b[n] === 32 || b[n] === 9 || b[n] === 10 || b[n] === 13)) n--;
    const single = n === i || b[n - 1] === 32 || b[n - 1] === 9 || b[n - 1] === 10 || b[n - 1] === 13;
    const quote = b[q];
    let close = q + 1;
    while (close < e && b[close] !== quote) close++;
    if (close >= e) break;
    if (single) {
      const c = b[n];
      if (c === 120 || c === 121 || c === 122) {
        let v = readDecimal(b, q + 1, close);
        if (numberEnd !== close) v = NaN;
        if (c === 120) x = v;
        else if (c === 121) y = v;
        else z = v;
      }
    }
    i = close + 1;
  }
  if (x - x !== 0 || y - y !== 0 || z - z !== 0) throw badNumber("3MF", "in a <vertex>");
  sink.addVertex(x, y, z);
}

export function triangleAttributes(b: Uint8Array, s: number, e: number, sink: MeshTagSink): void {
  let v1 = -1;
  let v2 = -1;
  let v3 = -1;
  let i = s;
  while (i < e) {
    let eq = i;
    while (eq < e && b[eq] !== 61) eq++;
    if (eq >= e) break;
    let q = eq + 1;
    while (q < e && b[q] !== 34 && b[q] !== 39) q++;
    if (q >= e) break;
    let n = eq - 1;
    while (n > i && (b[n] === 32 || b[n] === 9 || b[n] === 10 || b[n] === 13)) n--;
    const quote = b[q];
    let close = q + 1;
    while (close < e && b[close] !== quote) close++;
    if (close >= e) break;
    const digit = b[n];
    // v1/v2/v3 only: p1/p2/p3 and pid are property indices and do not change the geometry
    if (b[n - 1] === 118 && digit >= 49 && digit <= 51 && (n - 1 === i || b[n - 2] <= 32)) {
      const v = readInt(b, q + 1, close);
      if (numberEnd !== close || !(v >= 0)) {
        throw new MeshError("This 3MF file has a triangle with an unreadable vertex index.", "malformed");
      }
      if (digit === 49) v1 = v;
      else if (digit === 50) v2 = v;
      else v3 = v;
    }
    i = close + 1;
  }
  if (v1 < 0 || v2 < 0 || v3 < 0)
    throw new MeshError("This 3MF file has a triangle without its three vertex indices.", "malformed");
  sink.addTriangle(v1, v2, v3);
}

/** The usual ` v1="1" v2="2" v3="3"/` form read in one pass; false (nothing stored) sends anything else to triangleAttributes. */
export function plainTriangleAttributes(b: Uint8Array, s: number, e: number, sink: MeshTagSink): boolean {
  let v1 = -1;
  let v2 = -1;
  let v3 = -1;
  let i = s;
  for (;;) {
    while (i < e && (b[i] === 32 || b[i] === 9 || b[i] === 10 || b[i] === 13)) i++;
    if (i >= e || b[i] === 47) break;
    const d = b[i + 1];
    if (b[i] !== 118 || d < 49 || d > 51 || b[i + 2] !== 61 || b[i + 3] !== 34) return false;
    i += 4;
    let v = 0;
    const first = i;
    for (let c = b[i] - 48; c >= 0 && c <= 9 && i < e; c = b[++i] - 48) v = v * 10 + c;
    // digits only, closed by the quote, and small enough to be exact
    if (i === first || i - first > 15 || i >= e || b[i] !== 34) return false;
    i++;
    if (d === 49) v1 = v;
    else if (d === 50) v2 = v;
    else v3 = v;
  }
  if (v1 < 0 || v2 < 0 || v3 < 0) return false;
  sink.addTriangle(v1, v2, v3);
  return true;
}
