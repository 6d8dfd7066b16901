import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  analyzeModel,
  detectFormat,
  estimateFromFileSize,
  roundGrams,
  layerHeightBucket,
  layerHeightForQuality,
  INVALID_FILE_TYPE_MESSAGE,
  MeshError,
  QUALITY_PRESETS,
} from "./index";
import { box, cylinder, sphere, to3mf, toAsciiStl, toBinaryStl, toObj } from "./generate";

const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/models/${name}`, import.meta.url)));

async function errorOf(p: Promise<unknown>): Promise<MeshError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MeshError);
    return e as MeshError;
  }
  throw new Error("expected a MeshError");
}

describe("analyzeModel", () => {
  it("returns every field of the analysis result for a 20 mm cube", async () => {
    const r = await analyzeModel(toBinaryStl(box(20, 20, 20)), "cube.stl", { supports: "no", infill: 15 });
    expect(r).toMatchObject({
      numberOfColors: 1,
      boundingBox: { x: 20, y: 20, z: 20 },
      volume: 8000,
      surfaceArea: 2400,
      infillDensity: 15,
      layerHeight: 0.2,
      printSpeed: 50,
      supportMaterial: false,
      supports: "no",
      material: "PLA",
      fileFormat: "stl",
      triangles: 12,
      bodies: 1,
      closed: true,
      openEdges: 0,
    });
    // PrusaSlicer 2.5 with the reference profile: 3.43 g and about 17 minutes
    expect(Math.abs(r.estimatedWeight - 3.43) / 3.43).toBeLessThan(0.05);
    expect(Math.abs(r.estimatedTimeMinutes - 16.6) / 16.6).toBeLessThan(0.25);
    expect(Number.isInteger(r.estimatedTimeMinutes)).toBe(true);
    expect(Math.round(r.estimatedWeight * 100) / 100).toBe(r.estimatedWeight);
  });

  it.each([
    { name: "binary STL", file: "m.stl", bytes: toBinaryStl(box(30, 20, 10)) },
    { name: "ASCII STL", file: "m.STL", bytes: toAsciiStl(box(30, 20, 10)) },
    { name: "OBJ", file: "m.obj", bytes: toObj(box(30, 20, 10)) },
    { name: "3MF", file: "m.3mf", bytes: to3mf(box(30, 20, 10)) },
  ])("gives the same answer for the $name of one box", async ({ file, bytes }) => {
    const r = await analyzeModel(bytes, file, { supports: "no" });
    expect(r.volume).toBe(6000);
    expect(r.estimatedWeight).toBe(
      (await analyzeModel(toBinaryStl(box(30, 20, 10)), "a.stl", { supports: "no" })).estimatedWeight,
    );
  });

  it("scales weight with the material density and infill", async () => {
    const bytes = toBinaryStl(box(40, 40, 40));
    const pla = await analyzeModel(bytes, "c.stl", { supports: "no" });
    const abs = await analyzeModel(bytes, "c.stl", { supports: "no", material: "ABS" });
    const dense = await analyzeModel(bytes, "c.stl", { supports: "no", infill: 50 });
    const solid = await analyzeModel(bytes, "c.stl", { supports: "no", infill: 100 });
    expect(abs.estimatedWeight / pla.estimatedWeight).toBeCloseTo(1.04 / 1.24, 1);
    expect(dense.estimatedWeight).toBeGreaterThan(pla.estimatedWeight * 1.5);
    expect(solid.estimatedWeight).toBeCloseTo((64000 * 1.24) / 1000, 0);
  });

  it("adds supports under an overhang only when asked", async () => {
    // a T shape: a 10 mm post carrying a 60 mm plate 30 mm up
    const { merge } = await import("./generate");
    const t = toBinaryStl(merge({ mesh: box(10, 10, 30, 25, 25, 0) }, { mesh: box(60, 60, 3, 0, 0, 30) }));
    const none = await analyzeModel(t, "t.stl", { supports: "no" });
    const auto = await analyzeModel(t, "t.stl", { supports: "auto" });
    expect(none.supportMaterial).toBe(false);
    expect(auto.supportMaterial).toBe(true);
    expect(auto.estimatedWeight).toBeGreaterThan(none.estimatedWeight);
    const cube = await analyzeModel(toBinaryStl(box(20, 20, 20)), "c.stl");
    expect(cube.supports).toBe("auto");
    expect(cube.supportMaterial).toBe(false);
  });

  it("estimates the shared fixtures within 15% of PrusaSlicer", async () => {
    const cases = [
      { file: "trimesh_20mm-xyz-cube.stl", grams: 3.63 },
      { file: "trimesh_cube_and_sphere_same_name.3mf", grams: 30.37 },
      { file: "3mfc_dodeca_chain_loop.3mf", grams: 41.14 },
    ];
    for (const c of cases) {
      const r = await analyzeModel(fixture(c.file), c.file, { supports: "no", infill: 15 });
      expect(Math.abs(r.estimatedWeight - c.grams) / c.grams).toBeLessThan(0.15);
    }
    const s = await analyzeModel(toBinaryStl(sphere(50, 111, 180)), "s.stl", { supports: "no", infill: 15 });
    expect(Math.abs(s.estimatedWeight - 123) / 123).toBeLessThan(0.05);
  });

  it("reports open meshes without failing", async () => {
    const m = box(10, 10, 10);
    const open = { ...m, indices: (m.indices as Uint32Array).slice(3), triangleCount: 11 };
    const r = await analyzeModel(toBinaryStl(open), "open.stl");
    expect(r.closed).toBe(false);
    expect(r.openEdges).toBe(3);
    expect(r.estimatedWeight).toBeGreaterThan(0);
  });

  it("counts bodies", async () => {
    const { merge } = await import("./generate");
    const r = await analyzeModel(
      toBinaryStl(
        merge({ mesh: box(5, 5, 5) }, { mesh: cylinder(3, 10, 24), at: [20, 0, 0] }, { mesh: sphere(4, 12, 24), at: [40, 0, 0] }),
      ),
      "three.stl",
    );
    expect(r.bodies).toBe(3);
  });
});

describe("file type checks", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(0)]);
  const cases: Array<{ name: string; bytes: Uint8Array; file: string }> = [
    { name: "PNG renamed to .stl", bytes: png, file: "model.stl" },
    { name: "PNG renamed to .obj", bytes: png, file: "model.obj" },
    { name: "PNG renamed to .3mf", bytes: png, file: "model.3mf" },
    { name: "a ZIP renamed to .stl", bytes: to3mf(box(1, 1, 1)), file: "model.stl" },
    { name: "binary data renamed to .obj", bytes: toBinaryStl(box(1, 1, 1)), file: "model.obj" },
    { name: "wrong extension", bytes: toBinaryStl(box(1, 1, 1)), file: "model.step" },
    { name: "no extension", bytes: toBinaryStl(box(1, 1, 1)), file: "model" },
    { name: "HTML renamed to .stl", bytes: new TextEncoder().encode("<!DOCTYPE html><html></html>"), file: "x.stl" },
  ];
  it.each(cases)("refuses $name with the standard message", async ({ bytes, file }) => {
    const e = await errorOf(analyzeModel(bytes, file));
    expect(e.message).toBe(INVALID_FILE_TYPE_MESSAGE);
    expect(e.code).toBe("invalid-type");
  });

  it("accepts extensions in any case and detects by content too", () => {
    expect(detectFormat(toBinaryStl(box(1, 1, 1)), "A.StL")).toBe("stl");
    expect(detectFormat(to3mf(box(1, 1, 1)), "b.3MF")).toBe("3mf");
  });

  it("refuses an empty file and bad options", async () => {
    expect((await errorOf(analyzeModel(new Uint8Array(0), "e.stl"))).code).toBe("empty");
    const ok = toBinaryStl(box(1, 1, 1));
    expect((await errorOf(analyzeModel(ok, "a.stl", { material: "unobtainium" }))).code).toBe("bad-option");
    expect((await errorOf(analyzeModel(ok, "a.stl", { infill: 150 }))).code).toBe("bad-option");
    expect((await errorOf(analyzeModel(ok, "a.stl", { layerHeight: 0 }))).code).toBe("bad-option");
  });
});

describe("the product's analysis rules", () => {
  it.each([
    { bytes: 1024 * 1024, format: "stl" as const, grams: 6.2 },
    { bytes: 1024 * 1024, format: "3mf" as const, grams: 9.9 },
    { bytes: 1024 * 1024, format: "obj" as const, grams: 3.7 },
    { bytes: 10 * 1024 * 1024, format: "stl" as const, grams: 62 },
  ])("size fallback for $bytes bytes of $format", ({ bytes, format, grams }) => {
    expect(estimateFromFileSize(bytes, format).estimatedWeight).toBeCloseTo(grams, 1);
    expect(estimateFromFileSize(bytes, format).estimatedTimeMinutes).toBeGreaterThan(0);
  });

  it.each([
    [0.05, 0.1],
    [0.1, 0.1],
    [0.15, 0.1],
    [0.16, 0.2],
    [0.2, 0.2],
    [0.24, 0.2],
    [0.25, 0.3],
    [0.4, 0.3],
  ])("layer height %f maps to %f", (input, bucket) => {
    expect(layerHeightBucket(input)).toBe(bucket);
  });

  it("quality presets", () => {
    expect(QUALITY_PRESETS).toEqual({ draft: 0.3, normal: 0.2, fine: 0.1, ultra: 0.05 });
    expect(layerHeightForQuality("Fine")).toBe(0.1);
    expect(layerHeightForQuality("unknown")).toBe(0.2);
  });
});

describe("grams as reported", () => {
  it.each([
    { grams: 1.4449, shown: 1.44 },
    { grams: 0.914, shown: 0.91 },
    { grams: 9.994, shown: 9.99 },
    { grams: 9.996, shown: 10 },
    { grams: 12.345, shown: 12.3 },
    { grams: 98.31, shown: 98.3 },
  ])("rounds $grams g to $shown", ({ grams, shown }) => {
    expect(roundGrams(grams)).toBe(shown);
  });

  it("reports a small part to 0.01 g", async () => {
    // a 10 mm cube prints about 0.65 g: 0.1 g steps would carry up to 8% error
    const r = await analyzeModel(toBinaryStl(box(10, 10, 10)), "cube.stl", { supports: "no", infill: 15 });
    expect(r.estimatedWeight).toBeGreaterThan(0.5);
    expect(r.estimatedWeight).toBeLessThan(0.8);
    expect(Math.round(r.estimatedWeight * 100)).not.toBe(Math.round(r.estimatedWeight * 10) * 10);
  });
});
