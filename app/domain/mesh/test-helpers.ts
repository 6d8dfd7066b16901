// Small helpers shared by the mesh engine's tests (no node imports: fixtures are read by the tests themselves).

import { strToU8, zipSync, type Zippable } from "fflate";
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
