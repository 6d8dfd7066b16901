import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { AddPrinterSchema, applyModelPreset, modelPreset, storedModelName } from "./printer-form";

function form(fields: [string, string][]): FormData {
  const data = new FormData();
  for (const [key, value] of fields) data.append(key, value);
  return data;
}

describe("modelPreset", () => {
  it("fills a known model's volume, suggested price and default materials", () => {
    expect(modelPreset("Prusa MK4")).toEqual({
      buildVolumeX: "250",
      buildVolumeY: "210",
      buildVolumeZ: "220",
      pricePerGram: "0.18",
      materials: ["PLA", "PETG", "TPU", "Wood Fill", "Carbon Fiber"],
    });
    expect(modelPreset("bambu-lab-a1-mini")).toMatchObject({ buildVolumeX: "180", pricePerGram: "0.12" });
  });

  it("has nothing for Custom/Other or an unknown name", () => {
    expect(modelPreset("Custom/Other")).toBeNull();
    expect(modelPreset("Voron 2.4")).toBeNull();
    expect(modelPreset("")).toBeNull();
  });
});

describe("applyModelPreset (the server's half, for forms posted without JavaScript)", () => {
  it("fills volume, price and materials when the volume was left blank", () => {
    const next = applyModelPreset(
      form([
        ["name", "P"],
        ["model", "qidi x-max 3"],
        ["buildVolumeX", ""],
        ["pricePerGram", ""],
      ]),
    );
    expect(next.get("model")).toBe("Qidi X-Max 3");
    expect([next.get("buildVolumeX"), next.get("buildVolumeY"), next.get("buildVolumeZ")]).toEqual(["325", "325", "315"]);
    expect(next.get("pricePerGram")).toBe("0.25");
    expect(next.getAll("materials")).toContain("Nylon");
    expect(next.get("name")).toBe("P");
  });

  it("keeps the owner's price and materials, but never their volume, for a known model", () => {
    const next = applyModelPreset(
      form([
        ["model", "Prusa MK4"],
        ["buildVolumeX", "999"],
        ["buildVolumeY", "1"],
        ["buildVolumeZ", "5"],
        ["pricePerGram", ""],
        ["materials", "PLA"],
      ]),
    );
    expect([next.get("buildVolumeX"), next.get("buildVolumeY"), next.get("buildVolumeZ")]).toEqual(["250", "210", "220"]);
    // Posted with volumes means the page filled them: a cleared price stays cleared and is reported.
    expect(next.get("pricePerGram")).toBe("");
    expect(next.getAll("materials")).toEqual(["PLA"]);
  });

  it("leaves Custom/Other alone", () => {
    const original = form([
      ["model", "Custom/Other"],
      ["buildVolumeX", ""],
    ]);
    expect(applyModelPreset(original)).toBe(original);
  });
});

describe("AddPrinterSchema", () => {
  it("uses the document's messages", () => {
    const result = parseWithZod(form([["model", "Custom/Other"]]), { schema: AddPrinterSchema });
    expect(result.status).toBe("error");
    expect(result.reply().error).toMatchObject({
      name: ["Printer name is required"],
      location: ["Location is required"],
      buildVolumeX: ["Build volume X is required"],
      materials: ["At least one material is required"],
      pricePerGram: ["Price per gram is required"],
    });
  });

  it("accepts one material ticked, and wants both coordinates or none", () => {
    const base: [string, string][] = [
      ["name", "A"],
      ["model", "Custom/Other"],
      ["buildVolumeX", "100"],
      ["buildVolumeY", "100"],
      ["buildVolumeZ", "100"],
      ["location", "Loveland, CO"],
      ["pricePerGram", "0.1"],
      ["materials", "PLA"],
    ];
    expect(parseWithZod(form(base), { schema: AddPrinterSchema }).status).toBe("success");
    const half = parseWithZod(form([...base, ["latitude", "40.1"]]), { schema: AddPrinterSchema });
    expect(half.reply().error?.longitude).toEqual(["Give both latitude and longitude, or leave both blank"]);
    const price = parseWithZod(form(base.map(([k, v]) => [k, k === "pricePerGram" ? "twelve cents" : v])), {
      schema: AddPrinterSchema,
    });
    expect(price.reply().error?.pricePerGram?.[0]).toMatch(/dollars per gram/);
  });
});

describe("storedModelName", () => {
  it("stores the catalogue spelling, or the owner's name for Custom/Other", () => {
    expect(storedModelName("prusa mk4")).toBe("Prusa MK4");
    expect(storedModelName("Custom/Other", " Voron 2.4 ")).toBe("Voron 2.4");
    expect(storedModelName("Custom/Other", "")).toBe("Custom/Other");
  });
});
