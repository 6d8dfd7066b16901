import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./origin";

describe("cross-site post check", () => {
  it.each([
    [{ origin: "http://localhost:3000", host: "localhost:3000" }, false],
    [{ origin: "https://printnear.com", host: "printnear.com" }, false],
    [{ origin: "https://evil.example", host: "printnear.com" }, true],
    [{ origin: "null", host: "printnear.com" }, true],
    [{ origin: undefined, host: "printnear.com" }, false],
    [{ origin: undefined, secFetchSite: "cross-site", host: "printnear.com" }, true],
    [{ origin: "https://printnear.com", secFetchSite: "same-origin", host: "printnear.com" }, false],
  ])("%o → %s", (input, expected) => {
    expect(isCrossSiteRequest(input)).toBe(expected);
  });
});
