// The built-in test provider: no money moves. It takes the card provider's public test numbers
// (4242 4242 4242 4242 is authorised, 4000 0000 0000 0002 is declined) and keeps its state in our
// own payments table, so every flow runs end to end on one machine.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { payments } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { getDb } from "~/utils/db.server";
import type { CardDetails, NewPayment, PaymentProvider, ProviderPaymentState, TestCardPayments } from "./types";

export const DECLINED_CARD = "4000000000000002";

/** The Luhn checksum every real card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Checks a test card the way the card provider would; throws AppError("invalid") with its message. */
export function checkTestCard(card: CardDetails, now = new Date()): void {
  const number = card.cardNumber.replace(/[\s-]/g, "");
  if (!luhnValid(number)) throw new AppError("invalid", "Your card number is invalid.", { field: "cardNumber" });
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) {
    throw new AppError("invalid", "Your card's expiration date is invalid.", { field: "expiry" });
  }
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    throw new AppError("invalid", "Your card's expiration date is in the past.", { field: "expiry" });
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    throw new AppError("invalid", "Your card's security code is invalid.", { field: "cvc" });
  }
  if (!card.name.trim()) throw new AppError("invalid", "Enter the name on the card.", { field: "name" });
  if (number === DECLINED_CARD) throw new AppError("invalid", "Your card was declined.", { field: "cardNumber" });
}

/** What the test provider did, as a card network would remember it: tests count it, reads overlay it on our records. */
export const testProviderLedger = {
  captures: [] as string[],
  releases: [] as string[],
  transfers: new Map<number, string>(),
  /** reversals by idempotency key: a repeated key reverses nothing more */
  reversals: new Map<string, { transferId: string; amountCents: number }>(),
  transferRequests: 0,
  clear() {
    this.captures.length = 0;
    this.releases.length = 0;
    this.transfers.clear();
    this.reversals.clear();
    this.transferRequests = 0;
  },
};

export class TestPaymentProvider implements PaymentProvider {
  readonly name = "test" as const;

  async createPayment(_input: NewPayment) {
    const id = `test_pi_${randomBytes(12).toString("hex")}`;
    return { providerPaymentId: id, clientSecret: this.clientSecretOf(id) };
  }

  clientSecretOf(providerPaymentId: string) {
    return `${providerPaymentId}_secret_test`;
  }

  /** The test provider's own step: the card form posts here instead of to a card network. */
  readonly testCard: TestCardPayments = {
    authorize: async (_providerPaymentId: string, card: CardDetails) => checkTestCard(card),
  };

  async getPayment(providerPaymentId: string) {
    const db = await getDb();
    const [row] = await db.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId)).limit(1);
    if (!row) throw new AppError("not_found", "No such payment.");
    // a capture or release done here but not yet recorded by us (a crash between the two) shows as done
    const state: ProviderPaymentState = testProviderLedger.captures.includes(providerPaymentId)
      ? row.status === "refunded"
        ? "refunded"
        : "captured"
      : testProviderLedger.releases.includes(providerPaymentId)
        ? "released"
        : (row.status as ProviderPaymentState);
    return { state, amountCents: row.amountCents, jobId: row.jobId };
  }

  async capture(providerPaymentId: string) {
    testProviderLedger.captures.push(providerPaymentId);
  }
  async release(providerPaymentId: string) {
    testProviderLedger.releases.push(providerPaymentId);
  }
  async refund(input: { idempotencyKey: string }) {
    return { refundId: `re_test_${input.idempotencyKey}` };
  }

  async createConnectedAccount(input: { userId: number }) {
    // an instant test account: nothing to fill in
    return { accountId: `acct_test_${input.userId}_${randomBytes(4).toString("hex")}` };
  }

  async onboardingLink(input: { returnUrl: string }) {
    return input.returnUrl;
  }

  async accountReady(accountId: string) {
    return accountId.startsWith("acct_test_");
  }

  async transfer(input: { jobId: number }) {
    testProviderLedger.transferRequests += 1;
    const transferId = `tr_test_job_${input.jobId}`;
    testProviderLedger.transfers.set(input.jobId, transferId);
    return { transferId };
  }

  async transferOf(jobId: number) {
    const transferId = testProviderLedger.transfers.get(jobId);
    return transferId ? { transferId } : null;
  }

  async reverseTransfer(input: { transferId: string; amountCents: number; idempotencyKey: string }) {
    if (!testProviderLedger.reversals.has(input.idempotencyKey)) {
      testProviderLedger.reversals.set(input.idempotencyKey, { transferId: input.transferId, amountCents: input.amountCents });
    }
    return { reversalId: `trr_test_${input.idempotencyKey}` };
  }

  async reversedCentsOf(transferId: string) {
    let cents = 0;
    for (const reversal of testProviderLedger.reversals.values())
      if (reversal.transferId === transferId) cents += reversal.amountCents;
    return cents;
  }
}
