// Builds the one mesh of a 3MF package from its build items: objects placed with their components' transforms, each
// placement counted so a small file cannot expand into unbounded work.

import { GrowF32, GrowU32 } from "./bytes";
import { MeshError, MAX_TRIANGLES, badNumber, notAPackage, tooManyTriangles } from "./errors";
import type { ModelPart, ModelPartReader, ObjectDef } from "./threemf-model";
import type { Mesh } from "./types";

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

export function buildMesh(root: ModelPart, parts: Map<string, ModelPartReader>): Mesh {
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
      appendObject(positions, indices, obj, transform, base, vCount);
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

/** Copies one placed object into the mesh: its vertices through the transform, its triangles offset by base. */
function appendObject(
  positions: GrowF32,
  indices: GrowU32,
  obj: ObjectDef,
  transform: Float64Array | null,
  base: number,
  vCount: number,
): void {
  const verts = obj.verts as GrowF32;
  const tris = obj.tris as GrowU32;
  const src = verts.data;
  const m = transform;
  const nv = verts.length;
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
  const t = tris.data;
  const nt = tris.length;
  if (indices.length + nt > indices.data.length) indices.grow(indices.length + nt);
  const out = indices.data;
  const io = indices.length;
  for (let k = 0; k < nt; k++) {
    const v = t[k];
    if (v >= vCount) {
      throw new MeshError(
        `This 3MF file has a triangle that refers to vertex ${v}, but object ${obj.id} has only ${vCount} vertices.`,
        "missing-vertex",
      );
    }
    out[io + k] = base + v;
  }
  indices.length = io + nt;
}

/** a then b, both in the 3MF row-vector convention (p' = p * M). */
export function compose(a: Float64Array | null, b: Float64Array | null): Float64Array | null {
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

/** The key of a part name: '/' separators, percent-decoded, no leading '/', lower case (ZIP names and references differ in each). */
export function normalizePartName(name: string): string {
  let n = name.replace(/\\/g, "/");
  try {
    n = decodeURIComponent(n);
  } catch {
    // keep the raw name when it is not valid percent-encoding
  }
  return n.replace(/^\/+/, "").toLowerCase();
}
