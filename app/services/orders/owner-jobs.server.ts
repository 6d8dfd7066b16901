// Reads of an owner's jobs over all of their printers: the dashboard's sections, the tracking tabs a page at a
// time, the stat cards, and the lists the owner APIs answer.
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { printers, printJobs, users } from "../../../db/schema";
import {
  OWNER_ACTIVE,
  OWNER_COMPLETED,
  OWNER_COMPLETED_SHOWN,
  OWNER_PENDING,
  OWNER_PICKUP_TRACKED,
  OWNER_SHIPPING_TRACKED,
  type JobStatus,
  type TrackingTab,
} from "~/domain/job-status";
import { getDb, preparedQuery, type Database } from "~/utils/db.server";
import { readRows } from "~/utils/read-rows.server";
import {
  jobListSelect,
  listColumns,
  newestPageIds,
  quoted,
  reachedOwnerOf,
  reachedOwnerSql,
  REFUNDED_SQL,
  type JobListItem,
  type ListPage,
  type SqlNumber,
} from "./jobs.server";

/**
 * From the owner's printers to their jobs: CROSS JOIN keeps that order. Asked for some statuses, SQLite
 * otherwise started from the status index and walked every job of those statuses in the marketplace
 * (22 ms a view at 50,000 jobs; decision 036).
 */
function ownerJobsSelect(db: Database, where: SQL | undefined, order: "oldest" | "newest" = "oldest") {
  const by = order === "oldest" ? asc : desc;
  return db
    .select(listColumns)
    .from(printers)
    .crossJoin(printJobs)
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .where(and(eq(printJobs.printerId, printers.id), where, reachedOwnerOf()))
    .orderBy(by(sql.raw(paidAtSql("print_jobs"))), by(printJobs.id));
}

/**
 * When an order was paid (made, if it never was) as SQL over the print_jobs row named `job`: an owner's lists run in
 * this order, and print_jobs_printer_paid_idx holds it written the same way (drizzle/0017).
 */
function paidAtSql(job: string): string {
  return `coalesce(${job}.confirmed_at, ${job}.created_at)`;
}

const TRACKED_STATUSES: Record<TrackingTab, readonly JobStatus[]> = {
  pickup: OWNER_PICKUP_TRACKED,
  shipping: OWNER_SHIPPING_TRACKED,
  payouts: OWNER_COMPLETED,
};

/**
 * A tracking tab's orders (domain/job-status.ts) as an SQL condition on the print_jobs row named `job`: the tab's
 * list and ownerStats' count of it both use it.
 */
function trackedSql(tab: TrackingTab, job = "j"): string {
  const delivery =
    tab === "pickup"
      ? `${job}.delivery_method = 'pickup' AND `
      : tab === "shipping"
        ? `${job}.delivery_method <> 'pickup' AND `
        : "";
  return `(${delivery}${job}.status IN (${quoted(TRACKED_STATUSES[tab])}))`;
}

/** How many orders a tracking tab holds: the stat card that counts them (ownerStats). */
export function trackedCount(stats: OwnerStats, tab: TrackingTab): number {
  return tab === "pickup" ? stats.pickupOrders : tab === "shipping" ? stats.shippingOrders : stats.completed;
}

/** Orders of one owner's printers by status and by when they were paid (or made); see drizzle/0017. */
const PAID_ORDER_INDEX = "print_jobs_printer_paid_idx";

/**
 * The ids of one page of a tracking tab over all of the owner's printers (an id, or the placeholder of a prepared
 * query), newest paid first, from PAID_ORDER_INDEX (printer, status, when paid, delivery method) without reading
 * the orders' rows: reading the tab in one go sorted every order of it with its customer and refunds, 3 ms a page
 * at 3,000 orders (decision 036). Every tracked status is one an order has only after reaching its owner
 * (domain/job-status.test.ts), so no row is read to ask.
 */
function trackedPageIds(owner: SqlNumber, tab: TrackingTab, page: ListPage): SQL {
  return newestPageIds({
    statuses: TRACKED_STATUSES[tab],
    from: `print_jobs j INDEXED BY ${PAID_ORDER_INDEX}`,
    where: (status) =>
      sql`j.printer_id IN (SELECT id FROM printers WHERE owner_id = ${owner}) AND j.status = ${sql.raw(quoted([status]))} AND ${sql.raw(trackedSql(tab, "j"))}`,
    newest: paidAtSql,
    page,
  });
}

/** One page of a tracking tab's orders over all of the owner's printers, newest first. */
export async function listTrackedJobs(ownerId: number, tab: TrackingTab, page: { offset: number; limit: number }) {
  // from the page's ids to their rows (no CROSS JOIN from the printers: that would walk every order of theirs)
  return jobListSelect(await getDb())
    .where(and(sql`${printJobs.id} IN (${trackedPageIds(ownerId, tab, page)})`, eq(printers.ownerId, ownerId), reachedOwnerOf()))
    .orderBy(desc(sql.raw(paidAtSql("print_jobs"))), desc(printJobs.id));
}

