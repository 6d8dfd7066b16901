// Claims after delivery and the refunds they lead to: the vocabulary, the time windows and the
// refund rule (decision 040). db/schema.ts takes its enums from here.
import { z } from "zod";
import type { DeliveryMethod } from "./pricing";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A claim may be opened this long after pickup or local delivery, and longer after shipping (the parcel travels). */
export const CLAIM_WINDOW_MS = 7 * DAY_MS;
export const CLAIM_WINDOW_SHIPPED_MS = 14 * DAY_MS;
/** A claim its printer's owner leaves unanswered this long goes to the admins. */
export const OWNER_ANSWER_MS = 3 * DAY_MS;
export const MAX_CLAIM_PHOTOS = 4;
export const CLAIM_DESCRIPTION_MAX = 2000;
export const CLAIM_MESSAGE_MAX = 1000;

export const CLAIM_REASONS = ["arrived_broken", "wrong_material_or_color", "poor_quality", "not_received", "other"] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  arrived_broken: "Arrived broken",
  wrong_material_or_color: "Wrong material or colour",
  poor_quality: "Poor quality",
  not_received: "Not received",
  other: "Other",
};

/** open: awaiting the owner; answered: awaiting the customer; escalated: awaiting an admin; resolved: closed. */
export const CLAIM_STATUSES = ["open", "answered", "escalated", "resolved"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
/** While a claim is in one of these, the order's payout is held (the statuses the table's "hold" steps lead to). */
export const CLAIM_PENDING: readonly ClaimStatus[] = ["open", "answered", "escalated"];
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  open: "Awaiting the printer's answer",
  answered: "Awaiting the customer",
  escalated: "With Printnear support",
  resolved: "Resolved",
};

/** Who takes a claim's steps: the order's customer, the printer's owner, an admin, or the claims sweep. */
export const CLAIM_ACTORS = ["customer", "owner", "admin", "system"] as const;
export type ClaimActor = (typeof CLAIM_ACTORS)[number];
export const CLAIM_STEPS = ["report", "answer", "accept", "escalate", "escalate_unanswered", "decide"] as const;
export type ClaimStep = (typeof CLAIM_STEPS)[number];

/** A step's effect on the order's payout: held while the claim is pending, released (after its refund) once resolved. */
export type ClaimPayoutEffect = "hold" | "release";

export interface ClaimTransition {
  step: ClaimStep;
  actor: ClaimActor;
  /** the status the step starts from (null: the claim doesn't exist yet) */
  from: ClaimStatus | null;
  to: ClaimStatus;
  payout: ClaimPayoutEffect;
  /** what the step refunds: nothing, the owner's offer, or the admin's decision (reserved in the step's own transaction) */
  refund: "none" | "offer" | "decision";
  /** the refusal of anyone else who tries it */
  onlyActor: string;
}

/**
 * The one claim lifecycle (decision 040): which actor takes which step from which status to which, and what
 * it does to the payout and the refund. Each step is one guarded write of the table's `to` where the status
 * is its `from`; nothing else writes a claim's status.
 */
export const CLAIM_TRANSITIONS: readonly ClaimTransition[] = Object.freeze([
  {
    step: "report",
    actor: "customer",
    from: null,
    to: "open",
    payout: "hold",
    refund: "none",
    onlyActor: "Only the order's customer can report a problem.",
  },
  {
    step: "answer",
    actor: "owner",
    from: "open",
    to: "answered",
    payout: "hold",
    refund: "none",
    onlyActor: "Only the printer's owner can answer this claim.",
  },
  {
    step: "accept",
    actor: "customer",
    from: "answered",
    to: "resolved",
    payout: "release",
    refund: "offer",
    onlyActor: "Only the order's customer can accept the answer.",
  },
  {
    step: "escalate",
    actor: "customer",
    from: "answered",
    to: "escalated",
    payout: "hold",
    refund: "none",
    onlyActor: "Only the order's customer can escalate the claim.",
  },
  // the owner left it unanswered for OWNER_ANSWER_MS: the claims sweep hands it to the admins
  {
    step: "escalate_unanswered",
    actor: "system",
    from: "open",
    to: "escalated",
    payout: "hold",
    refund: "none",
    onlyActor: "Only the claims sweep escalates an unanswered claim.",
  },
  {
    step: "decide",
    actor: "admin",
    from: "escalated",
    to: "resolved",
    payout: "release",
    refund: "decision",
    onlyActor: "Only Printnear support can decide a claim.",
  },
] satisfies ClaimTransition[]);

/** The table's row of a step (each step has one). */
export function claimStep(step: ClaimStep): ClaimTransition {
  return CLAIM_TRANSITIONS.find((t) => t.step === step)!;
}

/** The steps an actor may take on a claim in this status (to choose which forms a page shows). */
export function availableClaimSteps(status: ClaimStatus, actor: ClaimActor): ClaimStep[] {
  return CLAIM_TRANSITIONS.filter((t) => t.from === status && t.actor === actor).map((t) => t.step);
}

