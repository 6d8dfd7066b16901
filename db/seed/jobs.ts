// Casey's jobs: a draft and orders in every status across the demo owners' printers (pickup, local delivery and
// shipping), priced by the price engine and the shipping rate table, with the payment records each status implies
// (authorised, captured, released, refunded) and one payout.
import type { JobStatus } from "../../app/domain/job-status";
import { orderTotal, quotePrice, type DeliveryMethod } from "../../app/domain/pricing";
import { tableShippingQuote } from "../../app/domain/shipping";
import { milesBetweenZips } from "../../app/services/shipping/rates.server";
import type { Database } from "../../app/utils/db.server";
import { eq } from "drizzle-orm";
import * as s from "../schema";
import { DEMO_PRINTERS } from "./printers";
import { CUSTOMER_ADDRESS, CUSTOMER_ZIP } from "./users";

const SEED_SHIPPING_SERVICE = "usps_ground_advantage";

export type SeedJob = {
  status: JobStatus;
  fileName: string;
  /** one copy's */
  grams: number;
  /** one copy's */
  minutes: number;
  /** copies in the order; 1 when absent */
  copies?: number;
  /** index into DEMO_PRINTERS */
  printer: number | null;
  delivery?: DeliveryMethod;
  tracking?: string;
  paidOut?: boolean;
};

export const DEMO_JOBS: SeedJob[] = [
  { status: "draft", fileName: "bracket.stl", grams: 42, minutes: 120, printer: null },
  { status: "submitted", fileName: "gear-set.3mf", grams: 85, minutes: 240, printer: 1 },
  { status: "confirmed", fileName: "phone-stand.stl", grams: 55, minutes: 150, printer: 0 },
  { status: "confirmed", fileName: "cable-clip.stl", grams: 8, minutes: 20, printer: 3, copies: 4 },
  { status: "accepted", fileName: "drawer-handle.stl", grams: 30, minutes: 80, printer: 1 },
  { status: "printing", fileName: "lamp-shade.stl", grams: 160, minutes: 540, printer: 0 },
  { status: "completed", fileName: "plant-pot.stl", grams: 120, minutes: 300, printer: 3, delivery: "shipping" },
  { status: "ready_for_pickup", fileName: "dice-tower.3mf", grams: 140, minutes: 420, printer: 0 },
  { status: "ready_for_shipping", fileName: "desk-organiser.stl", grams: 210, minutes: 600, printer: 1, delivery: "shipping" },
  { status: "picked_up", fileName: "name-tag.obj", grams: 12, minutes: 35, printer: 3, copies: 10 },
  { status: "picked_up", fileName: "coaster-set.stl", grams: 48, minutes: 110, printer: 0, paidOut: true },
  {
    status: "shipped",
    fileName: "headphone-hook.stl",
    grams: 36,
    minutes: 95,
    printer: 2,
    delivery: "shipping",
    tracking: "9400111202555842761234",
  },
  { status: "ready_for_shipping", fileName: "shelf-bracket.stl", grams: 64, minutes: 160, printer: 0, delivery: "delivery" },
  { status: "cancelled", fileName: "keychain.stl", grams: 6, minutes: 15, printer: 1 },
  { status: "rejected", fileName: "vase.stl", grams: 250, minutes: 700, printer: 2 },
];

const hour = 60 * 60 * 1000;

/** Whether the job went through this step on its way to its status. */
function reached(job: SeedJob, step: JobStatus) {
  const order = ["submitted", "confirmed", "accepted", "printing", "completed"] as const;
  const finals = ["ready_for_pickup", "ready_for_shipping", "picked_up", "shipped"];
  const index = (st: string) =>
    finals.includes(st) ? 5 + (st === "picked_up" || st === "shipped" ? 1 : 0) : order.indexOf(st as never);
  if (job.status === "cancelled" || job.status === "rejected") return step === "submitted" || step === "confirmed";
  return index(job.status) >= index(step);
}

/** Every copy's grams and minutes together. */
function orderedFigures(job: SeedJob) {
  const copies = job.copies ?? 1;
  return { grams: job.grams * copies, minutes: job.minutes * copies, copies };
}

/** The job's price as an order placed today: shipping by the built-in rate table from the printer's ZIP to Casey's. */
function priceJob(job: SeedJob) {
  const printerIndex = job.printer;
  const rate = printerIndex === null ? undefined : DEMO_PRINTERS[printerIndex].rate;
  const { grams, minutes, copies } = orderedFigures(job);
  const quote = quotePrice({ weightGrams: grams, printTimeMinutes: minutes, quantity: copies, ratePerKgCents: rate });
  const delivery = job.delivery ?? "pickup";
  let shippingCents: number | null = null;
  if (delivery === "shipping" && printerIndex !== null) {
    const miles = milesBetweenZips(DEMO_PRINTERS[printerIndex].zip, CUSTOMER_ZIP);
    if (miles === null) throw new Error(`The gazetteer lacks ${DEMO_PRINTERS[printerIndex].zip} or ${CUSTOMER_ZIP}`);
    const option = tableShippingQuote(grams, miles).options.find((o) => o.service === SEED_SHIPPING_SERVICE);
    shippingCents = option!.estimatedCost;
  }
  const { deliveryFee, total } = orderTotal({ quote, deliveryMethod: delivery, shippingCents });
  return { quote, delivery, deliveryFee, total };
}

