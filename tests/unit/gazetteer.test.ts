import { describe, expect, it } from "vitest";
import { editDistance, lookupPlace, resolveLocation, suggestPlaces } from "~/services/gazetteer.server";

describe("the offline gazetteer with names as people type them", () => {
  it("measures edit distance, stopping early past the limit", () => {
    expect(editDistance("LOVLAND", "LOVELAND")).toBe(1);
    expect(editDistance("KITTEN", "SITTING")).toBe(3);
    expect(editDistance("ABC", "ABC")).toBe(0);
    expect(editDistance("A", "ABCDEFG", 2)).toBe(3);
  });

  it("resolves a bare city name that only one state has", () => {
    expect(resolveLocation("Berthoud")).toMatchObject({ city: "Berthoud", state: "CO", label: "Berthoud, CO" });
    expect(lookupPlace("Berthoud")).toMatchObject({ place: { label: "Berthoud, CO" }, choices: [], suggestions: [] });
  });

  it("offers one City, ST per state for a bare name several states share", () => {
    const { place, choices } = lookupPlace("Loveland");
    expect(place).toBeNull();
    expect(choices).toEqual(expect.arrayContaining(["Loveland, CO", "Loveland, OH"]));
    expect(new Set(choices).size).toBe(choices.length);
    for (const choice of choices) expect(resolveLocation(choice)?.label).toBe(choice);
  });

  it("suggests the nearest names for a misspelt city, within its state when one is given", () => {
    expect(lookupPlace("Fort Colins").suggestions[0]).toBe("Fort Collins, CO");
    expect(lookupPlace("Lovland, CO").suggestions).toEqual(["Loveland, CO"]);
    expect(lookupPlace("Lovland").suggestions).toEqual(expect.arrayContaining(["Loveland, CO", "Loveland, OH"]));
    expect(suggestPlaces("Denvr", "CO")).toEqual(["Denver, CO"]);
  });

  it("suggests nothing for gibberish, and answers quickly", () => {
    lookupPlace("Warm up");
    const started = performance.now();
    expect(lookupPlace("Qqqxzv")).toEqual({ place: null, choices: [], suggestions: [] });
    for (const name of ["Lovland", "Springfeld", "Fort Colins", "Bolder", "Sacramnto"]) lookupPlace(name);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
