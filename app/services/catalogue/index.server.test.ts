import { describe, expect, it } from "vitest";
import { getCatalogueSource } from "./index.server";

describe("getCatalogueSource", () => {
  it("returns null when THINGIVERSE_TOKEN is not set or blank", () => {
    expect(getCatalogueSource({})).toBeNull();
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "" })).toBeNull();
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "   ", MOCKS: "false" })).toBeNull();
  });

  it("uses the mock token in mock mode when none is set, so the demo answers the whole catalogue", () => {
    expect(getCatalogueSource({ MOCKS: "true" })?.id).toBe("thingiverse");
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "  ", MOCKS: "true" })?.id).toBe("thingiverse");
  });

  it("returns the Thingiverse adapter when a token is set", () => {
    const s = getCatalogueSource({ THINGIVERSE_TOKEN: "abc123" });
    expect(s?.id).toBe("thingiverse");
    // the same instance for the same token
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "abc123" })).toBe(s);
  });

  it("accepts the 'mock-token' placeholder only in mock mode", () => {
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "mock-token" })).toBeNull();
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "mock-token", MOCKS: "false" })).toBeNull();
    expect(getCatalogueSource({ THINGIVERSE_TOKEN: "mock-token", MOCKS: "true" })?.id).toBe("thingiverse");
  });

  it("reads process.env by default", () => {
    const saved = process.env.THINGIVERSE_TOKEN;
    delete process.env.THINGIVERSE_TOKEN;
    try {
      expect(getCatalogueSource()).toBeNull();
    } finally {
      if (saved !== undefined) process.env.THINGIVERSE_TOKEN = saved;
    }
  });

  describe("in mock mode, msw answers", () => {
    it("search works end to end with the mock token", async () => {
      const s = getCatalogueSource({ THINGIVERSE_TOKEN: "mock-token", MOCKS: "true" })!;
      const { total, models } = await s.search("", { sort: "popular", page: 1, perPage: 3 });
      expect(total).toBe(9);
      expect(models.map((m) => m.likeCount)).toEqual([9521, 4120, 2210]);
    });
  });
});
