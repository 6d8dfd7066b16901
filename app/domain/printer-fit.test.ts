import { describe, expect, it } from "vitest";
import { fitsBuildVolume, isDesignCompatible, minVolumeFilter, type FitPrinter } from "./printer-fit";

describe("fitsBuildVolume", () => {
  const mk4 = { x: 250, y: 210, z: 220 };

  it.each([
    ["fits as modelled", { x: 200, y: 200, z: 200 }, true],
    ["exactly the volume", { x: 250, y: 210, z: 220 }, true],
    ["too tall standing, fits laid down", { x: 100, y: 100, z: 245 }, true],
    ["rotated about z", { x: 215, y: 249, z: 10 }, true],
    ["largest side too long for any axis", { x: 10, y: 10, z: 251 }, false],
    ["two sides longer than the middle axis", { x: 230, y: 230, z: 10 }, false],
    ["one millimetre over", { x: 251, y: 210, z: 220 }, false],
    ["no size given", { x: 0, y: 0, z: 0 }, true],
  ])("%s", (_name, part, expected) => {
    expect(fitsBuildVolume(part, mk4)).toBe(expected);
  });
});

describe("minVolumeFilter", () => {
  it("sorts the triple ascending and treats missing sizes as 0", () => {
    expect(minVolumeFilter(300, 10, 200)).toEqual([10, 200, 300]);
    expect(minVolumeFilter(null, 50, undefined)).toEqual([0, 0, 50]);
    expect(minVolumeFilter(-5, Number.NaN, 7)).toEqual([0, 0, 7]);
  });
});

describe("isDesignCompatible", () => {
  const p1s: FitPrinter = {
    buildVolumeX: 256,
    buildVolumeY: 256,
    buildVolumeZ: 256,
    materials: ["PLA", "PETG", "ABS"],
    inventory: [
      { material: "PLA", color: "Black", grams: 800 },
      { material: "PLA", color: "Red", grams: 120 },
      { material: "PETG", color: "White", grams: 0 },
    ],
  };

  it("accepts a design that fits, in a listed material and a stocked colour", () => {
    expect(
      isDesignCompatible(p1s, { material: "pla", color: "black", weightGrams: 300, minX: 100, minY: 250, minZ: 20 }),
    ).toEqual({
      compatible: true,
      reasons: [],
    });
  });

  it("accepts an empty design filter", () => {
    expect(isDesignCompatible(p1s, {}).compatible).toBe(true);
  });

  it("rejects a design that fits in no orientation", () => {
    const result = isDesignCompatible(p1s, { minX: 300, minY: 10, minZ: 10 });
    expect(result.compatible).toBe(false);
    expect(result.reasons[0]).toMatch(/does not fit the build volume/);
  });

  it("rejects a material the printer does not list", () => {
    const result = isDesignCompatible(p1s, { material: "TPU" });
    expect(result.compatible).toBe(false);
    expect(result.reasons).toContain("The printer does not print TPU");
  });

  it("rejects a colour with too little stock and says how much there is", () => {
    const result = isDesignCompatible(p1s, { material: "PLA", color: "Red", weightGrams: 200 });
    expect(result.compatible).toBe(false);
    expect(result.reasons).toEqual(["Only 120 g of Red PLA filament in stock; the design needs 200 g"]);
  });

  it("accepts exactly enough stock", () => {
    expect(isDesignCompatible(p1s, { material: "PLA", color: "Red", weightGrams: 120 }).compatible).toBe(true);
  });

  it("rejects a colour with an empty spool or no row", () => {
    expect(isDesignCompatible(p1s, { material: "PETG", color: "White" }).reasons).toEqual(["No White PETG filament in stock"]);
    expect(isDesignCompatible(p1s, { material: "PLA", color: "Blue" }).compatible).toBe(false);
  });

  it("does not count another material's stock of the same colour", () => {
    expect(isDesignCompatible(p1s, { material: "ABS", color: "Black", weightGrams: 10 }).compatible).toBe(false);
  });

  it("with no colour, any one stocked colour of the material holding the weight counts", () => {
    expect(isDesignCompatible(p1s, { material: "PLA", weightGrams: 500 }).compatible).toBe(true);
    expect(isDesignCompatible(p1s, { material: "PLA", weightGrams: 900 }).compatible).toBe(false);
    expect(isDesignCompatible(p1s, { material: "PETG" }).compatible).toBe(false);
  });

  it("with a colour but no material, any material in that colour counts", () => {
    expect(isDesignCompatible(p1s, { color: "Red", weightGrams: 100 }).compatible).toBe(true);
    expect(isDesignCompatible(p1s, { color: "Green" }).compatible).toBe(false);
  });

  describe("a printer with no inventory rows", () => {
    const bare: FitPrinter = { buildVolumeX: 220, buildVolumeY: 220, buildVolumeZ: 250, materials: ["PLA"] };

    it("is not compatible when a colour is asked", () => {
      const result = isDesignCompatible(bare, { material: "PLA", color: "Black" });
      expect(result.compatible).toBe(false);
      expect(result.reasons[0]).toMatch(/no filament inventory/);
    });

    it("is judged on its materials list when no colour is asked", () => {
      expect(isDesignCompatible(bare, { material: "PLA", weightGrams: 100 }).compatible).toBe(true);
      expect(isDesignCompatible({ ...bare, inventory: [] }, { material: "pla" }).compatible).toBe(true);
    });
  });

  it("collects every reason", () => {
    const result = isDesignCompatible(p1s, { material: "Nylon", color: "Green", minX: 400 });
    expect(result.reasons).toHaveLength(3);
  });

  it("rejects a sized design when the printer has no build volume", () => {
    const unknown: FitPrinter = { buildVolumeX: null, buildVolumeY: null, buildVolumeZ: null, materials: ["PLA"] };
    expect(isDesignCompatible(unknown, { minX: 10 }).compatible).toBe(false);
    expect(isDesignCompatible(unknown, { material: "PLA" }).compatible).toBe(true);
  });
});
