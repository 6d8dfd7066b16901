import { describe, expect, it } from "vitest";
import type { DesignAnalysis } from "./design-settings";
import { orderFigures, scaleFactor, unitHint, unitHintText } from "./design-scale";
import { analyzeMesh } from "./mesh";
import { box, toBinaryStl } from "./mesh/generate";
import { parseStl } from "./mesh/stl";

const mesh = (size: { x: number; y: number; z: number }, format: "stl" | "3mf" = "stl"): DesignAnalysis => ({
  method: "mesh",
  estimatedWeight: 2,
  estimatedTimeMinutes: 10,
  numberOfColors: 1,
  boundingBox: size,
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

  it("measures the part at its real size: a 2 x 1 x 0.5 inch bracket is the 50.8 x 25.4 x 12.7 mm one", async () => {
    const inches = parseStl(toBinaryStl(box(2, 1, 0.5)));
    const millimetres = parseStl(toBinaryStl(box(50.8, 25.4, 12.7)));
    const scaled = analyzeMesh(inches, { material: "PETG", scale: 25.4 });
    const drawn = analyzeMesh(millimetres, { material: "PETG" });
    expect(scaled.boundingBox).toEqual(drawn.boundingBox);
    expect(scaled.estimatedWeight).toBe(drawn.estimatedWeight);
    expect(scaled.estimatedTimeMinutes).toBe(drawn.estimatedTimeMinutes);
    // read as millimetres it would weigh next to nothing
    expect(analyzeMesh(inches, { material: "PETG" }).estimatedWeight).toBeLessThan(0.1);
  });

  it("multiplies weight and time by the copies", () => {
    const figures = orderFigures(mesh({ x: 10, y: 10, z: 10 }), 3);
    expect(figures).toMatchObject({ weightGrams: 6, printTimeMinutes: 30, box: { x: 10, y: 10, z: 10 } });
  });

  it("suggests inches for a part under 3 mm across and millimetres for one over a metre", () => {
    const small = unitHint(mesh({ x: 2, y: 1, z: 0.5 }), { units: "mm", scalePercent: 100 });
    expect(small).toMatchObject({ tooSmall: true, suggested: "inch" });
    expect(unitHintText(small!, "mm")).toBe(
      "In millimetres this part is 2 mm across. Is it drawn in inches? Then it is 50.8 mm across.",
    );
    // measured at 25.4 mm a unit, the file's numbers are 60 across: 1524 mm
    expect(unitHint(mesh({ x: 1524, y: 254, z: 254 }), { units: "inch", scalePercent: 100 })).toMatchObject({
      tooSmall: false,
      suggested: "mm",
    });
    // a scale is the customer's choice, not a sign of the wrong unit
    expect(unitHint(mesh({ x: 120, y: 10, z: 10 }), { units: "mm", scalePercent: 1000 })).toBeNull();
    expect(unitHint(mesh({ x: 60, y: 10, z: 10 }), { units: "mm", scalePercent: 100 })).toBeNull();
    expect(unitHint(mesh({ x: 2, y: 1, z: 1 }, "3mf"), { units: "mm", scalePercent: 100 })).toBeNull();
  });
});
