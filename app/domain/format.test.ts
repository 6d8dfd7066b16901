import { describe, expect, it, vi } from "vitest";
import { formatDate, formatDateTime, formatNumber } from "./format";

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

describe("kept texts", () => {
  it("makes the text of an instant in a zone once, and keeps zones and instants apart", () => {
    const parts = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    const at = "2026-03-04T05:06:00Z";
    expect(formatDateTime(at, "America/Denver")).toBe("3/3/26, 10:06 PM MST");
    expect(formatDateTime(at, "America/Denver")).toBe("3/3/26, 10:06 PM MST");
    expect(formatDateTime(new Date(at), "America/Denver")).toBe("3/3/26, 10:06 PM MST");
    expect(parts).toHaveBeenCalledTimes(1);
    expect(formatDateTime(at, "America/New_York")).toBe("3/4/26, 12:06 AM EST");
    expect(formatDateTime("2026-03-04T05:07:00Z", "America/Denver")).toBe("3/3/26, 10:07 PM MST");
    expect(formatDate(at, "America/Denver")).toBe("3/3/26");
    expect(formatDate(at, null)).toBe("3/4/26 UTC");
    parts.mockRestore();
  });
});

describe("formatNumber", () => {
  it("groups thousands and keeps up to three decimals, as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 1234, 1234567, 2.25, 0.1234, -4500]) expect(formatNumber(n)).toBe(n.toLocaleString("en-US"));
    expect(formatNumber(1234567)).toBe("1,234,567");
  });
});
