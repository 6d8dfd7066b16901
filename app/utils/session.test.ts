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
    // dot segments and encodings that normalise to a protocol-relative URL
    ["/.//evil.example", "/dashboard"],
    ["/..//evil.example", "/dashboard"],
    ["/%2e%2e//evil.example", "/dashboard"],
    ["/%2E//evil.example", "/dashboard"],
    ["/a/../..//evil.example", "/dashboard"],
    ["/./\\evil.example", "/dashboard"],
    ["/%5cevil.example", "/dashboard"],
    ["/%2f%2fevil.example", "/dashboard"],
    ["/%2F/evil.example", "/dashboard"],
    ["///evil.example", "/dashboard"],
    ["/\\/evil.example", "/dashboard"],
    ["/\u0000/evil.example", "/dashboard"],
    ["/\r\n//evil.example", "/dashboard"],
    ["https:evil.example", "/dashboard"],
    ["https:/evil.example", "/dashboard"],
    ["javascript:alert(1)", "/dashboard"],
    ["  //evil.example", "/dashboard"],
    ["/models/../saved-prints", "/saved-prints"],
    [null, "/dashboard"],
  ])("%j → %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
