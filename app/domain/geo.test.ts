import { describe, expect, it } from "vitest";
import { MAP, MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM, boundingBox, formatDistance, haversineMiles, toLatLon } from "./geo";

const loveland = { latitude: 40.3978, longitude: -105.075 };
const fortCollins = { latitude: 40.5853, longitude: -105.0844 };
const denver = { latitude: 39.7392, longitude: -104.9903 };

describe("haversineMiles", () => {
  it("is zero for the same point", () => {
    expect(haversineMiles(loveland, loveland)).toBe(0);
  });

  it("Loveland to Fort Collins is about 13 miles", () => {
    const miles = haversineMiles(loveland, fortCollins);
    expect(miles).toBeGreaterThan(12);
    expect(miles).toBeLessThan(14);
  });

  it("is symmetric and matches a known longer distance (Denver–Loveland ≈ 46 mi)", () => {
    expect(haversineMiles(denver, loveland)).toBeCloseTo(haversineMiles(loveland, denver), 9);
    expect(haversineMiles(denver, loveland)).toBeGreaterThan(44);
    expect(haversineMiles(denver, loveland)).toBeLessThan(48);
  });

  it("one degree of latitude is about 69 miles", () => {
    expect(haversineMiles({ latitude: 40, longitude: -105 }, { latitude: 41, longitude: -105 })).toBeCloseTo(69.09, 1);
  });
});

describe("boundingBox", () => {
  it("contains every point within the radius", () => {
    const box = boundingBox(loveland.latitude, loveland.longitude, 25);
    for (let bearing = 0; bearing < 360; bearing += 15) {
      // Walk ~24.9 miles out in each direction and check the box holds the point.
      const rad = (bearing * Math.PI) / 180;
      const dLat = (24.9 / 69.09) * Math.cos(rad);
      const dLon = ((24.9 / 69.09) * Math.sin(rad)) / Math.cos((loveland.latitude * Math.PI) / 180);
      const point = { latitude: loveland.latitude + dLat, longitude: loveland.longitude + dLon };
      expect(haversineMiles(loveland, point)).toBeLessThan(25);
      expect(point.latitude).toBeGreaterThanOrEqual(box.minLat);
      expect(point.latitude).toBeLessThanOrEqual(box.maxLat);
      expect(point.longitude).toBeGreaterThanOrEqual(box.minLon);
      expect(point.longitude).toBeLessThanOrEqual(box.maxLon);
    }
  });

  it("is not wildly larger than needed", () => {
    const box = boundingBox(40, -105, 69.09);
    expect(box.maxLat - box.minLat).toBeCloseTo(2, 1);
    expect(box.maxLon - box.minLon).toBeLessThan(3);
  });

  it("covers every longitude near a pole and clamps latitude", () => {
    const box = boundingBox(89.9, 0, 100);
    expect(box.maxLat).toBe(90);
    expect(box.minLon).toBe(-180);
    expect(box.maxLon).toBe(180);
  });

  it("rejects a negative radius", () => {
    expect(() => boundingBox(40, -105, -1)).toThrow(RangeError);
  });
});

describe("formatDistance", () => {
  it.each<[number | null, string]>([
    [4.23, "4.2 mi away"],
    [4.25, "4.3 mi away"],
    [12, "12.0 mi away"],
    [0.04, "< 0.1 mi away"],
    [0, "< 0.1 mi away"],
    [1234.6, "1,235 mi away"],
    [null, ""],
    [Number.NaN, ""],
  ])("%s → %j", (miles, text) => {
    expect(formatDistance(miles)).toBe(text);
  });
});

describe("toLatLon", () => {
  it("parses stored decimal strings", () => {
    expect(toLatLon("40.3978", "-105.075")).toEqual({ latitude: 40.3978, longitude: -105.075 });
  });

  it.each<[unknown, unknown]>([
    [null, "-105"],
    ["", "-105"],
    ["abc", "-105"],
    ["91", "0"],
    [40, 181],
  ])("rejects %j, %j", (lat, lon) => {
    expect(toLatLon(lat, lon)).toBeNull();
  });
});

describe("map constants", () => {
  it("match the map's specified constants", () => {
    expect(MAP_DEFAULT_CENTER).toEqual({ latitude: 40.3081, longitude: -105.0778 });
    expect(MAP_DEFAULT_ZOOM).toBe(10);
    expect(MAP).toMatchObject({
      markerSizePx: 25,
      selectedMarkerSizePx: 35,
      selectedZoom: 15,
      singlePrinterZoom: 14,
      fitPaddingPx: 20,
      heightPx: 600,
    });
  });
});
