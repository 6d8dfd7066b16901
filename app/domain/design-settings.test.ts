import { getTableConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { printJobs } from "../../db/schema";
import {
  DELIVERY_OPTIONS,
  DESIGN_EXTENSIONS,
  DesignSettingsSchema,
  extensionAllowed,
  flattenPrintSettings,
  qualityForLayerHeight,
  SUPPORT_OPTIONS,
} from "./design-settings";
import { MESH_FORMATS, SUPPORT_MODES } from "./mesh/types";
import { DELIVERY_METHODS } from "./pricing";

describe("design settings vocabulary", () => {
  it("offers exactly the supports modes and delivery methods the database stores", () => {
    const columns = getTableConfig(printJobs).columns;
    const enumOf = (name: string) => (columns.find((c) => c.name === name) as { enumValues?: string[] }).enumValues;
    expect(enumOf("supports")).toEqual([...SUPPORT_MODES]);
    expect(enumOf("delivery_method")).toEqual([...DELIVERY_METHODS]);
    expect(SUPPORT_OPTIONS.map((o) => o.value)).toEqual([...SUPPORT_MODES]);
    expect(DELIVERY_OPTIONS.map((o) => o.value)).toEqual([...DELIVERY_METHODS]);
  });

  it("takes one extension per printable format, in any case", () => {
    expect(DESIGN_EXTENSIONS).toEqual(MESH_FORMATS.map((f) => `.${f}`));
    for (const name of ["a.stl", "B.OBJ", " c.3mf "]) expect(extensionAllowed(name)).toBe(true);
    for (const name of ["a.step", "stl", "a.stl.png"]) expect(extensionAllowed(name)).toBe(false);
  });

  it("names layer heights with the quality presets", () => {
    expect([0.1, 0.15, 0.2, 0.25, 0.3].map(qualityForLayerHeight)).toEqual(["fine", "fine", "normal", "draft", "draft"]);
  });

  it("reads the API's printSettings JSON, flat fields winning", () => {
    const fields = new FormData();
    fields.set("infill", "30");
    fields.set("printSettings", JSON.stringify({ quality: "draft", infill: 50, supports: false, numberOfColors: 2 }));
    const parsed = DesignSettingsSchema.parse(
      Object.fromEntries(
        [...flattenPrintSettings(fields).entries()]
          .filter(([k]) => k !== "printSettings")
          .map(([k, v]) => [k, k === "supports" ? v : Number(v)]),
      ),
    );
    expect(parsed).toMatchObject({ infill: 30, layerHeight: 0.3, supports: "no", numberOfColors: 2 });
  });
});
