// 3MF reader: validates the ZIP directory, inflates only the XML parts as a stream and scans them as bytes.

import { Unzip, UnzipInflate, type AsyncFlateStreamHandler, type UnzipDecoder, type UnzipFile } from "fflate";
import { MeshError, MAX_TRIANGLES, badNumber, tooManyTriangles } from "./errors";
import { GrowF32, GrowU32, numberEnd, readDecimal, readInt, readNumber } from "./bytes";
import { XmlTagScanner, attrIs, type FastTagReader, decodeValue, forEachAttribute, localName, nameEquals } from "./xml-scan";
import type { Mesh } from "./types";

export const MAX_ZIP_ENTRIES = 1000;
export const MAX_INFLATED_BYTES = 500 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 100;
const MODEL_REL_TYPE = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel";
/** Compressed bytes fed to the inflater per step; bounds how far one step can overshoot the inflate limit. */
const FEED_CHUNK = 16 * 1024;

const UNIT_MM: Record<string, number> = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
};

function notAPackage(why: string): MeshError {
  return new MeshError(`This 3MF file is not a valid package: ${why}.`, "bad-package");
}

interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  size: number;
}

/** Reads the end-of-central-directory record and the directory itself, refusing oversized or lying archives early. */
export function readZipDirectory(bytes: Uint8Array): ZipEntryInfo[] {
  const len = bytes.length;
  if (len < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 3 || bytes[3] !== 4) {
    throw notAPackage("it is not a ZIP archive");
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = len - 22; i >= Math.max(0, len - 22 - 65535); i--) {
    if (dv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notAPackage("its ZIP directory is missing (the file may be truncated)");
  let entries = dv.getUint16(eocd + 10, true);
  let cdSize = dv.getUint32(eocd + 12, true);
  let cdOffset = dv.getUint32(eocd + 16, true);
  if (entries === 0xffff || cdOffset === 0xffffffff) {
    // ZIP64: the real counts sit in the ZIP64 end record named by the locator just before the classic one
    const loc = eocd - 20;
    if (loc < 0 || dv.getUint32(loc, true) !== 0x07064b50) throw notAPackage("its ZIP64 directory is missing");
    const rec = Number(dv.getBigUint64(loc + 8, true));
    if (rec + 56 > len || dv.getUint32(rec, true) !== 0x06064b50) throw notAPackage("its ZIP64 directory is damaged");
    const e64 = Number(dv.getBigUint64(rec + 32, true));
    if (e64 > MAX_ZIP_ENTRIES) throw tooManyEntries(e64);
    entries = e64;
    cdSize = Number(dv.getBigUint64(rec + 40, true));
    cdOffset = Number(dv.getBigUint64(rec + 48, true));
  }
  if (entries > MAX_ZIP_ENTRIES) throw tooManyEntries(entries);
  if (cdOffset + cdSize > eocd) throw notAPackage("its ZIP directory points outside the file (the file may be truncated)");
  const out: ZipEntryInfo[] = [];
  const decoder = new TextDecoder();
  let p = cdOffset;
  let declaredTotal = 0;
  for (let k = 0; k < entries; k++) {
    if (p + 46 > len || dv.getUint32(p, true) !== 0x02014b50) throw notAPackage("its ZIP directory is damaged");
    let compressedSize = dv.getUint32(p + 20, true);
    let size = dv.getUint32(p + 24, true);
    const nameLen = dv.getUint16(p + 28, true);
    const extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    if (size === 0xffffffff || compressedSize === 0xffffffff) {
      // look for the ZIP64 extra field carrying the real sizes
      let e = p + 46 + nameLen;
      const eEnd = e + extraLen;
      while (e + 4 <= eEnd) {
        const id = dv.getUint16(e, true);
        const sz = dv.getUint16(e + 2, true);
        if (id === 1) {
          let f = e + 4;
          if (size === 0xffffffff && f + 8 <= e + 4 + sz) {
            size = Number(dv.getBigUint64(f, true));
            f += 8;
          }
          if (compressedSize === 0xffffffff && f + 8 <= e + 4 + sz) compressedSize = Number(dv.getBigUint64(f, true));
          break;
        }
        e += 4 + sz;
      }
    }
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    declaredTotal += size;
    out.push({ name, compressedSize, size });
    p += 46 + nameLen + extraLen + commentLen;
  }
  if (declaredTotal > inflateLimit(len)) throw zipBomb();
  return out;
}

function inflateLimit(packageBytes: number): number {
  return Math.min(MAX_INFLATED_BYTES, MAX_INFLATE_RATIO * packageBytes);
}

function tooManyEntries(n: number): MeshError {
  return new MeshError(
    `This 3MF file declares ${n.toLocaleString("en-US")} entries; at most ${MAX_ZIP_ENTRIES} are allowed.`,
    "too-many-entries",
  );
}

function zipBomb(): MeshError {
  return new MeshError(
    `This 3MF file expands to more than ${MAX_INFLATE_RATIO} times its size (or past 500 MB) and was refused.`,
    "zip-bomb",
  );
}

// ---------- model XML ----------

interface ComponentRef {
  objectId: number;
  /** 12 numbers, row-vector 3MF convention; null means identity */
  transform: Float64Array | null;
  path: string | null;
}

interface ObjectDef {
  id: number;
  verts: GrowF32 | null;
  tris: GrowU32 | null;
  components: ComponentRef[];
  /** colour key from pid/pindex, resolved after the part is read */
  pid: number;
  pindex: number;
}

interface ModelPart {
  name: string;
  unit: number;
  objects: Map<number, ObjectDef>;
  items: ComponentRef[];
  /** property group id -> colour strings in order */
  colorGroups: Map<number, string[]>;
}

const enum Where {
  Other,
  Vertices,
  Triangles,
  Components,
  Build,
  ColorGroup,
}

/** Parses one model part from streamed chunks into per-object typed arrays. */
class ModelPartReader implements FastTagReader {
  readonly part: ModelPart;
  private readonly scanner: XmlTagScanner;
  private current: ObjectDef | null = null;
  private where = Where.Other;
  private group: string[] | null = null;
  private triangleTotal = 0;

  constructor(name: string, fast = true) {
    this.part = { name, unit: 1, objects: new Map(), items: [], colorGroups: new Map() };
    this.scanner = new XmlTagScanner((b, s, e) => this.tag(b, s, e), fast ? this : null);
  }

  /** Single-pass <vertex>/<triangle> reader on the raw chunk; anything it does not fully accept (-1) goes the generic way. */
  readTag(b: Uint8Array, i: number, end: number): number {
    if (i >= end) return -1;
    const w = this.where;
    if (w === Where.Vertices) return b[i] === 118 ? this.fastVertexTag(b, i, end) : -1;
    if (w === Where.Triangles) return b[i] === 116 ? this.fastTriangleTag(b, i, end) : -1;
    return -1;
  }

  /** `vertex` + whitespace, then ws-separated name="value" pairs (either quote), then `/>` or `>`; x/y/z must be plain decimals. */
  private fastVertexTag(b: Uint8Array, i: number, end: number): number {
    const cur = this.current;
    if (cur === null || i + 7 > end) return -1;
    if (b[i + 1] !== 101 || b[i + 2] !== 114 || b[i + 3] !== 116 || b[i + 4] !== 101 || b[i + 5] !== 120) return -1;
    let p = i + 6;
    let c = b[p];
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return -1;
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
    const verts = cur.verts;
    if (verts !== null) verts.push3(x, y, z);
    return p;
  }

  /** `triangle` + whitespace, then ws-separated name="value" pairs (either quote); v1/v2/v3 must be plain digit runs. */
  private fastTriangleTag(b: Uint8Array, i: number, end: number): number {
    const cur = this.current;
    if (cur === null || i + 9 > end) return -1;
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
    if (++this.triangleTotal > MAX_TRIANGLES) throw tooManyTriangles();
    const tris = cur.tris;
    if (tris !== null) tris.push3(v1, v2, v3);
    return p;
  }

  push(chunk: Uint8Array): void {
    this.scanner.push(chunk);
  }

  finish(): void {
    this.scanner.finish();
  }

  private tag(b: Uint8Array, s: number, e: number): void {
    // hot path first, before any name slicing: unprefixed <vertex> and <triangle> are nearly every tag of a model
    if (this.where === Where.Vertices && isName(b, s, e, VERTEX)) return this.vertex(b, s + 6, e);
    if (this.where === Where.Triangles && isName(b, s, e, TRIANGLE)) {
      if (!this.fastTriangle(b, s + 8, e)) this.triangle(b, s + 8, e);
      return;
    }
    const closing = b[s] === 47;
    const [ns, ne] = localName(b, closing ? s + 1 : s, e);
    const n = ne - ns;
    if (closing) {
      if (n === 6 && nameEquals(b, ns, ne, "object")) this.current = null;
      else if (
        nameEquals(b, ns, ne, "vertices") ||
        nameEquals(b, ns, ne, "triangles") ||
        nameEquals(b, ns, ne, "components") ||
        nameEquals(b, ns, ne, "build")
      )
        this.where = Where.Other;
      else if (nameEquals(b, ns, ne, "colorgroup") || nameEquals(b, ns, ne, "basematerials")) {
        this.where = Where.Other;
        this.group = null;
      }
      return;
    }
    // hot path first: vertices and triangles are nearly every tag in a model
    if (this.where === Where.Vertices && n === 6 && nameEquals(b, ns, ne, "vertex")) return this.vertex(b, ne, e);
    if (this.where === Where.Triangles && n === 8 && nameEquals(b, ns, ne, "triangle")) return this.triangle(b, ne, e);
    const selfClosing = b[e - 1] === 47;
    if (nameEquals(b, ns, ne, "model")) {
      forEachAttribute(b, s, e, (as, ae, vs, ve) => {
        if (attrIs(b, as, ae, "unit")) {
          const unit = decodeValue(b, vs, ve).trim().toLowerCase();
          const scale = UNIT_MM[unit];
          if (scale === undefined) throw new MeshError(`This 3MF file uses an unknown unit "${unit}".`, "malformed");
          this.part.unit = scale;
        }
      });
    } else if (nameEquals(b, ns, ne, "object")) {
      let id = NaN;
      let pid = -1;
      let pindex = 0;
      forEachAttribute(b, s, e, (as, ae, vs) => {
        if (attrIs(b, as, ae, "id")) id = readInt(b, vs, e);
        else if (attrIs(b, as, ae, "pid")) pid = readInt(b, vs, e);
        else if (attrIs(b, as, ae, "pindex")) pindex = readInt(b, vs, e);
      });
      if (!Number.isInteger(id)) throw new MeshError("This 3MF file has an object without a numeric id.", "malformed");
      const obj: ObjectDef = { id, verts: null, tris: null, components: [], pid, pindex: Number.isInteger(pindex) ? pindex : 0 };
      this.part.objects.set(id, obj);
      this.current = selfClosing ? null : obj;
    } else if (nameEquals(b, ns, ne, "vertices")) {
      if (this.current && !selfClosing) {
        this.current.verts ??= new GrowF32(3 * 1024);
        this.where = Where.Vertices;
      }
    } else if (nameEquals(b, ns, ne, "triangles")) {
      if (this.current && !selfClosing) {
        this.current.tris ??= new GrowU32(3 * 1024);
        this.where = Where.Triangles;
      }
    } else if (nameEquals(b, ns, ne, "components")) {
      if (this.current && !selfClosing) this.where = Where.Components;
    } else if (nameEquals(b, ns, ne, "component")) {
      if (this.current && this.where === Where.Components) this.current.components.push(this.reference(b, s, e, "component"));
    } else if (nameEquals(b, ns, ne, "build")) {
      if (!selfClosing) this.where = Where.Build;
    } else if (nameEquals(b, ns, ne, "item")) {
      if (this.where === Where.Build) this.part.items.push(this.reference(b, s, e, "build item"));
    } else if (nameEquals(b, ns, ne, "basematerials") || nameEquals(b, ns, ne, "colorgroup")) {
      let id = NaN;
      forEachAttribute(b, s, e, (as, ae, vs) => {
        if (attrIs(b, as, ae, "id")) id = readInt(b, vs, e);
      });
      if (Number.isInteger(id) && !selfClosing) {
        this.group = [];
        this.part.colorGroups.set(id, this.group);
        this.where = Where.ColorGroup;
      }
    } else if (
      this.where === Where.ColorGroup &&
      this.group &&
      (nameEquals(b, ns, ne, "base") || nameEquals(b, ns, ne, "color"))
    ) {
      let color = "";
      forEachAttribute(b, s, e, (as, ae, vs, ve) => {
        if (attrIs(b, as, ae, "displaycolor") || attrIs(b, as, ae, "color")) color = decodeValue(b, vs, ve).trim().toUpperCase();
      });
      this.group.push(color);
    }
  }

  // vertex and triangle tags are nearly every byte of a model: their attributes are read inline, without callbacks
  private vertex(b: Uint8Array, s: number, e: number): void {
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
    (this.current as ObjectDef).verts?.push3(x, y, z);
  }

  private triangle(b: Uint8Array, s: number, e: number): void {
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
    if (++this.triangleTotal > MAX_TRIANGLES) throw tooManyTriangles();
    (this.current as ObjectDef).tris?.push3(v1, v2, v3);
  }

  /** The usual ` v1="1" v2="2" v3="3"/` form read in one pass; false (nothing stored) sends anything else to the general reader. */
  private fastTriangle(b: Uint8Array, s: number, e: number): boolean {
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
    if (++this.triangleTotal > MAX_TRIANGLES) throw tooManyTriangles();
    (this.current as ObjectDef).tris?.push3(v1, v2, v3);
    return true;
  }

  private reference(b: Uint8Array, s: number, e: number, what: string): ComponentRef {
    let objectId = NaN;
    let transform: Float64Array | null = null;
    let path: string | null = null;
    forEachAttribute(b, s, e, (as, ae, vs, ve) => {
      if (attrIs(b, as, ae, "objectid")) objectId = readInt(b, vs, ve);
      else if (attrIs(b, as, ae, "transform")) transform = parseTransform(b, vs, ve);
      else if (attrIs(b, as, ae, "path")) path = decodeValue(b, vs, ve);
    });
    if (!Number.isInteger(objectId)) throw new MeshError(`This 3MF file has a ${what} without a numeric objectid.`, "malformed");
    return { objectId, transform, path };
  }
}

const VERTEX = [118, 101, 114, 116, 101, 120];
const TRIANGLE = [116, 114, 105, 97, 110, 103, 108, 101];

/** The tag at b[s] is exactly this element name (no prefix), followed by whitespace, '/' or its end. */
function isName(b: Uint8Array, s: number, e: number, word: number[]): boolean {
  const n = word.length;
  if (e - s < n) return false;
  for (let k = 0; k < n; k++) if (b[s + k] !== word[k]) return false;
  const c = s + n < e ? b[s + n] : 32;
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 47;
}

function parseTransform(b: Uint8Array, s: number, e: number): Float64Array {
  const m = new Float64Array(12);
  let i = s;
  for (let k = 0; k < 12; k++) {
    while (i < e && (b[i] === 32 || b[i] === 9 || b[i] === 10 || b[i] === 13)) i++;
    const v = readNumber(b, i, e);
    if (v - v !== 0) throw new MeshError("This 3MF file has a transform that is not 12 finite numbers.", "malformed");
    m[k] = v;
    i = numberEnd;
  }
  return m;
}

/** a then b, both in the 3MF row-vector convention (p' = p * M). */
function compose(a: Float64Array | null, b: Float64Array | null): Float64Array | null {
  if (!a) return b;
  if (!b) return a;
  const r = new Float64Array(12);
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      let v = row === 3 ? b[9 + col] : 0;
      for (let k = 0; k < 3; k++) v += a[row * 3 + k] * b[k * 3 + col];
      r[row * 3 + col] = v;
    }
  }
  return r;
}

