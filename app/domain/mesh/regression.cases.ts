// Shapes and settings whose estimates regression.test.ts pins, so performance work cannot shift a calibrated figure.

import { box, cone, cup, cylinder, gridSlab, merge, sphere, to3mf, toAsciiStl, toBinaryStl, toObj, torus } from "./generate";
import type { AnalysisOptions, Mesh } from "./types";

export interface RegressionCase {
  name: string;
  mesh: Mesh;
  options: AnalysisOptions;
}

function openBox(): Mesh {
  const m = box(10, 10, 10);
  return { ...m, indices: (m.indices as Uint32Array).slice(3), triangleCount: 11 };
}

/** The figures were calibrated at 15% infill; cases that name no infill keep it, whatever the platform default. */
export function regressionCases(): RegressionCase[] {
  return pinned().map((c) => ({ ...c, options: { infill: 15, ...c.options } }));
}

function pinned(): RegressionCase[] {
  return [
    { name: "cube 20", mesh: box(20, 20, 20), options: { supports: "no" } },
    { name: "sphere r50", mesh: sphere(50, 111, 180), options: { supports: "no" } },
    { name: "sphere r20 fine layers", mesh: sphere(20, 40, 80), options: { layerHeight: 0.1, infill: 40 } },
    { name: "torus", mesh: torus(30, 5, 96, 48), options: { supports: "auto", material: "PETG" } },
    { name: "cone supports yes", mesh: cone(15, 30, 64), options: { supports: "yes", layerHeight: 0.3 } },
    { name: "cup", mesh: cup(20, 2, 30, 3, 48), options: { infill: 0 } },
    {
      name: "hollow box",
      mesh: merge({ mesh: box(10, 10, 10) }, { mesh: box(6, 6, 6, 2, 2, 2, true) }),
      options: { infill: 100 },
    },
    {
      name: "T shape auto supports",
      mesh: merge({ mesh: box(10, 10, 30, 25, 25, 0) }, { mesh: box(60, 60, 3, 0, 0, 30) }),
      options: { supports: "auto" },
    },
    {
      name: "three bodies",
      mesh: merge(
        { mesh: box(5, 5, 5) },
        { mesh: cylinder(3, 10, 24), at: [20, 0, 0] },
        { mesh: sphere(4, 12, 24), at: [40, 0, 0] },
      ),
      options: { supports: "auto" },
    },
    { name: "grid slab 60", mesh: gridSlab(60), options: { supports: "no" } },
    { name: "open box", mesh: openBox(), options: {} },
  ];
}

export const FORMATS = [
  { file: "m.stl", write: (m: Mesh): Uint8Array => toBinaryStl(m) },
  { file: "m.ascii.stl", write: (m: Mesh): Uint8Array => toAsciiStl(m) },
  { file: "m.obj", write: (m: Mesh): Uint8Array => toObj(m) },
  { file: "m.3mf", write: (m: Mesh): Uint8Array => to3mf(m) },
] as const;
