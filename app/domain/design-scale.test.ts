import { describe, expect, it } from "vitest";
import type { DesignAnalysis } from "./design-settings";
import { orderFigures, scaleFactor, unitHint, unitHintText } from "./design-scale";

const mesh = (box: { x: number; y: number; z: number }, format: "stl" | "3mf" = "stl"): DesignAnalysis => ({
  method: "mesh",
  estimatedWeight: 2,
  estimatedTimeMinutes: 10,
  numberOfColors: 1,
  boundingBox: box,
  volume: 1000,
  surfaceArea: 600,
  infillDensity: 20,
  layerHeight: 0.2,
  printSpeed: 60,
  supportMaterial: false,
  supports: "auto",
  material: "PLA",
  fileFormat: format,
  triangles: 12,
  bodies: 1,
  closed: true,
  openEdges: 0,
});

describe("units and scale", () => {
  it("takes a file's numbers as its unit at its scale; a 3MF keeps its own unit", () => {
    expect(scaleFactor("stl", { units: "inch", scalePercent: 100 })).toBe(25.4);
    expect(scaleFactor("obj", { units: "cm", scalePercent: 50 })).toBe(5);
    expect(scaleFactor("3mf", { units: "inch", scalePercent: 200 })).toBe(2);
  });

  it("multiplies lengths by s and weight and time by s³, then by the copies", () => {
    const figures = orderFigures(mesh({ x: 10, y: 10, z: 10 }), { units: "mm", scalePercent: 200 }, 3);
    expect(figures.box).toEqual({ x: 20, y: 20, z: 20 });
    expect(figures.copy.estimatedWeight).toBe(16);
    expect(figures.copy.estimatedTimeMinutes).toBe(80);
    expect(figures.weightGrams).toBe(48);
    expect(figures.printTimeMinutes).toBe(240);
    if (figures.copy.method === "mesh") {
      expect(figures.copy.volume).toBe(8000);
      expect(figures.copy.surfaceArea).toBe(2400);
    }
  });

  it("leaves the engine's figures as they are at 100% in millimetres", () => {
    const analysis = mesh({ x: 10, y: 10, z: 10 });
    expect(orderFigures(analysis, { units: "mm", scalePercent: 100 }, 1)).toMatchObject({
      copy: analysis,
      weightGrams: 2,
      printTimeMinutes: 10,
    });
  });

  it("suggests inches for a part under 3 mm across and millimetres for one over a metre", () => {
    const small = unitHint(mesh({ x: 2, y: 1, z: 0.5 }), "mm");
    expect(small).toMatchObject({ tooSmall: true, suggested: "inch" });
    expect(unitHintText(small!, "mm")).toBe(
      "In millimetres this part is 2 mm across. Is it drawn in inches? Then it is 50.8 mm across.",
    );
    expect(unitHint(mesh({ x: 60, y: 10, z: 10 }), "inch")).toMatchObject({ tooSmall: false, suggested: "mm" });
    expect(unitHint(mesh({ x: 60, y: 10, z: 10 }), "mm")).toBeNull();
    expect(unitHint(mesh({ x: 2, y: 1, z: 1 }, "3mf"), "mm")).toBeNull();
  });
});
