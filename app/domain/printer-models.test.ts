import { describe, expect, it } from "vitest";
import { PRINTER_MATERIALS } from "./materials";
import { CUSTOM_PRINTER_MODEL_NAME, PRINTER_MODELS, findPrinterModel } from "./printer-models";

describe("printer model catalogue", () => {
  it.each([
    ["Bambu Lab P1S", 256, 256, 256],
    ["Bambu Lab A1 mini", 180, 180, 180],
    ["Prusa MK4", 250, 210, 220],
    ["Creality Ender 3 V2", 220, 220, 250],
    ["Creality Ender 3 S1", 220, 220, 270],
    ["Anycubic Kobra 2", 220, 220, 250],
    ["Qidi X-Max 3", 325, 325, 315],
    ["Elegoo Neptune 4", 225, 225, 265],
  ])("%s is %i × %i × %i mm", (name, x, y, z) => {
    expect(findPrinterModel(name)?.buildVolume).toEqual({ x, y, z });
  });

  it("lists the eight presets then Custom/Other", () => {
    expect(PRINTER_MODELS).toHaveLength(9);
    expect(PRINTER_MODELS[PRINTER_MODELS.length - 1]!.name).toBe(CUSTOM_PRINTER_MODEL_NAME);
    const custom = findPrinterModel("Custom/Other")!;
    expect(custom.buildVolume).toBeNull();
    expect(custom.suggestedPricePerGramCents).toBeNull();
  });

  it("gives each preset an image path, printer materials and a 10-35 ¢/g price", () => {
    const slugs = new Set<string>();
    for (const model of PRINTER_MODELS) {
      expect(model.imagePath).toBe(`/printer-models/${model.slug}.svg`);
      expect(model.slug).toMatch(/^[a-z0-9-]+$/);
      slugs.add(model.slug);
      expect(model.defaultMaterials.length).toBeGreaterThan(0);
      expect(model.defaultMaterials).toContain("PLA");
      for (const material of model.defaultMaterials) expect(PRINTER_MATERIALS).toContain(material);
      if (model.name !== CUSTOM_PRINTER_MODEL_NAME) {
        expect(Number.isInteger(model.suggestedPricePerGramCents)).toBe(true);
        expect(model.suggestedPricePerGramCents).toBeGreaterThanOrEqual(10);
        expect(model.suggestedPricePerGramCents).toBeLessThanOrEqual(35);
      }
    }
    expect(slugs.size).toBe(PRINTER_MODELS.length);
  });

  it("offers ABS and ASA on the enclosed machines only", () => {
    for (const name of ["Bambu Lab P1S", "Qidi X-Max 3"]) {
      expect(findPrinterModel(name)!.defaultMaterials).toEqual(expect.arrayContaining(["ABS", "ASA"]));
    }
    for (const name of ["Bambu Lab A1 mini", "Creality Ender 3 V2", "Elegoo Neptune 4"]) {
      expect(findPrinterModel(name)!.defaultMaterials).not.toContain("ABS");
    }
  });

  it("finds models regardless of case and punctuation, or by slug", () => {
    expect(findPrinterModel("prusa mk4")?.name).toBe("Prusa MK4");
    expect(findPrinterModel("  BAMBU LAB A1 MINI ")?.name).toBe("Bambu Lab A1 mini");
    expect(findPrinterModel("qidi-x-max-3")?.name).toBe("Qidi X-Max 3");
    expect(findPrinterModel("Creality Ender 3")).toBeUndefined();
    expect(findPrinterModel("")).toBeUndefined();
    expect(findPrinterModel(null)).toBeUndefined();
  });

  it("cannot be mutated by a caller", () => {
    const model = findPrinterModel("Prusa MK4")!;
    expect(() => {
      (model.buildVolume as { x: number }).x = 1;
    }).toThrow(TypeError);
  });
});
