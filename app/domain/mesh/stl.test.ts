import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isBinaryStl, parseBinaryStl, parseStl } from "./stl";
import { box, sphere, toAsciiStl, toBinaryStl } from "./generate";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { MeshError } from "./errors";
import { enc } from "./test-helpers";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/models/${name}`, import.meta.url)));

function expectMeshError(fn: () => unknown, code: string, message?: RegExp | string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MeshError);
    expect((e as MeshError).code).toBe(code);
    if (typeof message === "string") expect((e as MeshError).message).toBe(message);
    else if (message) expect((e as MeshError).message).toMatch(message);
    return;
  }
  throw new Error("expected a MeshError");
}

describe("STL binary vs ASCII", () => {
  it("reads the XYZ cube fixture as binary by the size rule", () => {
    const bytes = fixture("trimesh_20mm-xyz-cube.stl");
    expect(isBinaryStl(bytes)).toBe(true);
    const m = parseStl(bytes);
    expect(m.triangleCount).toBe(260);
    const r = computeBasicMetrics(m);
    for (const side of [r.boundingBox.x, r.boundingBox.y, r.boundingBox.z]) expect(side).toBeCloseTo(20, 4);
    expect(r.volume).toBeCloseTo(7938.68, 1);
  });

  it("reads a binary file whose header starts with 'solid' as binary", () => {
    const bytes = toBinaryStl(box(10, 10, 10), "solid looks like ascii but is not");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("solid");
    const m = parseStl(bytes);
    expect(m.triangleCount).toBe(12);
    expect(computeBasicMetrics(m).volume).toBeCloseTo(1000, 6);
  });

  it("reads the two-solid ASCII fixture (OpenSCAD-style exponents)", () => {
    const m = parseStl(fixture("trimesh_two_objects_mixed_case_names.stl"));
    expect(m.triangleCount).toBe(24);
    expect(computeBasicMetrics(m).volume).toBeCloseTo(2, 6);
    expect(computeTopology(m).bodies).toBe(2);
  });

  it.each([
    { name: "box", mesh: box(12, 7, 3), volume: 252 },
    { name: "sphere", mesh: sphere(10, 24, 48), volume: computeBasicMetrics(sphere(10, 24, 48)).volume },
  ])("ASCII and binary of the same $name agree", ({ mesh, volume }) => {
    const a = computeBasicMetrics(parseStl(toAsciiStl(mesh)));
    const b = computeBasicMetrics(parseStl(toBinaryStl(mesh)));
    expect(a.volume).toBeCloseTo(volume, 2);
    expect(b.volume).toBeCloseTo(volume, 2);
    expect(a.triangles).toBe(b.triangles);
  });

  it("accepts CRLF line ends, tabs and upper-case keywords in ASCII", () => {
    const text = new TextDecoder()
      .decode(toAsciiStl(box(2, 2, 2)))
      .replace(/\n/g, "\r\n")
      .replace(/ {6}vertex/g, "\tVERTEX");
    expect(computeBasicMetrics(parseStl(enc(text))).volume).toBeCloseTo(8, 6);
  });
});

describe("STL bad files", () => {
  const binary = toBinaryStl(box(10, 10, 10));
  const ascii = new TextDecoder().decode(toAsciiStl(box(10, 10, 10)));
  const withFloat = (at: number, v: number): Uint8Array => {
    const copy = binary.slice();
    new DataView(copy.buffer).setFloat32(84 + 12 + 4 * at, v, true);
    return copy;
  };
  const declared = (n: number, size = 84): Uint8Array => {
    const b = new Uint8Array(size);
    new DataView(b.buffer).setUint32(80, n, true);
    return b;
  };
  const cases: Array<{ name: string; bytes: Uint8Array; code: string; message?: string | RegExp }> = [
    {
      name: "truncated binary",
      bytes: binary.subarray(0, 84 + 50 * 5 + 17),
      code: "truncated",
      message: "This STL file is truncated: it declares 12 triangles but holds 5.",
    },
    {
      name: "declares 1000, holds 12",
      bytes: declared(1000, 84 + 600),
      code: "truncated",
      message: "This STL file is truncated: it declares 1,000 triangles but holds 12.",
    },
    { name: "shorter than the header", bytes: new Uint8Array(40).fill(7), code: "truncated" },
    { name: "NaN coordinate", bytes: withFloat(4, NaN), code: "bad-number" },
    { name: "infinite coordinate", bytes: withFloat(7, -Infinity), code: "bad-number" },
    {
      name: "1 KB of random bytes (a header declaring billions of triangles)",
      bytes: (() => {
        const b = new Uint8Array(1024).map((_, i) => (i * 7919 + 13) % 251);
        new DataView(b.buffer).setUint32(80, 0xdeadbeef, true);
        return b;
      })(),
      code: "invalid-type",
      message: /^This file is not a valid STL file/,
    },
    { name: "5,000,001 triangles declared in a header-only file", bytes: declared(5_000_001), code: "invalid-type" },
    { name: "zero triangles", bytes: declared(0), code: "empty" },
    { name: "ASCII cut in the middle", bytes: enc(ascii.slice(0, Math.floor(ascii.length / 2))), code: "truncated" },
    { name: "ASCII without endsolid", bytes: enc(ascii.replace(/endsolid.*\n?$/, "")), code: "truncated" },
    { name: "ASCII with nan", bytes: enc(ascii.replace("vertex 10 0 0", "vertex nan 0 0")), code: "bad-number" },
    { name: "ASCII with inf", bytes: enc(ascii.replace("vertex 10 0 0", "vertex 10 inf 0")), code: "bad-number" },
    { name: "ASCII with 1e999", bytes: enc(ascii.replace("vertex 10 0 0", "vertex 1e999 0 0")), code: "bad-number" },
    { name: "ASCII with a word for a number", bytes: enc(ascii.replace("vertex 10 0 0", "vertex ten 0 0")), code: "bad-number" },
    { name: "empty ASCII solid", bytes: enc("solid empty\nendsolid empty\n"), code: "empty" },
  ];
  it.each(cases)("$name", ({ bytes, code, message }) => expectMeshError(() => parseStl(bytes), code, message));

  it("refuses a binary STL of over 5 million triangles, with a message that says so", () => {
    expectMeshError(() => parseBinaryStl(declared(5_000_001), 5_000_001), "too-many-triangles", /more than 5,000,000 triangles/);
  });
});
