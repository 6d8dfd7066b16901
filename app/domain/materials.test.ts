import { describe, expect, it } from "vitest";
import { COLOR_NAMES, colorChoices } from "./materials";

describe("colour swatches on the submit page", () => {
  it.each(COLOR_NAMES)("a printer stocking only %s offers it, selected", (color) => {
    const { swatches, color: chosen } = colorChoices([color]);
    expect(chosen).toBe(color);
    expect(swatches.filter((s) => s.available).map((s) => s.name)).toEqual([color]);
  });

  it("draws the whole palette, Natural and Clear included", () => {
    expect(colorChoices([]).swatches.map((s) => s.name)).toEqual([...COLOR_NAMES]);
    expect(COLOR_NAMES).toEqual(expect.arrayContaining(["Natural", "Clear"]));
  });

  it("keeps an asked-for colour only when it is stocked, else the first stocked one", () => {
    expect(colorChoices(["Natural", "Black"], "Black").color).toBe("Black");
    expect(colorChoices(["Natural", "Black"], "Red").color).toBe("Natural");
    expect(colorChoices([], "Red").color).toBeNull();
  });
});