// ---------- relationships ----------

function readRootTarget(relsXml: Uint8Array): string | null {
  let target: string | null = null;
  const scanner = new XmlTagScanner((b, s, e) => {
    const [ns, ne] = localName(b, s, e);
    if (!nameEquals(b, ns, ne, "Relationship")) return;
    let type = "";
    let t = "";
    forEachAttribute(b, s, e, (as, ae, vs, ve) => {
      if (attrIs(b, as, ae, "Type")) type = decodeValue(b, vs, ve).trim();
      else if (attrIs(b, as, ae, "Target")) t = decodeValue(b, vs, ve).trim();
    });
    if (type === MODEL_REL_TYPE && target === null && t) target = t;
  });
  scanner.push(relsXml);
  scanner.finish();
  return target;
}

function normalizePartName(name: string): string {
  let n = name.replace(/\\/g, "/");
  try {
    n = decodeURIComponent(n);
  } catch {
    // keep the raw name when it is not valid percent-encoding
  }
  return n.replace(/^\/+/, "").toLowerCase();
}

// ---------- entry ----------

export async function parse3mf(bytes: Uint8Array): Promise<Mesh> {
  const directory = readZipDirectory(bytes);
  const limit = inflateLimit(bytes.length);
  const native = hasNativeInflate();
  let inflated = 0;
  let failure: unknown = null;
  const parts = new Map<string, ModelPartReader>();
  const relsChunks: Uint8Array[] = [];
  let relsBytes = 0;
  const active: UnzipFile[] = [];
  /** deflated entries whose compressed bytes are complete, waiting for the platform inflater (in ZIP order) */
  const queue: DeferredEntry[] = [];

  /** One inflated chunk of a wanted part; throws on the zip-bomb and relationships limits, like every part error. */
  const consume = (isRels: boolean, reader: ModelPartReader | null, data: Uint8Array, final: boolean): void => {
    inflated += data.length;
    if (inflated > limit) throw zipBomb();
    if (isRels) {
      relsBytes += data.length;
      if (relsBytes > 1 << 20) throw notAPackage("its relationships part is larger than 1 MB");
      relsChunks.push(data);
    } else reader?.push(data);
    if (final) reader?.finish();
  };

  const unzip = new Unzip((file) => {
    if (failure) return;
    const key = normalizePartName(file.name);
    const isRels = key === "_rels/.rels";
    const isModel = key.endsWith(".model");
    if (!isRels && !isModel) return; // thumbnails, textures and print tickets are never inflated
    let reader: ModelPartReader | null = null;
    if (isModel) {
      reader = new ModelPartReader(key);
      parts.set(key, reader);
    }
    if (native) {
      // every wanted entry goes through the queue, so parts are read in ZIP order as before; deflated bytes arrive
      // untouched from the pass-through decoder (views into `bytes`, no copy) and are inflated after this push
      const job: DeferredEntry = {
        name: file.name,
        method: file.compression,
        broken: false,
        isRels,
        reader,
        chunks: [],
        compressed: 0,
      };
      file.ondata = (err, data, final) => {
        if (job.broken) return;
        if (err) job.broken = true;
        else if (data.length > 0) {
          job.chunks.push(data);
          job.compressed += data.length;
        }
        if (final || err) queue.push(job);
      };
      file.start();
      return;
    }
    file.ondata = (err, data, final) => {
      if (failure) return;
      try {
        if (err) throw notAPackage(`the part ${file.name} cannot be decompressed`);
        consume(isRels, reader, data, final);
      } catch (e) {
        failure = e;
        file.terminate();
      }
    };
    active.push(file);
    file.start();
  });
  unzip.register(native ? DeflatePassThrough : UnzipInflate);

  /** Inflates the queued entries one after another; the first error stops everything, as in the synchronous path. */
  const drain = async (): Promise<void> => {
    while (queue.length > 0 && !failure) {
      const job = queue.shift() as DeferredEntry;
      try {
        if (job.broken) throw notAPackage(`the part ${job.name} cannot be decompressed`);
        if (job.method === 8 && job.compressed > 0) {
          await inflateNative(job, (data, final) => consume(job.isRels, job.reader, data, final));
        } else {
          // stored data, or an empty deflated entry (empty data to fflate too, not a broken stream)
          for (const c of job.chunks) consume(job.isRels, job.reader, c, false);
          consume(job.isRels, job.reader, new Uint8Array(0), true);
        }
      } catch (e) {
        failure = e;
      }
    }
  };

  let containerError: unknown = null;
  try {
    for (let off = 0; off < bytes.length && !failure; off += FEED_CHUNK) {
      const end = Math.min(bytes.length, off + FEED_CHUNK);
      unzip.push(bytes.subarray(off, end), end === bytes.length);
      if (queue.length > 0) await drain();
    }
  } catch (e) {
    containerError = e instanceof MeshError ? e : notAPackage("its ZIP data is damaged or truncated");
  }
  // entries completed before a container error are still read first, so their errors win as they did when inflated inline
  if (queue.length > 0) await drain();
  if (!failure) failure = containerError;
  if (failure) throw failure;

  // find the root model part through the package relationships
  let rootKey: string | null = null;
  if (relsChunks.length > 0) {
    const rels = concat(relsChunks, relsBytes);
    const target = readRootTarget(rels);
    if (target) rootKey = normalizePartName(target);
  } else if (!directory.some((d) => normalizePartName(d.name) === "_rels/.rels")) {
    throw notAPackage("it has no _rels/.rels relationships part");
  }
  if (!rootKey) throw notAPackage("its relationships do not name a 3D model part");
  const root = parts.get(rootKey);
  if (!root) throw notAPackage(`its 3D model part ${rootKey} is missing`);
  return buildMesh(root.part, parts);
}

