// Every write a user makes is counted against a per-user limit for its kind, so one account can't
// flood the marketplace (500 comments in a few seconds, dozens of printer listings). Flows call
// limitWrite before they write; it throws AppError("rate_limited") with the time to wait. What one
// user receives from people they have no paid order with is counted too (limitReceived), so many
// accounts together can't flood one person either.
import { AppError } from "~/domain/app-error";
import { hitRateLimit, minutesText } from "~/utils/rate-limit.server";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** Limits per user: how many writes of a kind fall in a window. Tests may lower them. */
export const WRITE_LIMITS = {
  comment: { limit: 10, windowMs: 10 * MINUTE, message: "You have posted many comments" },
  rating: { limit: 30, windowMs: HOUR, message: "You have rated many models" },
  like: { limit: 120, windowMs: HOUR, message: "You have liked many models" },
  commentDelete: { limit: 60, windowMs: HOUR, message: "You have deleted many comments" },
  printer: { limit: 10, windowMs: HOUR, message: "You have added many printers" },
  printerUpdate: { limit: 120, windowMs: HOUR, message: "You have changed your printers many times" },
  inventory: { limit: 120, windowMs: HOUR, message: "You have changed your filament stock many times" },
  message: { limit: 30, windowMs: MINUTE, message: "You have sent many messages" },
  /** messages to people the writer has no paid order with (an order cancelled or rejected) */
  unsolicited: { limit: 20, windowMs: HOUR, message: "You have written many messages to people you have no paid order with" },
  order: { limit: 30, windowMs: HOUR, message: "You have placed many orders" },
  payment: { limit: 20, windowMs: HOUR, message: "You have tried to pay many times" },
  jobStatus: { limit: 300, windowMs: HOUR, message: "You have changed many orders" },
  review: { limit: 20, windowMs: HOUR, message: "You have written many reviews" },
  claim: { limit: 20, windowMs: HOUR, message: "You have reported or answered many claims" },
  profile: { limit: 30, windowMs: HOUR, message: "You have changed your profile many times" },
  /** the contact form is open to visitors: counted per address, signed in or not */
  contact: { limit: 10, windowMs: HOUR, message: "You have sent many messages to support" },
  admin: { limit: 60, windowMs: HOUR, message: "You have started many admin jobs" },
} satisfies Record<string, { limit: number; windowMs: number; message: string }>;

export type WriteKind = keyof typeof WRITE_LIMITS;

/** Who a write is counted against: a signed-in user's id, or a visitor's address (forms open to everyone). */
export type Writer = number | { address: string };

const writerKey = (who: Writer) => (typeof who === "number" ? String(who) : `address:${who.address}`);

/** Counts one write of this kind by this user (or visitor's address); throws AppError("rate_limited") past the limit. */
export async function limitWrite(who: Writer, kind: WriteKind, now = Date.now()): Promise<void> {
  const rule = WRITE_LIMITS[kind];
  await countOrRefuse(`write:${kind}:${writerKey(who)}`, rule, now);
}

/**
 * Limits per recipient: what one user may receive in an hour from people they have no paid order
 * with, however many accounts write: new conversations, and notifications (each message rings the
 * bell). The sender is refused past them. Tests may lower them.
 */
export const RECEIVE_LIMITS = {
  conversation: { limit: 10, windowMs: HOUR, message: "This person has been contacted by many people" },
  notification: { limit: 30, windowMs: HOUR, message: "This person has received many messages" },
} satisfies Record<string, { limit: number; windowMs: number; message: string }>;

export type ReceiveKind = keyof typeof RECEIVE_LIMITS;

/** Counts one unsolicited conversation or notification for this recipient; throws AppError("rate_limited") past the limit. */
export async function limitReceived(recipientId: number, kind: ReceiveKind, now = Date.now()): Promise<void> {
  await countOrRefuse(`receive:${kind}:${recipientId}`, RECEIVE_LIMITS[kind], now);
}

async function countOrRefuse(key: string, rule: { limit: number; windowMs: number; message: string }, now: number) {
  const result = await hitRateLimit(key, rule.limit, rule.windowMs, now);
  if (!result.allowed) {
    throw new AppError(
      "rate_limited",
      `${rule.message} in a short time. Please try again in ${minutesText(result.retryAfterSeconds)}.`,
      {
        retryAfterSeconds: result.retryAfterSeconds,
      },
    );
  }
}
