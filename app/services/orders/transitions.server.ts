// Every status change of an order goes through transitionJob: the lifecycle table decides, one
// guarded UPDATE (WHERE id = ? AND status = ?) makes it happen at most once, and the winner alone
// moves the money, the filament, and tells the other party.
import { and, eq, sql } from "drizzle-orm";
import { filamentInventory, printJobs } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import {
  checkTransition,
  transitionNotice,
  transitionNoticeKind,
  type JobAction,
  type JobStamp,
  type Transition,
} from "~/domain/job-lifecycle";
import { reachedOwner } from "~/domain/job-status";
import type { DeliveryMethod } from "~/domain/pricing";
import { shippingServiceName } from "~/domain/shipping";
import { getPaymentProvider } from "~/services/payments/provider.server";
import { findPayment, movePayment, paymentOfJob } from "~/services/payments/records.server";
import { limitWrite } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";
import { faultPoint } from "~/utils/fault-points.server";
import { notify } from "~/services/notifications.server";
import { actorFor, columnNames, loadJobParty, type JobParty } from "./jobs.server";
import { releaseOpenPayments } from "./payment-holds.server";
import { reservationStatement, sendPendingRefunds } from "./refunds.server";
import { sendReceipt } from "./receipt.server";

const CUSTOMER_ACTIONS: ReadonlySet<JobAction> = new Set(["place", "pay", "cancel"]);

export interface TransitionRequest {
  jobId: number;
  /** a signed-in user, or the platform itself (payment provider reports, the expiry sweep) */
  by: { userId: number } | "system";
  action: JobAction;
  trackingNumber?: string | null;
  /** the owner's optional note on accept or reject */
  message?: string | null;
  now?: number;
}

export interface TransitionResult {
  jobId: number;
  status: Transition["to"];
  /** how the order reaches its customer: the success toast is worded for it */
  deliveryMethod: DeliveryMethod;
  transition: Transition;
}

/** Grams reserved from stock for a job: its weight rounded up to whole grams. */
export function reservedGrams(job: { estimatedWeightGrams: number }): number {
  return Math.max(0, Math.ceil(job.estimatedWeightGrams));
}

function notInStock(job: { filamentColor: string; material: string }) {
  return new AppError("conflict", `Not enough ${job.filamentColor} ${job.material} in stock`);
}

/** The printer's stock of the job's material and colour (a job whose printer is gone has none). */
function stockOf(job: { printerId: number | null; material: string; filamentColor: string }) {
  return and(
    sql`${filamentInventory.printerId} = ${job.printerId}`,
    eq(filamentInventory.material, job.material),
    eq(filamentInventory.color, job.filamentColor),
  );
}

const LOST_RACE = "This order was just changed by someone else. Reload to see its current status.";

/**
 * Applies one action of the lifecycle table. Returns null when the job doesn't exist or isn't the
 * user's to see (answer 404); throws AppError forbidden / conflict / invalid / rate_limited.
 */
export async function transitionJob(request: TransitionRequest): Promise<TransitionResult | null> {
  const party = await loadJobParty(request.jobId);
  if (!party || party.job.status === "draft") return null;
  const { job } = party;
  const actor = request.by === "system" ? "system" : actorFor(party, request.by.userId, CUSTOMER_ACTIONS.has(request.action));
  if (!actor) return null;

  const trackingNumber = request.trackingNumber?.trim() || null;
  const check = checkTransition(job.status, actor, request.action, { deliveryMethod: job.deliveryMethod, trackingNumber });
  if (!check.ok) throw new AppError(check.code, check.message, check.code === "invalid" ? { field: "trackingNumber" } : {});
  const transition = check.transition;
  if (request.by !== "system") await limitWrite(request.by.userId, "jobStatus");

  const now = request.now ?? Date.now();
  const ownerMessage = request.message?.trim().slice(0, 1000) || null;
  const db = await getDb();
  const at = new Date(now);
  const stamp: Partial<Record<JobStamp, Date>> = { [transition.stamp]: at };
  const guarded = db
    .update(printJobs)
    .set({
      status: transition.to,
      ...stamp,
      updatedAt: at,
      ...(transition.action === "mark_shipped" && trackingNumber ? { trackingNumber: trackingNumber.slice(0, 64) } : {}),
      ...((transition.action === "accept" || transition.action === "reject") && ownerMessage ? { ownerMessage } : {}),
    })
    .where(and(eq(printJobs.id, job.id), eq(printJobs.status, transition.from)));
  const grams = reservedGrams(job);
  const stock = stockOf(job);

  let changed: number;
  if (transition.inventory === "reserve") {
    // stock is taken in the same transaction; grams >= 0 is a CHECK, so short stock rolls it all back
    const [row] = await db.select({ grams: filamentInventory.grams }).from(filamentInventory).where(stock);
    if (!row || row.grams < grams) throw notInStock(job);
    try {
      const [update] = await db.batch([
        guarded,
        db
          .update(filamentInventory)
          .set({ grams: sql`${filamentInventory.grams} - ${grams}`, updatedAt: at })
          .where(and(stock, sql`changes() = 1`)),
      ]);
      changed = update.rowsAffected;
    } catch (error) {
      if (String(error).includes("CHECK constraint failed")) throw notInStock(job);
      throw error;
    }
  } else if (transition.inventory === "return") {
    // a cancel of a charged order reserves its refund in the same transaction: neither stands alone
    const charged = transition.payment === "refund" ? await paymentOfJob(job.id, ["captured", "refunded"]) : null;
    const cancelled = sql`EXISTS (SELECT 1 FROM ${printJobs} WHERE ${printJobs.id} = ${job.id}
      AND ${printJobs.status} = ${transition.to} AND ${printJobs.updatedAt} = ${now})`;
    const inventory = columnNames(
      filamentInventory.printerId,
      filamentInventory.material,
      filamentInventory.color,
      filamentInventory.grams,
      filamentInventory.updatedAt,
    );
    const [gramsColumn, updatedAt] = [columnNames(filamentInventory.grams), columnNames(filamentInventory.updatedAt)];
    const returned = db.run(sql`INSERT INTO ${filamentInventory} (${inventory})
      SELECT ${job.printerId}, ${job.material}, ${job.filamentColor}, ${grams}, ${now} WHERE changes() = 1
      ON CONFLICT (${columnNames(filamentInventory.printerId, filamentInventory.material, filamentInventory.color)})
      DO UPDATE SET ${gramsColumn} = ${gramsColumn} + excluded.${gramsColumn}, ${updatedAt} = excluded.${updatedAt}`);
    const [update] = charged
      ? await db.batch([guarded, returned, reservationStatement(db, { payment: charged, amountCents: "rest" }, cancelled)])
      : await db.batch([guarded, returned]);
    changed = update.rowsAffected;
  } else {
    changed = (await guarded).rowsAffected;
  }
  if (changed !== 1) throw new AppError("conflict", LOST_RACE);

  await moveMoney(party, transition, now);
  await tellOtherParty(party, transition, trackingNumber?.slice(0, 64) ?? null);
  return { jobId: job.id, status: transition.to, deliveryMethod: job.deliveryMethod, transition };
}