/** When the job passed each step, `base` being its submission; null for steps it never reached. */
function jobTimes(job: SeedJob, base: number) {
  const at = (step: JobStatus, offsetHours: number) => (reached(job, step) ? new Date(base + offsetHours * hour) : null);
  const ready =
    job.status === "ready_for_pickup" ||
    job.status === "ready_for_shipping" ||
    job.status === "picked_up" ||
    job.status === "shipped";
  const stopped = job.status === "rejected" || job.status === "cancelled";
  return {
    submittedAt: job.status === "draft" ? null : new Date(base),
    confirmedAt: at("confirmed", 0.1),
    acceptedAt: stopped ? null : at("accepted", 1),
    rejectedAt: job.status === "rejected" ? new Date(base + hour) : null,
    cancelledAt: job.status === "cancelled" ? new Date(base + hour) : null,
    printingStartedAt: stopped ? null : at("printing", 2),
    completedAt: stopped ? null : at("completed", 4),
    readyAt: ready ? new Date(base + 4.5 * hour) : null,
    pickedUpAt: job.status === "picked_up" ? new Date(base + 5 * hour) : null,
    shippedAt: job.status === "shipped" ? new Date(base + 5 * hour) : null,
  };
}

/** Inserts Casey's jobs with their payments and the one payout; returns the job ids by file name. */
export async function seedJobs(
  db: Database,
  customerId: number,
  userIds: Map<string, number>,
  printerIds: number[],
): Promise<Map<string, number>> {
  const jobIds = new Map<string, number>();
  for (const [i, job] of DEMO_JOBS.entries()) {
    const printerIndex = job.printer;
    const { quote, delivery, deliveryFee, total } = priceJob(job);
    const base = Date.now() - (DEMO_JOBS.length - i) * 6 * hour;
    const [row] = await db
      .insert(s.printJobs)
      .values({
        customerId,
        printerId: printerIndex === null ? null : printerIds[printerIndex],
        status: job.status,
        fileName: job.fileName,
        fileSize: 150_000,
        fileFormat: job.fileName.split(".").pop(),
        quantity: orderedFigures(job).copies,
        estimatedWeightGrams: orderedFigures(job).grams,
        printTimeMinutes: orderedFigures(job).minutes,
        deliveryMethod: delivery,
        deliveryZip: delivery === "pickup" ? null : CUSTOMER_ZIP,
        deliveryAddress: delivery === "pickup" ? null : CUSTOMER_ADDRESS,
        shippingCarrier: delivery === "shipping" ? "USPS" : null,
        shippingService: delivery === "shipping" ? SEED_SHIPPING_SERVICE : null,
        trackingNumber: job.tracking ?? null,
        totalCostCents: quote.customerPays,
        printerProfitCents: quote.printerProfit,
        platformFeeCents: quote.platformFee,
        deliveryFeeCents: deliveryFee,
        amountDueCents: total,
        ...jobTimes(job, base),
      })
      .returning({ id: s.printJobs.id });
    jobIds.set(job.fileName, row.id);
    if (!reached(job, "confirmed") || job.status === "draft") continue;
    await recordPayment(db, job, row.id, total, base);
    if (job.paidOut && printerIndex !== null) {
      await recordPayout(db, row.id, userIds.get(DEMO_PRINTERS[printerIndex].owner)!, quote.printerProfit);
    }
  }
  return jobIds;
}

/** The payment that confirmed the order, as paying records it: authorised, then captured or released by the job's status. */
async function recordPayment(db: Database, job: SeedJob, jobId: number, total: number, base: number): Promise<void> {
  const captured = !(job.status === "confirmed" || job.status === "cancelled" || job.status === "rejected");
  const providerPaymentId = `test_pi_seed_${jobId}`;
  await db.update(s.printJobs).set({ confirmedPaymentId: providerPaymentId }).where(eq(s.printJobs.id, jobId));
  await db.insert(s.payments).values({
    jobId,
    provider: "test",
    providerPaymentId,
    amountCents: total,
    status: captured ? "captured" : job.status === "confirmed" ? "authorized" : "released",
    authorizedAt: new Date(base + 0.1 * hour),
    authorizationExpiresAt: new Date(base + 0.1 * hour + 7 * 24 * hour),
    capturedAt: captured ? new Date(base + hour) : null,
    releasedAt: captured || job.status === "confirmed" ? null : new Date(base + hour),
  });
}

/** A paid-out job: the owner's test payout account and the transfer of their profit. */
async function recordPayout(db: Database, jobId: number, ownerId: number, amountCents: number): Promise<void> {
  await db
    .update(s.users)
    .set({ stripeAccountId: `acct_test_${ownerId}_seed` })
    .where(eq(s.users.id, ownerId));
  await db.insert(s.payouts).values({
    jobId,
    ownerId,
    amountCents,
    provider: "test",
    providerTransferId: `tr_test_job_${jobId}`,
    status: "paid",
  });
}
