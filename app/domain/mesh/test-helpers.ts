// Small helpers shared by the mesh engine's tests (no node imports: fixtures are read by the tests themselves).

import { strToU8, zipSync, type Zippable } from "fflate";
import { expect } from "vitest";
import { MeshError } from "./errors";
import { CONTENT_TYPES_XML, RELS_XML } from "./generate";

export const enc = (s: string): Uint8Array => strToU8(s);

/** A 3MF package around the given model XML, with extra or replaced entries. */
export function package3mf(modelXml: string, extra: Zippable = {}): Uint8Array {
  return zipSync({
    "[Content_Types].xml": enc(CONTENT_TYPES_XML),
    "_rels/.rels": enc(RELS_XML),
    "3D/3dmodel.model": enc(modelXml),
    ...extra,
  });
}

/** A unit-cube object (8 vertices, 12 triangles) as 3MF XML, for building models by hand. */
export function cubeObjectXml(id: number, size = 10): string {
  const s = size;
  const v = [
    [0, 0, 0],
    [s, 0, 0],
    [s, s, 0],
    [0, s, 0],
    [0, 0, s],
    [s, 0, s],
    [s, s, s],
    [0, s, s],
  ];
  const t = [
    [0, 3, 2],
    [0, 2, 1],
    [4, 5, 6],
    [4, 6, 7],
    [0, 1, 5],
    [0, 5, 4],
    [1, 2, 6],
    [1, 6, 5],
    [2, 3, 7],
    [2, 7, 6],
    [3, 0, 4],
    [3, 4, 7],
  ];
  return (
    `<object id="${id}" type="model"><mesh><vertices>` +
    v.map(([x, y, z]) => `<vertex x="${x}" y="${y}" z="${z}"/>`).join("") +
    "</vertices><triangles>" +
    t.map(([a, b, c]) => `<triangle v1="${a}" v2="${b}" v3="${c}"/>`).join("") +
    "</triangles></mesh></object>"
  );
}

export function modelXml(resources: string, build: string, unit = "millimeter", prolog = ""): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>${prolog}` +
    `<model unit="${unit}" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">` +
    `<resources>${resources}</resources><build>${build}</build></model>`
  );
}

/** Awaits p and checks it failed with a MeshError of this code (and message). */
export async function expectMeshError(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(MeshError);
  expect((caught as MeshError).code).toBe(code);
  if (message) expect((caught as MeshError).message).toMatch(message);
}

/** Rewrites the declared uncompressed size of one entry in both ZIP headers, to simulate a lying archive. */
export function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const dv = new DataView(out.buffer);
  const nameBytes = strToU8(name);
  for (let i = 0; i + 46 < out.length; i++) {
    const sig = dv.getUint32(i, true);
    const isLocal = sig === 0x04034b50;
    const isCentral = sig === 0x02014b50;
    if (!isLocal && !isCentral) continue;
    const nameLen = dv.getUint16(i + (isLocal ? 26 : 28), true);
    const nameAt = i + (isLocal ? 30 : 46);
    if (nameLen !== nameBytes.length || !nameBytes.every((c, k) => out[nameAt + k] === c)) continue;
    dv.setUint32(i + (isLocal ? 22 : 24), size, true);
  }
  return out;
}

/** Flips bytes in the middle of the compressed model data so inflation fails. */
export function damage(zip: Uint8Array): Uint8Array {
  const out = zip.slice();
  const dv = new DataView(out.buffer);
  for (let i = 0; i + 30 < out.length; i++) {
    if (dv.getUint32(i, true) !== 0x04034b50) continue;
    const nameLen = dv.getUint16(i + 26, true);
    const name = new TextDecoder().decode(out.subarray(i + 30, i + 30 + nameLen));
    if (name !== "3D/3dmodel.model") continue;
    const start = i + 30 + nameLen + dv.getUint16(i + 28, true);
    const size = dv.getUint32(i + 18, true);
    for (let k = start + 2; k < start + size - 2; k++) out[k] = 0xff;
    return out;
  }
  throw new Error("model entry not found");
}
