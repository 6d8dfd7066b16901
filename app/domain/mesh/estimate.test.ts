// Features of the slicer the weight estimate models, each on a shape that isolates it.

import { describe, expect, it } from "vitest";
import { DEFAULT_CALIBRATION, type Calibration } from "./calibration";
import { estimatePrint } from "./estimate";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { box, sphere } from "./generate";
import type { Mesh } from "./types";

/** A closed prism: the polygon (counter-clockwise in x-z, triangulated by `caps`) extruded along y. */
function prismXZ(poly: Array<[number, number]>, caps: Array<[number, number, number]>, depth: number): Mesh {
  const n = poly.length;
  const positions = new Float32Array(6 * n);
  poly.forEach(([x, z], i) => {
    positions.set([x, 0, z], 3 * i);
    positions.set([x, depth, z], 3 * (n + i));
  });
  const tris: number[] = [];
  for (const [a, b, c] of caps) tris.push(a, b, c, n + a, n + c, n + b);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    tris.push(i, n + j, j, i, n + i, n + j);
  }
  return { positions, indices: Uint32Array.from(tris), triangleCount: tris.length / 3, format: "stl", numberOfColors: 1 };
}

const estimate = (mesh: Mesh, cal: Partial<Calibration> = {}): ReturnType<typeof estimatePrint> =>
  estimatePrint(
    computeTopology(mesh),
    computeBasicMetrics(mesh),
    { layerHeight: 0.2, infill: 15, density: 1.24, supports: "no" },
    { ...DEFAULT_CALIBRATION, ...cal },
  );
const grams = (mesh: Mesh, cal: Partial<Calibration> = {}): number => estimate(mesh, cal).grams;

describe("solid infill below 70 mm2, per island", () => {
  // an arch: two 9 x 9 mm legs, 20 mm tall, joined by a bar on top; one body
  const arch = prismXZ(
    [
      [0, 0],
      [9, 0],
      [9, 20],
      [21, 20],
      [21, 0],
      [30, 0],
      [30, 25],
      [0, 25],
    ],
    [
      [0, 1, 2],
      [0, 2, 7],
      [2, 3, 7],
      [3, 6, 7],
      [3, 4, 5],
      [3, 5, 6],
    ],
    9,
  );

  it("builds the arch as one closed body", () => {
    const topo = computeTopology(arch);
    expect(topo.bodies).toBe(1);
    expect(topo.closed).toBe(true);
    expect(computeBasicMetrics(arch).volume).toBeCloseTo(510 * 9, 3);
  });

  it("prints each leg solid although the two legs together hold more than 70 mm2 of infill", () => {
    const layerOnly = grams(arch, { islandProbe: 0 });
    const perIsland = grams(arch);
    // the legs are 81 mm2 each: about 50 mm2 inside the perimeters, solid in the slicer
    expect(perIsland).toBeGreaterThan(layerOnly * 1.1);
    // never more than the solid volume
    expect(perIsland).toBeLessThan((510 * 9 * 1.24) / 1000);
  });

  it("leaves one post of the same total area sparse", () => {
    const post = box(13, 13, 20);
    expect(grams(post)).toBeCloseTo(grams(post, { islandProbe: 0 }), 9);
  });
});

describe("skins grow into the infill beside them", () => {
  // a 40 x 40 x 10 mm base with a 10 x 40 x 10 mm ridge on top: two inner corners 40 mm long at z = 10
  const ridge = prismXZ(
    [
      [0, 0],
      [40, 0],
      [40, 10],
      [25, 10],
      [25, 20],
      [15, 20],
      [15, 10],
      [0, 10],
    ],
    [
      [0, 1, 2],
      [0, 2, 3],
      [0, 3, 6],
      [0, 6, 7],
      [6, 3, 4],
      [6, 4, 5],
    ],
    40,
  );

  it("adds the margin along the inner corners to the three skin layers under the ledge", () => {
    expect(computeTopology(ridge).closed).toBe(true);
    const extra = grams(ridge) - grams(ridge, { skinMargin: 0 });
    // 80 mm of corner x 3 mm x 3 layers x 0.2 mm, less the sparse infill it replaces, at 1.24 g/cm3
    const expected =
      (80 * DEFAULT_CALIBRATION.skinMargin * 3 * 0.2 * (1 - 0.15 * DEFAULT_CALIBRATION.infillFactor) * 1.24) / 1000;
    expect(extra).toBeGreaterThan(expected * 0.8);
    expect(extra).toBeLessThan(expected * 1.2);
  });

  it("adds nothing to a plain box (its skins meet only outer edges)", () => {
    const cube = box(30, 30, 30);
    expect(grams(cube)).toBe(grams(cube, { skinMargin: 0 }));
  });
});

describe("meshes with a few stray open edges", () => {
  it("are still sliced, as the slicer repairs them", () => {
    const whole = sphere(20, 64, 128);
    const holed: Mesh = { ...whole, indices: (whole.indices as Uint32Array).slice(3), triangleCount: whole.triangleCount - 1 };
    const e = estimate(holed);
    expect(computeTopology(holed).openEdges).toBe(3);
    expect(e.sliced).toBe(true);
    expect(Math.abs(e.grams - grams(whole)) / grams(whole)).toBeLessThan(0.01);
  });

  it("fall back to the surface formula when many edges are open", () => {
    const cube = box(20, 20, 20);
    const open: Mesh = { ...cube, indices: (cube.indices as Uint32Array).slice(3), triangleCount: 11 };
    expect(estimate(open).sliced).toBe(false);
  });
});
