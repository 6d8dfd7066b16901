import { describe, expect, test } from "vitest";
import {
  availableClaimSteps,
  CLAIM_ACTORS,
  CLAIM_PENDING,
  CLAIM_STATUSES,
  CLAIM_STEPS,
  CLAIM_TRANSITIONS,
  claimStep,
  type ClaimActor,
  type ClaimStatus,
  type ClaimStep,
} from "./claims";

// The claim lifecycle of docs/decisions/040-claims-and-refunds.md, written out by hand:
// "status actor step -> next status payout refund" (a claim that doesn't exist yet is "none").
const EXPECTED = `
none customer report open hold none
open owner answer answered hold none
answered customer accept resolved release offer
answered customer escalate escalated hold none
open system escalate_unanswered escalated hold none
escalated admin decide resolved release decision
`
  .trim()
  .split("\n")
  .map((line) => line.split(" "));

describe("the claim step table", () => {
  test("each step is one row, as decision 040 has it", () => {
    expect(CLAIM_TRANSITIONS.map((t) => [t.from ?? "none", t.actor, t.step, t.to, t.payout, t.refund])).toEqual(EXPECTED);
    expect(new Set(CLAIM_TRANSITIONS.map((t) => t.step)).size).toBe(CLAIM_STEPS.length);
    for (const step of CLAIM_STEPS) expect(claimStep(step).step).toBe(step);
  });

  const cases = CLAIM_STATUSES.flatMap((status) => CLAIM_ACTORS.map((actor) => [status, actor] as const));
  test.each(cases)("from %s, %s may take only the table's steps", (status: ClaimStatus, actor: ClaimActor) => {
    const expected = EXPECTED.filter(([from, who]) => from === status && who === actor).map(([, , step]) => step as ClaimStep);
    expect(availableClaimSteps(status, actor)).toEqual(expected);
  });

  test("a resolved claim takes no step; the payout is held exactly while a claim is pending", () => {
    expect(CLAIM_TRANSITIONS.filter((t) => t.from === "resolved")).toEqual([]);
    const heldIn = new Set(CLAIM_TRANSITIONS.filter((t) => t.payout === "hold").map((t) => t.to));
    expect([...heldIn].sort()).toEqual([...CLAIM_PENDING].sort());
    expect(CLAIM_TRANSITIONS.filter((t) => t.payout === "release").every((t) => t.to === "resolved")).toBe(true);
  });

  test("only the steps that resolve a claim refund, and each refusal names who may take it", () => {
    expect(CLAIM_TRANSITIONS.filter((t) => t.refund !== "none").map((t) => t.step)).toEqual(["accept", "decide"]);
    expect(claimStep("answer").onlyActor).toBe("Only the printer's owner can answer this claim.");
    expect(claimStep("report").onlyActor).toBe("Only the order's customer can report a problem.");
  });
});
