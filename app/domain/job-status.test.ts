import { describe, expect, it } from "vitest";
import { customerTabOf, inCustomerTab, JOB_STATUSES } from "./job-status";

describe("customer dashboard groupings", () => {
  it.each([
    ["draft", "drafts"],
    ["submitted", "active"],
    ["confirmed", "active"],
    ["printing", "active"],
    ["completed", "active"],
    ["ready_for_pickup", "completed"],
    ["shipped", "completed"],
    ["cancelled", null],
    ["rejected", null],
  ] as const)("%s belongs to %s", (status, tab) => {
    expect(customerTabOf(status)).toBe(tab);
  });

  it("All Orders holds every status", () => {
    for (const status of JOB_STATUSES) expect(inCustomerTab(status, "all")).toBe(true);
  });
});