/** Reads one root model part from the given chunks; tests use it to pick chunk boundaries and to switch the fast reader off. */
export function meshFromModelChunks(chunks: Iterable<Uint8Array>, fast = true): Mesh {
  const reader = new ModelPartReader("3d/3dmodel.model", fast);
  for (const c of chunks) reader.push(c);
  reader.finish();
  return buildMesh(reader.part, new Map([[reader.part.name, reader]]));
}

interface DeferredEntry {
  name: string;
  /** ZIP compression method: 0 stored, 8 deflate */
  method: number;
  /** the container could not hand this entry over (unknown compression) */
  broken: boolean;
  isRels: boolean;
  reader: ModelPartReader | null;
  chunks: Uint8Array[];
  compressed: number;
}

/** Hands deflated entry bytes through untouched, so the platform inflater can take them instead of fflate's JS one. */
class DeflatePassThrough implements UnzipDecoder {
  static compression = 8;
  ondata: AsyncFlateStreamHandler = () => {};
  push(chunk: Uint8Array, final: boolean): void {
    // fflate types its chunks as ArrayBuffer-backed; they are views of the package bytes either way
    this.ondata(null, chunk as Uint8Array<ArrayBuffer>, final);
  }
}

let rawSupported: boolean | null = null;
/** DecompressionStream("deflate-raw") (Node 18+, current browsers and workers) inflates natively, about twice as fast as fflate. */
function hasNativeInflate(): boolean {
  if (typeof DecompressionStream !== "function") return false;
  if (rawSupported === null) {
    try {
      new DecompressionStream("deflate-raw");
      rawSupported = true;
    } catch {
      // older browsers know only "gzip" and "deflate"
      rawSupported = false;
    }
  }
  return rawSupported;
}

