import { describe, expect, it } from "vitest";
import {
  CUSTOMER_ACTIVE,
  customerTabOf,
  inCustomerTab,
  JOB_STATUSES,
  OWNER_COMPLETED,
  OWNER_PICKUP_TRACKED,
  OWNER_SHIPPING_TRACKED,
  PRINTER_IN_USE,
  reachedOwner,
  type CustomerTab,
  type JobStatus,
} from "./job-status";

// Drafts = draft; Completed = ready for pickup or shipping, picked up, shipped; Active = everything
// else except cancelled. Every status is listed, so a new one has to be placed here.
const TAB_OF: Record<JobStatus, CustomerTab | null> = {
  draft: "drafts",
  submitted: "active",
  confirmed: "active",
  accepted: "active",
  printing: "active",
  completed: "active",
  rejected: "active",
  ready_for_pickup: "completed",
  ready_for_shipping: "completed",
  picked_up: "completed",
  shipped: "completed",
  cancelled: null,
};

describe("customer dashboard groupings", () => {
  it.each(Object.entries(TAB_OF))("%s belongs to %s", (status, tab) => {
    expect(customerTabOf(status as JobStatus)).toBe(tab);
    for (const other of ["drafts", "active", "completed"] as const) {
      expect(inCustomerTab(status as JobStatus, other)).toBe(other === tab);
    }
  });

  it("Active Orders is every status but draft, cancelled and the completed ones", () => {
    expect([...CUSTOMER_ACTIVE].sort()).toEqual(
      JOB_STATUSES.filter((s) => TAB_OF[s] === "active")
        .slice()
        .sort(),
    );
    expect(CUSTOMER_ACTIVE).toContain("rejected");
  });

  it("All Orders holds every status", () => {
    for (const status of JOB_STATUSES) expect(inCustomerTab(status, "all")).toBe(true);
  });

  it("a rejected or cancelled job does not keep its printer in use", () => {
    expect(PRINTER_IN_USE).not.toContain("rejected");
    expect(PRINTER_IN_USE).not.toContain("cancelled");
  });
});

describe("what reaches a printer's owner", () => {
  it("an order reaches its owner once paid: never as a draft, unpaid, or cancelled before payment", () => {
    const paidAt = new Date();
    expect(reachedOwner({ status: "draft", confirmedAt: null })).toBe(false);
    expect(reachedOwner({ status: "submitted", confirmedAt: null })).toBe(false);
    expect(reachedOwner({ status: "cancelled", confirmedAt: null })).toBe(false);
    expect(reachedOwner({ status: "cancelled", confirmedAt: paidAt })).toBe(true);
    for (const status of ["confirmed", "accepted", "printing", "rejected", "picked_up", "shipped"] as const) {
      expect(reachedOwner({ status, confirmedAt: paidAt })).toBe(true);
    }
  });

  it("every status the tracking tabs list has reached the owner, whatever its payment time says", () => {
    // the tabs' page is picked from an index that holds no payment time (services/orders/owner-jobs.server.ts)
    for (const status of [...OWNER_PICKUP_TRACKED, ...OWNER_SHIPPING_TRACKED, ...OWNER_COMPLETED]) {
      expect({ status, reached: reachedOwner({ status, confirmedAt: null }) }).toEqual({ status, reached: true });
    }
  });
});
