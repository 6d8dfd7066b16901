import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { isAppError } from "./app-error";
import {
  AddPrinterSchema,
  applyModelPreset,
  applyModelPresetToJson,
  checkStockMaterials,
  modelPreset,
  placementAfterEdit,
  PrinterUpdateSchema,
  QuickAddPrinterSchema,
  quickPrinterValues,
  storedModelName,
} from "./printer-form";
import { pricePerGramFromSpool } from "./pricing";

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

describe("the quick add-printer form", () => {
  it.each([
    ["24.99", 1000, "0.0250"],
    ["20", 750, "0.0267"],
    ["19.99", 500, "0.0400"],
    ["$12.50", 250, "0.0500"],
    ["25", 1000, "0.0250"],
  ])("%s for a %i g spool is %s per gram", (cost, grams, price) => {
    expect(pricePerGramFromSpool(cost, grams)).toBe(price);
  });

  it("uses the document's messages", () => {
    const result = parseWithZod(form([]), { schema: QuickAddPrinterSchema });
    expect(result.reply().error).toEqual({
      model: ["Please select a printer model"],
      materials: ["Please select at least one material"],
      filamentCost: ["Please enter filament cost and weight"],
      spoolWeight: ["Please enter filament cost and weight"],
      street: ["Please enter complete address information"],
      city: ["Please enter complete address information"],
      state: ["Please enter complete address information"],
      zip: ["Please enter complete address information"],
    });
  });

  const complete: [string, string][] = [
    ["model", "Prusa MK4"],
    ["materials", "PLA"],
    ["materials", "PETG"],
    ["filamentCost", "24.99"],
    ["spoolWeight", "1000"],
    ["street", "120 E 4th St"],
    ["city", "Loveland"],
    ["state", "co"],
    ["zip", "80537"],
  ];
  const replaced = (key: string, value: string) => form(complete.map(([k, v]) => [k, k === key ? value : v]));

  it("gives the full form's values: the model's name and volume, the spool's price, the address as the location", () => {
    const result = parseWithZod(form(complete), { schema: QuickAddPrinterSchema });
    if (result.status !== "success") throw new Error("expected success");
    expect(quickPrinterValues(result.value)).toEqual({
      name: "Prusa MK4",
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      materials: ["PLA", "PETG"],
      pricePerGram: "0.0250",
      location: "120 E 4th St, Loveland, CO 80537",
      isAvailable: true,
    });
  });

  it.each([
    ["model", "Custom/Other", "model", "Please select a printer model"],
    ["spoolWeight", "600", "spoolWeight", "Choose a spool of 1000, 750, 500 or 250 g"],
    ["state", "Colorado", "state", "Use at most 2 characters"],
    ["state", "C0", "state", "Use the state's 2-letter code, like CO"],
    ["zip", "805", "zip", "Enter the 5-digit ZIP code"],
    ["zip", "805370", "zip", "Use at most 5 characters"],
    ["filamentCost", "cheap", "filamentCost", "Enter the spool's cost in dollars, like 24.99"],
    ["filamentCost", "5", "filamentCost", "Price per gram must be at least $0.01"],
  ])("refuses %s %j", (key, value, field, message) => {
    const result = parseWithZod(replaced(key, value), { schema: QuickAddPrinterSchema });
    expect(result.reply().error?.[field]?.[0]).toBe(message);
  });
});

describe("storedModelName", () => {
  it("stores the catalogue spelling, or the owner's name for Custom/Other", () => {
    expect(storedModelName("prusa mk4")).toBe("Prusa MK4");
    expect(storedModelName("Custom/Other", " Voron 2.4 ")).toBe("Voron 2.4");
    expect(storedModelName("Custom/Other", "")).toBe("Custom/Other");
  });
});

describe("applyModelPresetToJson (the API's half)", () => {
  it("locks a known model's volume and fills a body without volumes, as the form does", () => {
    expect(applyModelPresetToJson({ model: "prusa mk4", buildVolumeX: 999, materials: ["PLA"] })).toMatchObject({
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      materials: ["PLA"],
    });
    expect(applyModelPresetToJson({ model: "Prusa MK4" })).toMatchObject({
      pricePerGram: "0.18",
      materials: expect.arrayContaining(["PETG"]),
    });
    const custom = { model: "Custom/Other", buildVolumeX: 10 };
    expect(applyModelPresetToJson(custom)).toBe(custom);
  });
});

describe("placementAfterEdit", () => {
  const current = { location: "Loveland, CO", latitude: 40.39, longitude: -105.07 };

  it("changes nothing when neither the location nor the coordinates were sent", () => {
    expect(placementAfterEdit(current, {})).toBeNull();
  });

  it("places a new location from its text, and uses new coordinates as given", () => {
    expect(placementAfterEdit(current, { location: "Berthoud, CO" })).toEqual({ location: "Berthoud, CO", coordinates: null });
    expect(placementAfterEdit(current, { latitude: 40.3, longitude: -105.1 })).toEqual({
      location: "Loveland, CO",
      coordinates: { latitude: 40.3, longitude: -105.1 },
    });
  });

  it("places a changed location sent with the old coordinates from its text", () => {
    expect(placementAfterEdit(current, { location: "Berthoud, CO", latitude: 40.39, longitude: -105.07 })).toEqual({
      location: "Berthoud, CO",
      coordinates: null,
    });
    expect(placementAfterEdit(current, { location: "Loveland, CO", latitude: 40.39, longitude: -105.07 })?.coordinates).toEqual({
      latitude: 40.39,
      longitude: -105.07,
    });
  });
});

describe("checkStockMaterials", () => {
  it("refuses stock in a material the printer does not offer, naming it", () => {
    expect(() => checkStockMaterials(["PLA"], [{ material: "PLA" }])).not.toThrow();
    let caught: unknown;
    try {
      checkStockMaterials(["PLA"], [{ material: "PLA" }, { material: "PETG" }]);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught) && caught.code).toBe("invalid");
    expect((caught as Error).message).toBe("This printer doesn't offer PETG. Add it to the printer's materials first.");
  });
});

describe("PrinterUpdateSchema", () => {
  it("wants both coordinates or none, and each stock row once", () => {
    const half = PrinterUpdateSchema.safeParse({ latitude: 40 });
    expect(half.success).toBe(false);
    expect(half.error?.flatten().fieldErrors.longitude).toEqual(["Give both latitude and longitude, or leave both blank"]);
    const twice = PrinterUpdateSchema.safeParse({
      filamentInventory: [
        { material: "PLA", color: "Red", grams: 1 },
        { material: "PLA", color: "Red", grams: 2 },
      ],
    });
    expect(twice.error?.flatten().fieldErrors.filamentInventory).toEqual(["Red PLA is listed twice"]);
  });
});

describe("price per gram", () => {
  const settings = (pricePerGram: string) =>
    PrinterUpdateSchema.safeParse({ pricePerGram }).error?.flatten().fieldErrors.pricePerGram?.[0] ?? null;

  it.each([
    ["0.01", null],
    ["0.0125", null],
    ["0.12", null],
    ["$1.50", null],
    ["10", null],
    ["0.0000001", "Use at most 4 decimals for the price per gram"],
    ["0", "Price per gram must be at least $0.01"],
    ["0.009", "Price per gram must be at least $0.01"],
    ["-1", "Price per gram must be at least $0.01"],
    ["10.01", "Price per gram can be at most $10.00"],
    ["twelve", "Enter the price in dollars per gram, like 0.12"],
  ])("%s → %s", (price, message) => {
    expect(settings(price)).toBe(message);
  });
});
