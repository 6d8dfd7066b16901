import { describe, expect, it } from "vitest";
import { timeZoneForState } from "./time-zones";

describe("timeZoneForState", () => {
  it("maps states to their zone", () => {
    expect(timeZoneForState("CO")).toBe("America/Denver");
    expect(timeZoneForState("AZ")).toBe("America/Phoenix");
    expect(timeZoneForState("HI")).toBe("Pacific/Honolulu");
    expect(timeZoneForState("ak")).toBe("America/Anchorage");
    expect(timeZoneForState("NY")).toBe("America/New_York");
  });

  it("falls back to UTC for an unknown or missing state", () => {
    expect(timeZoneForState("ZZ")).toBe("UTC");
    expect(timeZoneForState(null)).toBe("UTC");
    expect(timeZoneForState("")).toBe("UTC");
  });
});