/** The winner of a transition moves the money once. */
async function moveMoney(party: JobParty, transition: Transition, now: number) {
  const jobId = party.job.id;
  if (transition.payment === "capture") {
    // the order's own payment (recorded when it confirmed the order); older orders: the authorised one
    const ordersPayment = party.job.confirmedPaymentId ? await findPayment(party.job.confirmedPaymentId) : null;
    const payment = ordersPayment?.status === "authorized" ? ordersPayment : await paymentOfJob(jobId, ["authorized"]);
    if (!payment) return;
    const provider = await getPaymentProvider();
    faultPoint("accept:after-status");
    try {
      await provider.capture(payment.providerPaymentId);
    } catch (error) {
      await undoAccept(party, transition, now);
      throw error instanceof AppError
        ? error
        : new AppError("unavailable", "We couldn't charge the customer's card. Please try again.", { cause: error });
    }
    faultPoint("accept:after-capture");
    await movePayment(payment.providerPaymentId, ["authorized"], "captured", { now });
  } else if (transition.payment === "release") {
    faultPoint("cancel:after-status");
    // every payment still open or authorised: none of them may charge the customer later
    const failed = await releaseOpenPayments(jobId, now);
    // the job's status stands; a payment the provider refused to cancel keeps its state for a retry
    if (failed.length > 0) console.error(`payment release failed for job ${jobId}`, failed.length);
  } else if (transition.payment === "refund") {
    // reserved with the status; what the provider can't do now the money reconciliation finishes
    await sendPendingRefunds(jobId, now);
  }
}

/**
 * A capture that failed undoes the accept it belongs to: the job goes back to the status the
 * table's accept row left (confirmed), its accept stamp is cleared and its filament returned, in
 * one transaction. This is a compensating write, not a lifecycle step: nobody chooses it, it
 * follows only a failed capture inside the same transitionJob call, so it has no row of its own;
 * it is guarded on the row's `to` status so it can't overwrite a change made meanwhile, and it
 * notifies nobody (the accept's notice is sent only after the capture succeeds).
 */
async function undoAccept(party: JobParty, transition: Transition, now: number) {
  const { job } = party;
  const db = await getDb();
  const stamp: Partial<Record<JobStamp, null>> = { [transition.stamp]: null };
  await db.batch([
    db
      .update(printJobs)
      .set({ status: transition.from, ...stamp, updatedAt: new Date(now) })
      .where(and(eq(printJobs.id, job.id), eq(printJobs.status, transition.to))),
    db
      .update(filamentInventory)
      .set({ grams: sql`${filamentInventory.grams} + ${reservedGrams(job)}` })
      .where(and(stockOf(job), sql`changes() = 1`)),
  ]);
}

async function tellOtherParty(party: JobParty, transition: Transition, trackingNumber: string | null) {
  const { job } = party;
  const notice = transitionNotice(transition.action, transition.actor, {
    fileName: job.fileName,
    quantity: job.quantity,
    trackingNumber: transition.action === "mark_shipped" ? trackingNumber : null,
    deliveryMethod: job.deliveryMethod,
    shippingServiceName: job.shippingService ? shippingServiceName(job.shippingService) : null,
  });
  const link = `/order/${job.id}`;
  const toCustomer = transition.actor !== "customer";
  // the owner hears of an order once it is paid (payment is their New Order Request), never before
  const toOwner =
    transition.actor !== "owner" && (reachedOwner(job) || reachedOwner({ status: transition.to, confirmedAt: job.confirmedAt }));
  // the customer's word of a payment is the receipt, not a notification
  if (transition.action === "pay") await sendReceipt(party);
  if (toCustomer && transition.action !== "pay") {
    await notify(job.customerId, notice.title, notice.message, link, {
      kind: transitionNoticeKind(transition.action, "customer"),
    });
  }
  if (toOwner && party.ownerId) {
    await notify(party.ownerId, notice.title, notice.message, link, { kind: transitionNoticeKind(transition.action, "owner") });
  }
}
