import { describe, expect, it } from "vitest";
import {
  CATALOGUE_LICENSES,
  fileFormatFromName,
  licenseAllowsCommercialPrinting,
  normalizeLicense,
  type CatalogueLicense,
} from "./types";

describe("normalizeLicense", () => {
  // Thingiverse's licence names as the API spells them, plus short and loose spellings.
  const table: [string | null | undefined, CatalogueLicense][] = [
    ["Creative Commons - Attribution", "CC BY"],
    ["Creative Commons - Attribution - Share Alike", "CC BY-SA"],
    ["Creative Commons - Attribution - No Derivatives", "CC BY-ND"],
    ["Creative Commons - Attribution - Non-Commercial", "CC BY-NC"],
    ["Creative Commons - Attribution - Non-Commercial - Share Alike", "CC BY-NC-SA"],
    ["Creative Commons - Attribution - Non-Commercial - No Derivatives", "CC BY-NC-ND"],
    ["Attribution - Non-Commercial - Share Alike", "CC BY-NC-SA"],
    ["Creative Commons - Public Domain Dedication", "CC0"],
    ["Public Domain", "CC0"],
    ["GNU - GPL", "GPL"],
    ["GPL v3", "GPL"],
    ["GNU General Public License v3.0", "GPL"],
    ["GNU - LGPL", "Other"],
    ["BSD License", "Other"],
    ["All Rights Reserved", "Other"],
    ["CC-BY-4.0", "CC BY"],
    ["CC BY-SA 4.0", "CC BY-SA"],
    ["cc by-nc-sa 3.0", "CC BY-NC-SA"],
    ["CC-BY-NC-ND-4.0", "CC BY-NC-ND"],
    ["CC BY NonCommercial", "CC BY-NC"],
    ["CC0 1.0 Universal", "CC0"],
    ["cc0", "CC0"],
    ["Creative Commons", "Other"],
    ["", "Other"],
    ["   ", "Other"],
    [null, "Other"],
    [undefined, "Other"],
  ];
  it.each(table)("%j → %s", (raw, expected) => {
    expect(normalizeLicense(raw)).toBe(expected);
  });

  it("is idempotent on our own values", () => {
    for (const value of CATALOGUE_LICENSES) expect(normalizeLicense(value)).toBe(value);
  });
});

describe("licenseAllowsCommercialPrinting", () => {
  it.each([
    "CC BY-NC",
    "CC BY-NC-SA",
    "CC BY-NC-ND",
    "Creative Commons - Attribution - Non-Commercial",
    "Creative Commons - Attribution - Non-Commercial - Share Alike",
    "Creative Commons - Attribution - Non-Commercial - No Derivatives",
    "Attribution-NonCommercial 4.0 International",
    "All Rights Reserved",
    "Personal use only",
    "Free for non commercial use",
    "Not for resale",
    "Other",
    "Some licence we have never seen",
    "Creative Commons",
    "",
    null,
    undefined,
  ])("refuses %j", (license) => {
    expect(licenseAllowsCommercialPrinting(license)).toBe(false);
  });

  it.each([
    "CC BY",
    "CC BY-SA",
    "CC BY-ND",
    "CC0",
    "GPL",
    "Creative Commons - Attribution",
    "Creative Commons - Attribution - Share Alike",
    "Creative Commons - Attribution - No Derivatives",
    "Creative Commons - Public Domain Dedication",
    "GNU - GPL",
    "GNU - LGPL",
    "BSD License",
  ])("allows %j", (license) => {
    expect(licenseAllowsCommercialPrinting(license)).toBe(true);
  });

  it("agrees with normalizeLicense for every NC value", () => {
    for (const value of CATALOGUE_LICENSES) {
      if (value.includes("NC")) expect(licenseAllowsCommercialPrinting(value)).toBe(false);
    }
  });
});

describe("fileFormatFromName", () => {
  it.each([
    ["part.stl", "stl"],
    ["PART.STL", "stl"],
    ["pot_90mm.obj", "obj"],
    ["plate.3mf", "3mf"],
    ["cable_clip.scad", "other"],
    ["README.txt", "other"],
    ["archive.stl.zip", "other"],
    ["no-extension", "other"],
  ] as const)("%s → %s", (name, format) => {
    expect(fileFormatFromName(name)).toBe(format);
  });
});