const ignore = (): void => {};

/** The part of Node's zlib the reader uses; reached through process.getBuiltinModule, so bundles for browsers never see it. */
interface NodeInflater {
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (err: unknown) => void): unknown;
  write(chunk: Uint8Array): unknown;
  end(): unknown;
  destroy(): unknown;
}
interface NodeZlib {
  createInflateRaw(options: { chunkSize: number }): NodeInflater;
}

/** Output chunk of Node's inflater: DecompressionStream hands 16 KB at a time, and its per-chunk cost was a third of the inflating. */
const NODE_INFLATE_CHUNK = 256 * 1024;

function nodeZlib(): NodeZlib | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== "function") return null; // a browser, a worker, or Node before 20.16
  try {
    const zlib = proc.getBuiltinModule("node:zlib") as NodeZlib | undefined;
    return zlib && typeof zlib.createInflateRaw === "function" ? zlib : null;
  } catch {
    return null;
  }
}

/** Streams one entry through Node's zlib in large chunks; same errors and same order of chunks as the web stream. */
function inflateNode(zlib: NodeZlib, job: DeferredEntry, onData: (data: Uint8Array, final: boolean) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const z = zlib.createInflateRaw({ chunkSize: NODE_INFLATE_CHUNK });
    let settled = false;
    const fail = (e: unknown): void => {
      if (settled) return;
      settled = true;
      z.destroy();
      reject(e);
    };
    z.on("data", (chunk) => {
      if (settled) return;
      try {
        // a plain view, so the scanner sees one array type whatever the platform hands over
        onData(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), false);
      } catch (e) {
        fail(e);
      }
    });
    z.on("error", () => fail(notAPackage(`the part ${job.name} cannot be decompressed`)));
    z.on("end", () => {
      if (settled) return;
      settled = true;
      try {
        onData(new Uint8Array(0), true);
        resolve();
      } catch (e) {
        reject(e);
      }
    });
    for (const c of job.chunks) z.write(c);
    z.end();
  });
}

