// 3MF model XML: objects, their meshes, components, build items and colour groups of one model part, read from
// streamed chunks into per-object typed arrays.

import { MeshError, MAX_TRIANGLES, tooManyTriangles } from "./errors";
import { GrowF32, GrowU32, numberEnd, readInt, readNumber } from "./bytes";
import {
  plainTriangleAttributes,
  readTriangleTag,
  readVertexTag,
  triangleAttributes,
  vertexAttributes,
  type MeshTagSink,
} from "./threemf-tags";
import { XmlTagScanner, attrIs, type FastTagReader, decodeValue, forEachAttribute, localName, nameEquals } from "./xml-scan";

const UNIT_MM: Record<string, number> = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
};

export interface ComponentRef {
  objectId: number;
  /** 12 numbers, row-vector 3MF convention; null means identity */
  transform: Float64Array | null;
  path: string | null;
}

export interface ObjectDef {
  id: number;
  verts: GrowF32 | null;
  tris: GrowU32 | null;
  components: ComponentRef[];
  /** colour key from pid/pindex, resolved after the part is read */
  pid: number;
  pindex: number;
}

export interface ModelPart {
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
export class ModelPartReader implements FastTagReader, MeshTagSink {
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
    if (i >= end || this.current === null) return -1;
    const w = this.where;
    if (w === Where.Vertices) return b[i] === 118 ? readVertexTag(b, i, end, this) : -1;
    if (w === Where.Triangles) return b[i] === 116 ? readTriangleTag(b, i, end, this) : -1;
    return -1;
  }

  addVertex(x: number, y: number, z: number): void {
    this.owner().verts?.push3(x, y, z);
  }

  addTriangle(v1: number, v2: number, v3: number): void {
    if (++this.triangleTotal > MAX_TRIANGLES) throw tooManyTriangles();
    this.owner().tris?.push3(v1, v2, v3);
  }

  /** The object a vertex or triangle belongs to: none when its object ended while its list was still open. */
  private owner(): ObjectDef {
    if (this.current === null) throw new MeshError("This 3MF file has a vertex or triangle outside any object.", "malformed");
    return this.current;
  }

  push(chunk: Uint8Array): void {
    this.scanner.push(chunk);
  }

  finish(): void {
    this.scanner.finish();
  }

  private tag(b: Uint8Array, s: number, e: number): void {
    // hot path first, before any name slicing: unprefixed <vertex> and <triangle> are nearly every tag of a model
    if (this.where === Where.Vertices && isName(b, s, e, VERTEX)) return vertexAttributes(b, s + 6, e, this);
    if (this.where === Where.Triangles && isName(b, s, e, TRIANGLE)) {
      if (!plainTriangleAttributes(b, s + 8, e, this)) triangleAttributes(b, s + 8, e, this);
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
    if (this.where === Where.Vertices && n === 6 && nameEquals(b, ns, ne, "vertex")) return vertexAttributes(b, ne, e, this);
    if (this.where === Where.Triangles && n === 8 && nameEquals(b, ns, ne, "triangle")) return triangleAttributes(b, ne, e, this);
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
