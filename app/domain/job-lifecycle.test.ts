import { describe, expect, test } from "vitest";
import { JOB_STATUSES, type JobStatus } from "./job-status";
import {
  actionToast,
  availableActions,
  checkTransition,
  JOB_ACTIONS,
  JOB_ACTORS,
  type JobAction,
  type JobActor,
} from "./job-lifecycle";

// The lifecycle of docs/decisions/014-order-lifecycle.md, written out by hand: "status actor action -> next status".
const EXPECTED = `
draft customer place submitted
submitted customer pay confirmed
submitted system pay confirmed
confirmed owner accept accepted
confirmed owner reject rejected
accepted owner start_printing printing
printing owner complete completed
completed owner ready_for_pickup ready_for_pickup
completed owner ready_for_shipping ready_for_shipping
ready_for_pickup owner mark_picked_up picked_up
ready_for_shipping owner mark_shipped shipped
submitted customer cancel cancelled
confirmed customer cancel cancelled
accepted owner cancel cancelled
printing owner cancel cancelled
confirmed system expire cancelled
`
  .trim()
  .split("\n")
  .map((line) => line.split(" ") as [JobStatus, JobActor, JobAction, JobStatus]);

function expectedTo(status: JobStatus, actor: JobActor, action: JobAction): JobStatus | undefined {
  return EXPECTED.find(([s, a, x]) => s === status && a === actor && x === action)?.[3];
}

function deliveryFor(action: JobAction): "pickup" | "shipping" {
  return action === "ready_for_shipping" || action === "mark_shipped" ? "shipping" : "pickup";
}

describe("the job lifecycle table", () => {
  const cases = JOB_STATUSES.flatMap((status) =>
    JOB_ACTORS.flatMap((actor) => JOB_ACTIONS.map((action) => [status, actor, action] as const)),
  );
  test.each(cases)("%s × %s × %s", (status, actor, action) => {
    const to = expectedTo(status, actor, action);
    const result = checkTransition(status, actor, action, { deliveryMethod: deliveryFor(action), trackingNumber: "9400 1" });
    if (to) {
      expect(result.ok && result.transition.to).toBe(to);
    } else {
      expect(result.ok).toBe(false);
      // an actor who never does the action is forbidden; a right actor in the wrong status has a conflict
      const actorEverDoes = EXPECTED.some(([, a, x]) => a === actor && x === action);
      expect(!result.ok && result.code).toBe(actorEverDoes ? "conflict" : "forbidden");
    }
  });

  test("money and filament effects follow the lifecycle table", () => {
    const effect = (s: JobStatus, a: JobActor, x: JobAction) => {
      const r = checkTransition(s, a, x, { deliveryMethod: "pickup" });
      return r.ok ? [r.transition.payment, r.transition.inventory] : null;
    };
    expect(effect("submitted", "customer", "pay")).toEqual(["authorize", "none"]);
    expect(effect("confirmed", "owner", "accept")).toEqual(["capture", "reserve"]);
    expect(effect("confirmed", "owner", "reject")).toEqual(["release", "none"]);
    expect(effect("submitted", "customer", "cancel")).toEqual(["release", "none"]);
    expect(effect("confirmed", "customer", "cancel")).toEqual(["release", "none"]);
    expect(effect("printing", "owner", "cancel")).toEqual(["refund", "return"]);
    expect(effect("confirmed", "system", "expire")).toEqual(["release", "none"]);
  });

  test("pickup and delivered jobs take their own last steps; shipping needs a tracking number", () => {
    expect(checkTransition("completed", "owner", "ready_for_shipping", { deliveryMethod: "pickup" }).ok).toBe(false);
    expect(checkTransition("completed", "owner", "ready_for_pickup", { deliveryMethod: "delivery" }).ok).toBe(false);
    const blank = checkTransition("ready_for_shipping", "owner", "mark_shipped", {
      deliveryMethod: "shipping",
      trackingNumber: "  ",
    });
    expect(!blank.ok && blank.code).toBe("invalid");
    // local delivery has no carrier, so no tracking number
    expect(checkTransition("ready_for_shipping", "owner", "mark_shipped", { deliveryMethod: "delivery" }).ok).toBe(true);
  });

  test("availableActions lists what the buttons offer", () => {
    expect(availableActions("confirmed", "owner", "pickup")).toEqual(["accept", "reject"]);
    expect(availableActions("completed", "owner", "shipping")).toEqual(["ready_for_shipping"]);
    expect(availableActions("completed", "owner", "pickup")).toEqual(["ready_for_pickup"]);
    expect(availableActions("confirmed", "customer", "pickup")).toEqual(["cancel"]);
    expect(availableActions("shipped", "owner", "shipping")).toEqual([]);
  });
});

describe("the success toast is worded for the delivery method", () => {
  test("a local delivery is ready for delivery and delivered, never shipped", () => {
    expect(actionToast("ready_for_shipping", "delivery").description).toBe("Order marked as ready for delivery");
    expect(actionToast("mark_shipped", "delivery").description).toBe("Order marked as delivered");
  });

  test("a shipped order keeps the shipping words", () => {
    expect(actionToast("ready_for_shipping", "shipping").description).toBe("Order marked as ready for shipping");
    expect(actionToast("mark_shipped", "shipping").description).toBe("Order marked as shipped");
    expect(actionToast("mark_shipped").description).toBe("Order marked as shipped");
  });
});
