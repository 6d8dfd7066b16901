import { describe, expect, it } from "vitest";
import { safeRedirect } from "./session.server";

describe("safeRedirect keeps people on the site", () => {
  it.each([
    ["/saved-prints", "/saved-prints"],
    ["/printers?material=PLA#map", "/printers?material=PLA#map"],
    ["https://evil.example/", "/dashboard"],
    ["//evil.example", "/dashboard"],
    ["/\\evil.example", "/dashboard"],
    ["/\t/evil.example", "/dashboard"],
    ["/\n/evil.example", "/dashboard"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["dashboard", "/dashboard"],
    [null, "/dashboard"],
  ])("%j → %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
