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
/** While a claim is in one of these, the order's payout is held. */
export const CLAIM_PENDING: readonly ClaimStatus[] = ["open", "answered", "escalated"];
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  open: "Awaiting the printer's answer",
  answered: "Awaiting the customer",
  escalated: "With Printnear support",
  resolved: "Resolved",
};

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