/** Streams one entry through the platform's inflater; onData errors cancel the inflater and propagate unchanged. */
async function inflateNative(job: DeferredEntry, onData: (data: Uint8Array, final: boolean) => void): Promise<void> {
  const zlib = nodeZlib();
  if (zlib) return inflateNode(zlib, job, onData);
  const ds = new DecompressionStream("deflate-raw");
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  // write rejections (bad data, cancel) surface through the reader
  for (const c of job.chunks) writer.write(c as Uint8Array<ArrayBuffer>).catch(ignore);
  writer.close().catch(ignore);
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      throw notAPackage(`the part ${job.name} cannot be decompressed`);
    }
    try {
      if (step.done) return onData(new Uint8Array(0), true);
      onData(step.value, false);
    } catch (e) {
      reader.cancel().catch(ignore);
      throw e;
    }
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Placements of objects (build items and components, nested ones counted each time) one 3MF may expand to. */
export const MAX_COMPONENT_INSTANCES = 100_000;
/** Triangles the placements may add beyond those the file stores: each copy costs as much to analyse as a stored one. */
export const MAX_INSTANCED_TRIANGLES = 2_000_000;
/** Vertices copied out of all placements (a triangle soup of MAX_TRIANGLES triangles has three times as many). */
const MAX_EMITTED_VERTICES = 3 * MAX_TRIANGLES;