export const OWNER_RESPONSES = ["refund_full", "refund_partial", "reprint", "decline"] as const;
export type OwnerResponse = (typeof OWNER_RESPONSES)[number];
export const OWNER_RESPONSE_LABELS: Record<OwnerResponse, string> = {
  refund_full: "Full refund",
  refund_partial: "Partial refund",
  reprint: "Reprint",
  decline: "Decline",
};

export const CLAIM_ESCALATIONS = ["customer", "unanswered"] as const;

/** When an order's claim window closes (counted from pickup, delivery or shipping); null before any of them. */
export function claimWindowEnd(job: {
  status: string;
  deliveryMethod: DeliveryMethod;
  pickedUpAt: Date | number | null;
  shippedAt: Date | number | null;
}): number | null {
  const at = (value: Date | number | null) => (value == null ? null : new Date(value).getTime());
  if (job.status === "picked_up") {
    const picked = at(job.pickedUpAt);
    return picked == null ? null : picked + CLAIM_WINDOW_MS;
  }
  if (job.status === "shipped") {
    const shipped = at(job.shippedAt);
    if (shipped == null) return null;
    return shipped + (job.deliveryMethod === "shipping" ? CLAIM_WINDOW_SHIPPED_MS : CLAIM_WINDOW_MS);
  }
  return null;
}

/** The refund an owner's answer offers, in cents, capped by what can still be refunded; null when it offers none. */
export function offeredRefundCents(action: OwnerResponse, amountCents: number | null | undefined, refundable: number) {
  if (action === "refund_full") return refundable;
  if (action === "refund_partial") return Math.min(Math.max(0, Math.trunc(amountCents ?? 0)), refundable);
  return null;
}

/** What the owner keeps of a refunded order: refunds come out of their share first (decision 040). */
export function ownerShareAfterRefunds(printerProfitCents: number, refundedCents: number): number {
  return Math.max(0, printerProfitCents - refundedCents);
}

const dollars = z
  .string({ required_error: "Enter an amount" })
  .trim()
  .regex(/^\d+(\.\d{1,2})?$/, "Enter an amount in dollars, like 4.50")
  .transform((value) => Math.round(Number(value) * 100));

export const ClaimFormSchema = z.object({
  reason: z.enum(CLAIM_REASONS, { errorMap: () => ({ message: "Choose what went wrong" }) }),
  description: z
    .string({ required_error: "Describe the problem" })
    .trim()
    .min(1, "Describe the problem")
    .max(CLAIM_DESCRIPTION_MAX, `Keep the description under ${CLAIM_DESCRIPTION_MAX} characters`),
});

const message = z
  .string({ required_error: "Write a message" })
  .trim()
  .min(1, "Write a message")
  .max(CLAIM_MESSAGE_MAX, `Keep the message under ${CLAIM_MESSAGE_MAX} characters`);

/** The owner's answer on the order page (a partial refund's amount in dollars). */
export const ClaimResponseFormSchema = z
  .object({
    action: z.enum(OWNER_RESPONSES, { errorMap: () => ({ message: "Choose an answer" }) }),
    amount: dollars.optional(),
    message,
  })
  .refine((value) => value.action !== "refund_partial" || (value.amount ?? 0) > 0, {
    message: "Enter the amount to refund",
    path: ["amount"],
  });

/** The admin's decision on /admin/claims (dollars; 0 is no refund). */
export const ClaimDecisionFormSchema = z.object({
  refund: dollars,
  note: message,
});

type When = Date | string | null;

/** A claim as the order page, the admin page and the API show it. */
export interface ClaimView {
  id: number;
  jobId: number;
  status: ClaimStatus;
  reason: ClaimReason;
  description: string;
  photos: string[];
  ownerResponse: OwnerResponse | null;
  offeredCents: number | null;
  ownerMessage: string | null;
  escalatedBy: (typeof CLAIM_ESCALATIONS)[number] | null;
  adminNote: string | null;
  refundCents: number | null;
  createdAt: When;
  answeredAt: When;
  acceptedAt: When;
  escalatedAt: When;
  decidedAt: When;
  resolvedAt: When;
}

/** What the order page shows of claims: the latest claim, whether a new one may be reported, the money refunded. */
export interface ClaimPanel {
  claim: ClaimView | null;
  canReport: boolean;
  windowClosesAt: number | null;
  refundedCents: number;
  refundableCents: number;
}

/** The claim's steps for the order's timeline. */
export function claimTimeline(claim: ClaimView): Array<{ label: string; at: When }> {
  return (
    [
      ["Problem reported", claim.createdAt],
      ["Claim answered", claim.answeredAt],
      ["Claim escalated", claim.escalatedAt],
      ["Claim answer accepted", claim.acceptedAt],
      ["Claim decided by support", claim.decidedAt],
    ] as const
  )
    .filter(([, at]) => at)
    .map(([label, at]) => ({ label, at }));
}