/** All of an owner's jobs, built once: the owner APIs list them. */
const allOwnerJobs = preparedQuery((db) => ownerJobsSelect(db, eq(printers.ownerId, sql.placeholder("ownerId"))).prepare());

/** Jobs sent to any of this owner's printers (never unpaid ones: owners see confirmed onwards), oldest first. */
export async function listOwnerJobs(ownerId: number, options: { printerId?: number } = {}) {
  const db = await getDb();
  if (!options.printerId) return allOwnerJobs(db).all({ ownerId });
  return ownerJobsSelect(db, and(eq(printers.ownerId, ownerId), eq(printJobs.printerId, options.printerId)));
}

/** The owner dashboard's and tracking page's stat cards, counted in SQL over all the owner's printers. */
export async function ownerStats(ownerId: number) {
  const [r] = await readRows({
    sql: `SELECT
            (SELECT count(*) FROM printers WHERE owner_id = ?1) AS printers,
            (SELECT count(*) FROM printers WHERE owner_id = ?1 AND is_available = 1) AS online_printers,
            count(j.id) FILTER (WHERE j.status IN (${quoted(OWNER_PENDING)})) AS pending,
            count(j.id) FILTER (WHERE j.status IN (${quoted(OWNER_ACTIVE)})) AS active,
            count(j.id) FILTER (WHERE ${trackedSql("payouts")}) AS completed,
            count(j.id) FILTER (WHERE ${reachedOwnerSql("j")}) AS total_jobs,
            coalesce(sum(max(0, j.printer_profit_cents - ${REFUNDED_SQL})) FILTER (WHERE j.status IN (${quoted(OWNER_COMPLETED)})), 0) AS earnings,
            coalesce(sum(${REFUNDED_SQL}), 0) AS refunded,
            count(j.id) FILTER (WHERE ${trackedSql("pickup")}) AS pickup_orders,
            count(j.id) FILTER (WHERE ${trackedSql("shipping")}) AS shipping_orders,
            coalesce((SELECT sum(amount_cents - reversed_cents) FROM payouts WHERE owner_id = ?1 AND status = 'paid'), 0) AS paid_out
          FROM print_jobs j JOIN printers p ON p.id = j.printer_id
          WHERE p.owner_id = ?1`,
    args: [ownerId],
  });
  const n = (key: string) => Number(r?.[key] ?? 0);
  return {
    printers: n("printers"),
    onlinePrinters: n("online_printers"),
    pending: n("pending"),
    active: n("active"),
    completed: n("completed"),
    totalJobs: n("total_jobs"),
    earningsCents: n("earnings"),
    refundedCents: n("refunded"),
    pickupOrders: n("pickup_orders"),
    shippingOrders: n("shipping_orders"),
    paidOutCents: n("paid_out"),
  };
}

export type OwnerStats = Awaited<ReturnType<typeof ownerStats>>;

/**
 * The dashboard's jobs: every new request and active job, and only the newest completed ones. A busy
 * owner's history grows without end; drawing all of it cost 150 ms a view at 3,000 finished jobs.
 */
const dashboardOwnerJobs = preparedQuery((db) =>
  ownerJobsSelect(
    db,
    and(
      eq(printers.ownerId, sql.placeholder("ownerId")),
      // the completed ones are the Payouts tab's orders: its first page of OWNER_COMPLETED_SHOWN
      sql`(${printJobs.status} IN (${sql.raw(quoted([...OWNER_PENDING, ...OWNER_ACTIVE]))}) OR ${printJobs.id} IN (${trackedPageIds(
        sql.placeholder("ownerId"),
        "payouts",
        { offset: 0, limit: OWNER_COMPLETED_SHOWN },
      )}))`,
    ),
  ).prepare(),
);

/** The printer dashboard's order sections (the owner groupings of domain/job-status.ts) over all of the owner's printers. */
export async function ownerOrderSections(ownerId: number) {
  const db = await getDb();
  const [jobs, counts] = await Promise.all([dashboardOwnerJobs(db).all({ ownerId }), ownerStats(ownerId)]);
  const row = (j: JobListItem) => ({
    id: j.id,
    fileName: j.fileName,
    status: j.status,
    material: j.material,
    filamentColor: j.filamentColor,
    deliveryMethod: j.deliveryMethod,
    weightGrams: j.estimatedWeightGrams,
    quantity: j.quantity,
    printerId: j.printerId,
    printerName: j.printerName,
    customerName: [j.customerFirstName, j.customerLastName].filter(Boolean).join(" "),
    totalCents: j.amountDueCents,
    earningsCents: j.printerProfitCents,
    trackingNumber: j.trackingNumber,
  });
  const pick = (statuses: readonly JobStatus[]) => jobs.filter((j) => statuses.includes(j.status)).map(row);
  // only what the cards show; completed counts them all, beyond the newest shown
  const stats = {
    pending: counts.pending,
    earningsCents: counts.earningsCents,
    totalJobs: counts.totalJobs,
    completed: counts.completed,
  };
  return {
    stats,
    requests: pick(OWNER_PENDING),
    active: pick(OWNER_ACTIVE),
    completed: pick(OWNER_COMPLETED).reverse(),
  };
}
