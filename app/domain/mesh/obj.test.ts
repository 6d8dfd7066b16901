import { describe, expect, it } from "vitest";
import { parseObj } from "./obj";
import { box, toObj } from "./generate";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { MeshError } from "./errors";
import { enc } from "./test-helpers";

const CUBE_VERTS = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";
// quads, counter-clockwise from outside
const CUBE_QUADS = "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

describe("OBJ", () => {
  const cases: Array<{ name: string; text: string; volume: number; triangles: number }> = [
    { name: "quads", text: CUBE_VERTS + CUBE_QUADS, volume: 1, triangles: 12 },
    {
      name: "relative (negative) indices",
      text: CUBE_VERTS + CUBE_QUADS.replace(/\d+/g, (d) => String(Number(d) - 9)),
      volume: 1,
      triangles: 12,
    },
    {
      name: "v/vt/vn corners, comments, groups, materials and CRLF",
      text:
        "# exported\r\nmtllib ../../etc/passwd\r\no cube\r\ng side\r\nusemtl red\r\ns off\r\n" +
        CUBE_VERTS.replace(/\n/g, " 1.0\r\n") +
        "vt 0 0\r\nvn 0 0 1\r\n" +
        CUBE_QUADS.replace(/(\d+)/g, "$1/1/1").replace(/\n/g, "\r\n"),
      volume: 1,
      triangles: 12,
    },
    { name: "exponent coordinates", text: toObjText(), volume: 6000, triangles: 12 },
    { name: "faces before their vertices", text: CUBE_QUADS + CUBE_VERTS, volume: 1, triangles: 12 },
    { name: "line continuation", text: CUBE_VERTS + CUBE_QUADS.replace("f 1 4 3 2", "f 1 4 \\\n3 2"), volume: 1, triangles: 12 },
  ];
  it.each(cases)("$name", ({ text, volume, triangles }) => {
    const m = parseObj(enc(text));
    expect(m.triangleCount).toBe(triangles);
    expect(computeBasicMetrics(m).volume).toBeCloseTo(volume, 5);
    expect(computeTopology(m).closed).toBe(true);
  });

  it("fans a polygon from its first corner, in file order, across a line continuation", () => {
    const m = parseObj(enc("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 2 0\nv -1 1 0\nf 1 +2 3/1 \\\r\n 4//2 -2\t6/1/1\n"));
    expect(Array.from(m.indices ?? [])).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5]);
    expect(Array.from(m.positions.subarray(3, 9))).toEqual([1, 0, 0, 2, 1, 0]);
  });

  const bad: Array<{ name: string; text: string; code: string; message?: RegExp }> = [
    {
      name: "face pointing past the last vertex",
      text: CUBE_VERTS + "f 1 2 9\n",
      code: "missing-vertex",
      message: /refers to vertex 9, but only 8 vertices/,
    },
    { name: "relative index before the first vertex", text: "v 0 0 0\nf -1 -2 -3\n", code: "missing-vertex" },
    { name: "index zero", text: CUBE_VERTS + "f 0 1 2\n", code: "malformed" },
    { name: "two-corner face", text: CUBE_VERTS + "f 1 2\n", code: "malformed" },
    { name: "NaN coordinate", text: "v 0 nan 0\n" + CUBE_VERTS + "f 1 2 3\n", code: "bad-number" },
    { name: "infinite coordinate", text: "v 0 0 1e400\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", code: "bad-number" },
    { name: "no faces", text: CUBE_VERTS, code: "empty" },
  ];
  it.each(bad)("refuses: $name", ({ text, code, message }) => {
    let caught: unknown;
    try {
      parseObj(enc(text));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MeshError);
    expect((caught as MeshError).code).toBe(code);
    if (message) expect((caught as MeshError).message).toMatch(message);
  });
});

function toObjText(): string {
  return new TextDecoder()
    .decode(toObj(box(10, 20, 30)))
    .replace(/ 10 /g, " 1.0e1 ")
    .replace(/ 30$/gm, " 3E+1");
}