function tooManyInstances(): MeshError {
  return new MeshError(
    `This 3MF file places its objects and components too many times (more than ${MAX_COMPONENT_INSTANCES.toLocaleString("en-US")} placements or ${MAX_INSTANCED_TRIANGLES.toLocaleString("en-US")} copied triangles); please merge or simplify them before uploading.`,
    "too-many-triangles",
  );
}

function buildMesh(root: ModelPart, parts: Map<string, ModelPartReader>): Mesh {
  if (root.items.length === 0) throw new MeshError("This 3MF file has no objects on its build plate.", "empty");
  const positions = new GrowF32(1024);
  const indices = new GrowU32(1024);
  const colors = new Set<string>();
  const scale = root.unit;
  const unitMatrix = scale === 1 ? null : new Float64Array([scale, 0, 0, 0, scale, 0, 0, 0, scale, 0, 0, 0]);

  const partFor = (path: string | null, from: ModelPart): ModelPart => {
    if (!path) return from;
    const p = parts.get(normalizePartName(path));
    if (!p) throw notAPackage(`a component refers to the missing part ${path}`);
    return p.part;
  };

  // what the file stores, so the expansion can be bounded by what it adds on top
  let storedTriangles = 0;
  for (const reader of parts.values())
    for (const obj of reader.part.objects.values()) storedTriangles += obj.tris ? obj.tris.length / 3 : 0;
  const maxTriangles = Math.min(MAX_TRIANGLES, storedTriangles + MAX_INSTANCED_TRIANGLES);
  let instances = 0;
  let emittedVertices = 0;

  const emit = (part: ModelPart, objectId: number, transform: Float64Array | null, depth: number): void => {
    if (depth > 32) throw new MeshError("This 3MF file nests components too deeply (or in a loop).", "malformed");
    // every placement costs work even without triangles: nested components multiply, so they are counted
    if (++instances > MAX_COMPONENT_INSTANCES) throw tooManyInstances();
    const obj = part.objects.get(objectId);
    if (!obj) throw new MeshError(`This 3MF file refers to object ${objectId}, which it does not define.`, "malformed");
    if (obj.pid >= 0) {
      const group = part.colorGroups.get(obj.pid);
      const c = group?.[obj.pindex];
      if (c) colors.add(c);
    }
    if (obj.verts && obj.tris && obj.tris.length > 0) {
      const vCount = obj.verts.length / 3;
      const base = positions.length / 3;
      if (indices.length / 3 + obj.tris.length / 3 > maxTriangles) {
        throw indices.length / 3 + obj.tris.length / 3 > MAX_TRIANGLES ? tooManyTriangles() : tooManyInstances();
      }
      emittedVertices += vCount;
      if (emittedVertices > MAX_EMITTED_VERTICES) throw tooManyInstances();
      const src = obj.verts.data;
      const m = transform;
      const nv = obj.verts.length;
      // room for the whole object up front: one copy per doubling instead of a capacity check per vertex
      if (positions.length + nv > positions.data.length) positions.grow(positions.length + nv);
      const dst = positions.data;
      const o = positions.length;
      if (m) {
        for (let k = 0; k < nv; k += 3) {
          const x = src[k];
          const y = src[k + 1];
          const z = src[k + 2];
          dst[o + k] = x * m[0] + y * m[3] + z * m[6] + m[9];
          dst[o + k + 1] = x * m[1] + y * m[4] + z * m[7] + m[10];
          dst[o + k + 2] = x * m[2] + y * m[5] + z * m[8] + m[11];
        }
      } else dst.set(src.subarray(0, nv), o);
      positions.length = o + nv;
      const t = obj.tris.data;
      const nt = obj.tris.length;
      if (indices.length + nt > indices.data.length) indices.grow(indices.length + nt);
      const out = indices.data;
      const io = indices.length;
      for (let k = 0; k < nt; k++) {
        const v = t[k];
        if (v >= vCount) {
          throw new MeshError(
            `This 3MF file has a triangle that refers to vertex ${v}, but object ${objectId} has only ${vCount} vertices.`,
            "missing-vertex",
          );
        }
        out[io + k] = base + v;
      }
      indices.length = io + nt;
    }
    for (const c of obj.components) emit(partFor(c.path, part), c.objectId, compose(c.transform, transform), depth + 1);
  };

  for (const item of root.items) emit(partFor(item.path, root), item.objectId, compose(item.transform, unitMatrix), 0);
  const triangleCount = indices.length / 3;
  if (triangleCount === 0) throw new MeshError("This 3MF file holds no triangles.", "empty");
  const pos = positions.toArray();
  for (let k = 0; k < pos.length; k++) {
    if (pos[k] - pos[k] !== 0) throw badNumber("3MF", "after applying its transforms");
  }
  return {
    positions: pos,
    indices: indices.toArray(),
    triangleCount,
    format: "3mf",
    numberOfColors: Math.max(1, colors.size),
  };
}
