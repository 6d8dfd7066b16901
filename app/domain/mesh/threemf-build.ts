// Builds the one mesh of a 3MF package from its build items: objects placed with their components' transforms, each
// placement counted so a small file cannot expand into unbounded work.

import type { GrowF32, GrowU32 } from "./bytes";
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

/** One object placed on the plate: its vertices go to `base`, its indices to `at` of the mesh being built. */
interface Placement {
  obj: ObjectDef;
  transform: Float64Array | null;
  base: number;
  at: number;
}

/** Every placement is planned first (checked in the order they are met), then copied once into arrays of the exact size. */
export function buildMesh(root: ModelPart, parts: Map<string, ModelPartReader>): Mesh {
  if (root.items.length === 0) throw new MeshError("This 3MF file has no objects on its build plate.", "empty");
  const plan = planPlacements(root, parts);
  if (plan.indices === 0) throw new MeshError("This 3MF file holds no triangles.", "empty");
  const pos = new Float32Array(plan.vertices * 3);
  const indices = new Uint32Array(plan.indices);
  for (const placement of plan.placements) copyPlacement(pos, indices, placement);
  for (let k = 0; k < pos.length; k++) {
    if (pos[k] - pos[k] !== 0) throw badNumber("3MF", "after applying its transforms");
  }
  return {
    positions: pos,
    indices,
    triangleCount: plan.indices / 3,
    format: "3mf",
    numberOfColors: Math.max(1, plan.colors.size),
  };
}

/** Walks the build items and their components, counting every placement against the limits, and lists those with triangles. */
function planPlacements(
  root: ModelPart,
  parts: Map<string, ModelPartReader>,
): { placements: Placement[]; vertices: number; indices: number; colors: Set<string> } {
  const placements: Placement[] = [];
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
  let vertices = 0;
  let indices = 0;
  const checked = new Set<ObjectDef>();

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
      if (indices / 3 + obj.tris.length / 3 > maxTriangles) {
        throw indices / 3 + obj.tris.length / 3 > MAX_TRIANGLES ? tooManyTriangles() : tooManyInstances();
      }
      if (vertices + vCount > MAX_EMITTED_VERTICES) throw tooManyInstances();
      if (!checked.has(obj)) {
        checkIndices(obj, vCount);
        checked.add(obj);
      }
      placements.push({ obj, transform, base: vertices, at: indices });
      vertices += vCount;
      indices += obj.tris.length;
    }
    for (const c of obj.components) emit(partFor(c.path, part), c.objectId, compose(c.transform, transform), depth + 1);
  };

  for (const item of root.items) emit(partFor(item.path, root), item.objectId, compose(item.transform, unitMatrix), 0);
  return { placements, vertices, indices, colors };
}

/** The first triangle corner past the object's vertices is refused. */
function checkIndices(obj: ObjectDef, vCount: number): void {
  const tris = obj.tris as GrowU32;
  const t = tris.data;
  for (let k = 0, n = tris.length; k < n; k++) {
    const v = t[k];
    if (v >= vCount) {
      throw new MeshError(
        `This 3MF file has a triangle that refers to vertex ${v}, but object ${obj.id} has only ${vCount} vertices.`,
        "missing-vertex",
      );
    }
  }
}

/** Copies one placed object into the mesh: its vertices through the transform, its triangles offset by its base. */
function copyPlacement(pos: Float32Array, indices: Uint32Array, { obj, transform: m, base, at }: Placement): void {
  const verts = obj.verts as GrowF32;
  const tris = obj.tris as GrowU32;
  const src = verts.data;
  const nv = verts.length;
  const o = base * 3;
  if (m) {
    for (let k = 0; k < nv; k += 3) {
      const x = src[k];
      const y = src[k + 1];
      const z = src[k + 2];
      pos[o + k] = x * m[0] + y * m[3] + z * m[6] + m[9];
      pos[o + k + 1] = x * m[1] + y * m[4] + z * m[7] + m[10];
      pos[o + k + 2] = x * m[2] + y * m[5] + z * m[8] + m[11];
    }
  } else pos.set(src.subarray(0, nv), o);
  const t = tris.data;
  const nt = tris.length;
  if (base === 0) indices.set(t.subarray(0, nt), at);
  else for (let k = 0; k < nt; k++) indices[at + k] = base + t[k];
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
