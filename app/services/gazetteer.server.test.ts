import { describe, expect, it } from "vitest";
import { haversineMiles } from "~/domain/geo";
import { lookupZip, normalizeState, resolveLocation } from "./gazetteer.server";

describe("resolveLocation", () => {
  it("resolves 'Loveland, CO' to the city centre", () => {
    const place = resolveLocation("Loveland, CO");
    expect(place).toMatchObject({ city: "Loveland", state: "CO", label: "Loveland, CO" });
    expect(place!.zip).toMatch(/^805\d\d$/);
    expect(place!.latitude).toBeCloseTo(40.4, 1);
    expect(place!.longitude).toBeCloseTo(-105.08, 1);
  });

  it.each(["Berthoud CO", "berthoud, co", "Berthoud, Colorado", "Berthoud Colorado", "Berthoud, CO, USA"])(
    "resolves %j",
    (text) => {
      expect(resolveLocation(text)).toMatchObject({ city: "Berthoud", state: "CO", zip: "80513" });
    },
  );

  it("resolves 'Fort Collins, Colorado' and the 'Ft' abbreviation", () => {
    expect(resolveLocation("Fort Collins, Colorado")).toMatchObject({ city: "Fort Collins", state: "CO" });
    expect(resolveLocation("Ft. Collins CO")).toMatchObject({ city: "Fort Collins", state: "CO" });
  });

  it("resolves multi-word states", () => {
    expect(resolveLocation("Santa Fe New Mexico")).toMatchObject({ city: "Santa Fe", state: "NM" });
    expect(resolveLocation("Charleston, West Virginia")).toMatchObject({ state: "WV" });
  });

  it("resolves a ZIP and a ZIP+4", () => {
    expect(resolveLocation("80513")).toMatchObject({
      zip: "80513",
      city: "Berthoud",
      state: "CO",
      label: "Berthoud, CO 80513",
      latitude: 40.2993,
      longitude: -105.1055,
    });
    expect(resolveLocation(" 80537-1234 ")).toMatchObject({ zip: "80537", city: "Loveland" });
  });

  it("prefers the ZIP of a full address", () => {
    expect(resolveLocation("123 Main St, Loveland, CO 80537")).toMatchObject({ zip: "80537", city: "Loveland" });
    // A five-digit house number must not be taken for the ZIP.
    expect(resolveLocation("10500 Main St, Berthoud, CO 80513")).toMatchObject({ zip: "80513" });
  });

  it("falls back to city and state for an address without a ZIP", () => {
    expect(resolveLocation("123 Main St, Loveland, CO")).toMatchObject({ city: "Loveland", state: "CO" });
    expect(resolveLocation("123 Main St, Loveland CO")).toMatchObject({ city: "Loveland", state: "CO" });
  });

  it("resolves a bare city name only when one state has it", () => {
    expect(resolveLocation("Berthoud")).toMatchObject({ city: "Berthoud", state: "CO" });
    expect(resolveLocation("Loveland")).toBeNull(); // Colorado and Ohio both have one
  });

  it.each(["", "   ", "asdfghjkl", "Loveland, ZZ", "Nowhereville, CO", "00000", "K1A 0B1", null, undefined])(
    "returns null for %j",
    (text) => {
      expect(resolveLocation(text as string)).toBeNull();
    },
  );

  it("Loveland to Fort Collins is 12-14 miles between the resolved centres", () => {
    const miles = haversineMiles(resolveLocation("Loveland, CO")!, resolveLocation("Fort Collins, CO")!);
    expect(miles).toBeGreaterThan(12);
    expect(miles).toBeLessThan(14);
  });
});

describe("lookupZip", () => {
  it("finds a user's zipCode and rejects anything else", () => {
    expect(lookupZip("80537")).toMatchObject({ city: "Loveland", state: "CO" });
    expect(lookupZip("Loveland")).toBeNull();
    expect(lookupZip(null)).toBeNull();
  });
});

describe("normalizeState", () => {
  it.each([
    ["CO", "CO"],
    ["co", "CO"],
    ["Colorado", "CO"],
    ["new york", "NY"],
    ["Ontario", null],
    ["XX", null],
  ])("%j → %j", (input, code) => {
    expect(normalizeState(input)).toBe(code);
  });
});
