// When an owner's payout may be sent, and why one is held: the rule Request Payout, "Request payout
// for all" and the money reconciliation share (decision 039).
import { OWNER_COMPLETED, type JobStatus } from "./job-status";

export const ALREADY_PAID_OUT = "This order has already been paid out.";
export const PAYOUT_IN_PROGRESS = "This order's payout is being sent.";
export const NOT_DELIVERED = "A payout can be requested once the order is picked up or shipped.";
export const NOT_CAPTURED = "The customer's payment hasn't been captured yet.";
export const PAYOUT_HELD_BY_CLAIM = "This order's payout is held while a claim about it is open.";
export const PAYOUT_WAITS_FOR_CLAIM = "The payout will be sent once the claim about this order is resolved.";
export const PAYOUT_WAITS_FOR_REFUND = "This order's payout waits for a refund of it to go through.";
export const NOTHING_TO_PAY_OUT = "This order was refunded: nothing is left to pay out.";

export type PayoutStatus = "pending" | "paid" | "failed";

/** What is known of an order besides its status when its payout is asked for. */
export interface PayoutFacts {
  /** the order's payout row, if one was ever claimed */
  payout: PayoutStatus | null;
  /** the customer's payment for the order was captured (an owner is never paid for an uncharged order) */
  paymentCaptured: boolean;
  /** a claim about the order is open: its payout waits until the claim is resolved (decision 040) */
  claimOpen: boolean;
  /** a refund of the order is reserved but not yet made: what the owner keeps is known once it is */
  refundPending: boolean;
  /** refunds took the whole of the owner's share (refunds come out of it first, decision 040) */
  nothingLeft: boolean;
}

/** Why this order's payout can't be sent now, or null when it can (a failed payout may be asked again). */
export function payoutHoldReason(order: { status: JobStatus }, facts: PayoutFacts): string | null {
  if (facts.payout === "paid") return ALREADY_PAID_OUT;
  if (facts.payout === "pending") return PAYOUT_IN_PROGRESS;
  if (!OWNER_COMPLETED.includes(order.status)) return NOT_DELIVERED;
  if (!facts.paymentCaptured) return NOT_CAPTURED;
  if (facts.claimOpen) return PAYOUT_HELD_BY_CLAIM;
  if (facts.refundPending) return PAYOUT_WAITS_FOR_REFUND;
  if (facts.nothingLeft) return NOTHING_TO_PAY_OUT;
  return null;
}
