import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./format";

describe("formatDateTime", () => {
  it("shows the time in the given zone with its short name", () => {
    expect(formatDateTime("2026-01-01T18:00:00Z", "America/Denver")).toBe("1/1/26, 11:00 AM MST");
    expect(formatDateTime("2026-07-01T18:00:00Z", "America/Phoenix")).toBe("7/1/26, 11:00 AM MST");
  });

  it("labels UTC when no zone, or an invalid one, is given", () => {
    expect(formatDateTime("2026-01-01T18:00:00Z", null)).toBe("1/1/26, 6:00 PM UTC");
    expect(formatDateTime("2026-01-01T18:00:00Z", "Not/AZone")).toBe("1/1/26, 6:00 PM UTC");
    expect(formatDateTime(null, "America/Denver")).toBe("");
  });
});

describe("formatDate", () => {
  it("takes the date in the given zone", () => {
    expect(formatDate("2026-01-02T03:00:00Z", "America/Denver")).toBe("1/1/26");
  });

  it("labels a date taken in UTC", () => {
    expect(formatDate("2026-01-02T03:00:00Z", null)).toBe("1/2/26 UTC");
    expect(formatDate("2026-01-02T03:00:00Z", "UTC")).toBe("1/2/26 UTC");
    expect(formatDate("2026-01-02T03:00:00Z", "Not/AZone")).toBe("1/2/26 UTC");
  });
});
