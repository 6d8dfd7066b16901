// Our own payment records, kept the same way for every provider: one row per payment attempt,
// moved forward by guarded UPDATEs so a repeat (two tabs, a webhook twice) changes nothing twice.
import { and, desc, eq, sql } from "drizzle-orm";
import { payments } from "../../../db/schema";
import { AUTHORIZATION_MS } from "~/domain/job-lifecycle";
import { getDb, preparedQuery } from "~/utils/db.server";
import type { ProviderName } from "./types";

export type PaymentRow = typeof payments.$inferSelect;
type PaymentStatus = PaymentRow["status"];

export async function recordPayment(input: {
  jobId: number;
  provider: ProviderName;
  providerPaymentId: string;
  amountCents: number;
}) {
  const db = await getDb();
  await db
    .insert(payments)
    .values({ ...input, status: "requires_payment" })
    .onConflictDoNothing({ target: payments.providerPaymentId });
}

export async function findPayment(providerPaymentId: string): Promise<PaymentRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId)).limit(1);
  return row ?? null;
}

/** The newest-payment query for each set of states the code asks about (a handful of fixed lists), built once. */
const newestPaymentQueries = new Map<string, ReturnType<typeof newestPaymentQuery>>();
function newestPaymentQuery(statuses: PaymentStatus[]) {
  return preparedQuery((db) =>
    db
      .select()
      .from(payments)
      .where(and(eq(payments.jobId, sql.placeholder("jobId")), sql`${payments.status} IN ${statuses}`))
      .orderBy(desc(payments.id))
      .limit(1)
      .prepare(),
  );
}

/** The job's newest payment in one of these states. */
export async function paymentOfJob(jobId: number, statuses: PaymentStatus[]): Promise<PaymentRow | null> {
  const key = statuses.join(",");
  let query = newestPaymentQueries.get(key);
  if (!query) newestPaymentQueries.set(key, (query = newestPaymentQuery([...statuses])));
  const [row] = await query(await getDb()).all({ jobId });
  return row ?? null;
}

/** All of the job's payments in these states, oldest first. */
export async function paymentsOfJob(jobId: number, statuses: PaymentStatus[]): Promise<PaymentRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.jobId, jobId), sql`${payments.status} IN ${statuses}`))
    .orderBy(payments.id);
}

const STAMPS: Partial<Record<PaymentStatus, "authorizedAt" | "capturedAt" | "releasedAt" | "refundedAt">> = {
  authorized: "authorizedAt",
  captured: "capturedAt",
  released: "releasedAt",
  refunded: "refundedAt",
};

/** Moves a payment from one status to the next; false when it was not in `from` (someone else moved it). */
export async function movePayment(
  providerPaymentId: string,
  from: PaymentStatus[],
  to: PaymentStatus,
  extra: { failureMessage?: string; now?: number } = {},
): Promise<boolean> {
  const db = await getDb();
  const now = new Date(extra.now ?? Date.now());
  const stamp = STAMPS[to];
  const result = await db
    .update(payments)
    .set({
      status: to,
      ...(stamp ? { [stamp]: now } : {}),
      ...(to === "authorized" ? { authorizationExpiresAt: new Date(now.getTime() + AUTHORIZATION_MS) } : {}),
      ...(extra.failureMessage ? { failureMessage: extra.failureMessage } : {}),
    })
    .where(and(eq(payments.providerPaymentId, providerPaymentId), sql`${payments.status} IN ${from}`));
  return result.rowsAffected === 1;
}
