// Features of the slicer the weight estimate models, each on a shape that isolates it.

import { describe, expect, it } from "vitest";
import { estimatePrint, DEFAULT_CALIBRATION, type Calibration } from "./estimate";
import { computeBasicMetrics, computeTopology } from "./metrics";
import { box } from "./generate";
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

const grams = (mesh: Mesh, cal: Partial<Calibration> = {}): number =>
  estimatePrint(
    computeTopology(mesh),
    computeBasicMetrics(mesh),
    { layerHeight: 0.2, infill: 15, density: 1.24, supports: "no" },
    { ...DEFAULT_CALIBRATION, ...cal },
  ).grams;

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
