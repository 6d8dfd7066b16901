// Small files that cost far more than their size: the engine bounds the work itself and refuses or degrades.
// The assertions are on work counters, not on wall-clock time, so they hold on a loaded machine.

import { describe, expect, it } from "vitest";
import { parse3mf } from "./threemf";
import { MAX_COMPONENT_INSTANCES, MAX_INSTANCED_TRIANGLES } from "./threemf-build";
import { renderPreview, PREVIEW_PIXEL_BUDGET_PER_PIXEL } from "./preview";
import { estimatePrint, sliceBudget, MAX_SLICED_LAYERS } from "./estimate";
import { computeBasicMetrics } from "./metrics";
import { computeTopology } from "./topology";
import { parseStl } from "./stl";
import { MeshError } from "./errors";
import { sphere, toBinaryStl, threeMfModelXml } from "./generate";
import { cubeObjectXml, modelXml, package3mf } from "./test-helpers";
import type { Mesh } from "./types";

async function refusal(p: Promise<unknown>): Promise<MeshError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MeshError) return e;
    throw e;
  }
  throw new Error("expected a MeshError");
}

/** Objects 2..depth+1 each hold `fan` components of the next; the last one is `leaf` (or empty). */
function nestedComponents(fan: number, depth: number, leaf: string): string {
  let xml = leaf;
  for (let d = depth; d >= 1; d--) {
    const child = d + 1;
    const comps = Array.from(
      { length: fan },
      (_, k) => `<component objectid="${child}" transform="1 0 0 0 1 0 0 0 1 ${k * 12} 0 0"/>`,
    );
    xml += `<object id="${d}" type="model"><components>${comps.join("")}</components></object>`;
  }
  return xml;
}

/** The same triangle `count` times, as a binary STL (what a hostile upload would send). */
function repeatedTriangleStl(count: number, corners: number[]): Mesh {
  const positions = new Float32Array(9 * count);
  const indices = new Uint32Array(3 * count);
  for (let t = 0; t < count; t++) {
    positions.set(corners, 9 * t);
    indices.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
  }
  return parseStl(toBinaryStl({ positions, indices, triangleCount: count, format: "stl", numberOfColors: 1 }));
}

const SETTINGS = { layerHeight: 0.2, infill: 15, density: 1.24, supports: "auto" } as const;

describe("3MF component expansion is bounded", () => {
  it("refuses a 1 KB file of empty components ten wide and 24 deep instead of walking 10^24 placements", async () => {
    const bytes = package3mf(
      modelXml(nestedComponents(10, 24, '<object id="25" type="model"><components/></object>'), '<item objectid="1"/>'),
    );
    expect(bytes.length).toBeLessThan(4096);
    const e = await refusal(parse3mf(bytes));
    expect(e.code).toBe("too-many-triangles");
    expect(e.message).toMatch(/places its objects and components too many times/);
  });

  it("still reads honest nesting: 10 x 10 x 10 x 10 placements of a cube", async () => {
    const mesh = await parse3mf(package3mf(modelXml(nestedComponents(10, 4, cubeObjectXml(5)), '<item objectid="1"/>')));
    expect(10_000).toBeLessThan(MAX_COMPONENT_INSTANCES);
    expect(mesh.triangleCount).toBe(10_000 * 12);
  });

  it("refuses copies that add more triangles than the file stores by MAX_INSTANCED_TRIANGLES", async () => {
    const part = sphere(5, 50, 100); // 9,800 triangles
    const object = threeMfModelXml([{ mesh: part }]).match(/<object[\s\S]*<\/object>/)?.[0] ?? "";
    const copies = Math.ceil(MAX_INSTANCED_TRIANGLES / part.triangleCount) + 2;
    const items = (n: number): string =>
      Array.from({ length: n }, (_, k) => `<item objectid="1" transform="1 0 0 0 1 0 0 0 1 ${k * 11} 0 0"/>`).join("");
    const e = await refusal(parse3mf(package3mf(modelXml(object, items(copies)))));
    expect(e.code).toBe("too-many-triangles");
    // a plate of a hundred copies stays readable
    const plate = await parse3mf(package3mf(modelXml(object, items(100))));
    expect(plate.triangleCount).toBe(100 * part.triangleCount);
  });
});

describe("preview work is bounded by a pixel budget", () => {
  const W = 320;
  const H = 240;

  it("draws 50,000 identical frame-filling triangles (a 2.5 MB STL) within the budget", () => {
    const mesh = repeatedTriangleStl(50_000, [0, 0, 0, 100, 0, 0, 0, 100, 60]);
    const r = renderPreview(mesh, { width: W, height: H });
    expect(r.pixelsTested).toBeLessThanOrEqual(PREVIEW_PIXEL_BUDGET_PER_PIXEL * W * H);
    // without the budget this would have been about 50,000 x the triangle's box
    expect(r.degradedTriangles).toBeGreaterThan(49_000);
    expect(r.png.length).toBeGreaterThan(100);
  });

  it("spends the full budget on nothing honest: a 20k-triangle sphere is drawn whole", () => {
    const r = renderPreview(sphere(20, 100, 100), { width: W, height: H });
    expect(r.degradedTriangles).toBe(0);
    expect(r.pixelsTested).toBeGreaterThan(W * H * 0.2);
    expect(r.pixelsTested).toBeLessThan(PREVIEW_PIXEL_BUDGET_PER_PIXEL * W * H * 0.25);
  });
});

describe("slicing work is bounded by a step budget", () => {
  const estimate = (mesh: Mesh): ReturnType<typeof estimatePrint> =>
    estimatePrint(computeTopology(mesh), computeBasicMetrics(mesh), SETTINGS);

  it("estimates 20,000 triangles ten metres tall (1 MB) from the surface instead of 10^9 layer crossings", () => {
    const mesh = repeatedTriangleStl(20_000, [0, 0, 0, 100, 0, 10_000, 0, 100, 5_000]);
    const e = estimate(mesh);
    expect(e.sliced).toBe(false);
    expect(e.sliceWork).toBeLessThanOrEqual(sliceBudget(mesh.triangleCount));
    expect(Number.isFinite(e.grams)).toBe(true);
  });

  it("does not even allocate layers for a model a kilometre tall", () => {
    const mesh = repeatedTriangleStl(10, [0, 0, 0, 100, 0, 1e6, 0, 100, 5e5]);
    const e = estimate(mesh);
    expect(e.layers).toBeGreaterThan(MAX_SLICED_LAYERS);
    expect(e.sliced).toBe(false);
    expect(e.sliceWork).toBe(0);
  });

  it("slices an honest sphere well inside the budget", () => {
    const mesh = sphere(30, 64, 128);
    const e = estimate(mesh);
    expect(e.sliced).toBe(true);
    expect(e.sliceWork).toBeGreaterThan(0);
    expect(e.sliceWork).toBeLessThan(sliceBudget(mesh.triangleCount) / 10);
  });
});
