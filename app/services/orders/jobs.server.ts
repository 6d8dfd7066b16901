// Reads of orders for the people in them: the customer and the owner of the job's printer.
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { printers, printJobs, users, type PrintJob } from "../../../db/schema";
import type { JobActor } from "~/domain/job-lifecycle";
import { OWNER_ACTIVE, OWNER_COMPLETED, OWNER_PENDING, OWNER_VISIBLE, type JobStatus } from "~/domain/job-status";
import { getClient, getDb, readFromPrimaryOnMiss } from "~/utils/db.server";

export interface JobParty {
  job: PrintJob;
  ownerId: number | null;
  printerName: string | null;
  printerZip: string | null;
}

/** The job with its printer's owner, whoever asks (flows decide who may act). */
export async function loadJobParty(jobId: number): Promise<JobParty | null> {
  const db = await getDb();
  const [row] = await db
    .select({ job: printJobs, ownerId: printers.ownerId, printerName: printers.name, printerZip: printers.zip })
    .from(printJobs)
    .leftJoin(printers, eq(printers.id, printJobs.printerId))
    .where(eq(printJobs.id, jobId))
    .limit(1);
  return row ?? null;
}

/** How a user stands to a job: its customer, the owner of its printer, or nobody (null: answer 404). */
export function roleOf(party: JobParty, userId: number): "customer" | "owner" | null {
  if (party.ownerId === userId) return "owner";
  if (party.job.customerId === userId) return "customer";
  return null;
}

/** The actor a user is for one action: an owner who also ordered acts as customer for customer actions. */
export function actorFor(party: JobParty, userId: number, customerAction: boolean): JobActor | null {
  if (customerAction && party.job.customerId === userId) return "customer";
  if (party.ownerId === userId) return "owner";
  if (party.job.customerId === userId) return "customer";
  return null;
}

const customer = alias(users, "customer");
const owner = alias(users, "owner");

/** Everything the order page and GET /api/print-jobs/{id} show, for the customer or the owner only (else null). */
export async function getOrderForViewer(jobId: number, viewerId: number) {
  const db = await getDb();
  // an order placed through another machine a moment ago
  const row = await readFromPrimaryOnMiss(async () => {
    const [found] = await db
      .select({
        job: printJobs,
        printer: {
          id: printers.id,
          name: printers.name,
          location: printers.location,
          zip: printers.zip,
          ownerId: printers.ownerId,
        },
        owner: {
          id: owner.id,
          firstName: owner.firstName,
          lastName: owner.lastName,
          username: owner.username,
          email: owner.email,
        },
        customer: {
          id: customer.id,
          firstName: customer.firstName,
          lastName: customer.lastName,
          username: customer.username,
          email: customer.email,
        },
      })
      .from(printJobs)
      .innerJoin(customer, eq(customer.id, printJobs.customerId))
      .leftJoin(printers, eq(printers.id, printJobs.printerId))
      .leftJoin(owner, eq(owner.id, printers.ownerId))
      .where(and(eq(printJobs.id, jobId), ne(printJobs.status, "draft")))
      .limit(1);
    return found;
  });
  if (!row) return null;
  const viewerRole = row.printer?.ownerId === viewerId ? "owner" : row.job.customerId === viewerId ? "customer" : null;
  if (!viewerRole) return null;
  return { ...row, viewerRole } as const;
}
export type OrderView = NonNullable<Awaited<ReturnType<typeof getOrderForViewer>>>;

/** The job as the JSON API answers it (money also in cents). */
export function orderJson(view: OrderView) {
  const { job } = view;
  return {
    id: job.id,
    fileName: job.fileName,
    fileSize: job.fileSize,
    printerId: job.printerId,
    material: job.material,
    filamentColor: job.filamentColor,
    deliveryMethod: job.deliveryMethod,
    deliveryZip: job.deliveryZip,
    shippingService: job.shippingService,
    specialInstructions: job.specialInstructions,
    estimatedWeight: job.estimatedWeightGrams,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    totalCost: (job.amountDueCents / 100).toFixed(2),
    totalCostCents: job.amountDueCents,
    printCostCents: job.totalCostCents,
    deliveryFeeCents: job.deliveryFeeCents,
    status: job.status,
    trackingNumber: job.trackingNumber,
    printer: view.printer
      ? {
          id: view.printer.id,
          name: view.printer.name,
          owner: view.owner
            ? { id: view.owner.id, firstName: view.owner.firstName, lastName: view.owner.lastName, username: view.owner.username }
            : null,
        }
      : null,
    // the customer's name and e-mail are for the printer owner (and the customer themself)
    customer: {
      id: view.customer.id,
      firstName: view.customer.firstName,
      lastName: view.customer.lastName,
      email: view.customer.email,
    },
    submittedAt: job.submittedAt,
    createdAt: job.createdAt,
    confirmedAt: job.confirmedAt,
    acceptedAt: job.acceptedAt,
    printingStartedAt: job.printingStartedAt,
    completedAt: job.completedAt,
    pickedUpAt: job.pickedUpAt,
    shippedAt: job.shippedAt,
    cancelledAt: job.cancelledAt,
  };
}

const listColumns = {
  id: printJobs.id,
  fileName: printJobs.fileName,
  status: printJobs.status,
  material: printJobs.material,
  filamentColor: printJobs.filamentColor,
  deliveryMethod: printJobs.deliveryMethod,
  amountDueCents: printJobs.amountDueCents,
  printerProfitCents: printJobs.printerProfitCents,
  trackingNumber: printJobs.trackingNumber,
  estimatedWeightGrams: printJobs.estimatedWeightGrams,
  createdAt: printJobs.createdAt,
  submittedAt: printJobs.submittedAt,
  printerId: printJobs.printerId,
  printerName: printers.name,
  customerId: printJobs.customerId,
  customerFirstName: users.firstName,
  customerLastName: users.lastName,
  customerEmail: users.email,
};
export type JobListItem = Awaited<ReturnType<typeof listCustomerOrders>>[number];

/** The customer's orders (not drafts), newest first. */
export async function listCustomerOrders(customerId: number) {
  const db = await getDb();
  return db
    .select(listColumns)
    .from(printJobs)
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .leftJoin(printers, eq(printers.id, printJobs.printerId))
    .where(and(eq(printJobs.customerId, customerId), ne(printJobs.status, "draft")))
    .orderBy(desc(printJobs.createdAt), desc(printJobs.id));
}

/** Jobs sent to any of this owner's printers (never unpaid ones: owners see confirmed onwards), oldest first. */
export async function listOwnerJobs(ownerId: number, options: { printerId?: number; statuses?: readonly JobStatus[] } = {}) {
  const db = await getDb();
  return db
    .select(listColumns)
    .from(printJobs)
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .where(
      and(
        eq(printers.ownerId, ownerId),
        options.printerId ? eq(printJobs.printerId, options.printerId) : undefined,
        inArray(printJobs.status, [...(options.statuses ?? OWNER_VISIBLE)]),
        // an order cancelled before it was paid never reached the owner
        sql`NOT (${printJobs.status} = 'cancelled' AND ${printJobs.confirmedAt} IS NULL)`,
      ),
    )
    .orderBy(asc(sql`coalesce(${printJobs.confirmedAt}, ${printJobs.createdAt})`), asc(printJobs.id));
}

const quoted = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(", ");
const inList = (statuses: readonly string[]) => sql.raw(quoted(statuses));

/** The customer dashboard's stat cards, counted in SQL. */
export async function customerStats(
  customerId: number,
  groups: { active: readonly JobStatus[]; completed: readonly JobStatus[]; paid: readonly JobStatus[] },
) {
  const db = await getDb();
  const [row] = await db
    .select({
      totalOrders: sql<number>`count(*) filter (where ${printJobs.status} <> 'draft')`,
      active: sql<number>`count(*) filter (where ${printJobs.status} in (${inList(groups.active)}))`,
      completed: sql<number>`count(*) filter (where ${printJobs.status} in (${inList(groups.completed)}))`,
      totalSpentCents: sql<number>`coalesce(sum(${printJobs.amountDueCents}) filter (where ${printJobs.status} in (${inList(groups.paid)})), 0)`,
    })
    .from(printJobs)
    .where(eq(printJobs.customerId, customerId));
  return {
    totalOrders: Number(row?.totalOrders ?? 0),
    active: Number(row?.active ?? 0),
    completed: Number(row?.completed ?? 0),
    totalSpentCents: Number(row?.totalSpentCents ?? 0),
  };
}

/** The owner dashboard's and tracking page's stat cards, counted in SQL over all the owner's printers. */
export async function ownerStats(ownerId: number) {
  const client = await getClient();
  const result = await client.execute({
    sql: `SELECT
            (SELECT count(*) FROM printers WHERE owner_id = ?1) AS printers,
            (SELECT count(*) FROM printers WHERE owner_id = ?1 AND is_available = 1) AS online_printers,
            count(j.id) FILTER (WHERE j.status IN (${quoted(OWNER_PENDING)})) AS pending,
            count(j.id) FILTER (WHERE j.status IN (${quoted(OWNER_ACTIVE)})) AS active,
            count(j.id) FILTER (WHERE j.status IN (${quoted(OWNER_COMPLETED)})) AS completed,
            count(j.id) FILTER (WHERE j.status NOT IN ('draft','submitted') AND NOT (j.status = 'cancelled' AND j.confirmed_at IS NULL)) AS total_jobs,
            coalesce(sum(j.printer_profit_cents) FILTER (WHERE j.status IN (${quoted(OWNER_COMPLETED)})), 0) AS earnings,
            count(j.id) FILTER (WHERE j.delivery_method = 'pickup' AND j.status IN ('completed','ready_for_pickup','picked_up')) AS pickup_orders,
            count(j.id) FILTER (WHERE j.delivery_method <> 'pickup' AND j.status IN ('completed','ready_for_shipping','shipped')) AS shipping_orders,
            coalesce((SELECT sum(amount_cents) FROM payouts WHERE owner_id = ?1 AND status = 'paid'), 0) AS paid_out
          FROM print_jobs j JOIN printers p ON p.id = j.printer_id
          WHERE p.owner_id = ?1`,
    args: [ownerId],
  });
  const r = result.rows[0]!;
  const n = (key: string) => Number(r[key] ?? 0);
  return {
    printers: n("printers"),
    onlinePrinters: n("online_printers"),
    pending: n("pending"),
    active: n("active"),
    completed: n("completed"),
    totalJobs: n("total_jobs"),
    earningsCents: n("earnings"),
    pickupOrders: n("pickup_orders"),
    shippingOrders: n("shipping_orders"),
    paidOutCents: n("paid_out"),
  };
}

/** The printer dashboard's order sections (the owner groupings of domain/job-status.ts) over all of the owner's printers. */
export async function ownerOrderSections(ownerId: number) {
  const jobs = await listOwnerJobs(ownerId);
  const stats = await ownerStats(ownerId);
  const row = (j: JobListItem) => ({
    id: j.id,
    fileName: j.fileName,
    status: j.status,
    material: j.material,
    filamentColor: j.filamentColor,
    deliveryMethod: j.deliveryMethod,
    weightGrams: j.estimatedWeightGrams,
    printerId: j.printerId,
    printerName: j.printerName,
    customerName: [j.customerFirstName, j.customerLastName].filter(Boolean).join(" "),
    totalCents: j.amountDueCents,
    earningsCents: j.printerProfitCents,
    trackingNumber: j.trackingNumber,
  });
  const pick = (statuses: readonly JobStatus[]) => jobs.filter((j) => statuses.includes(j.status)).map(row);
  return {
    stats,
    requests: pick(OWNER_PENDING),
    active: pick(OWNER_ACTIVE),
    completed: pick(OWNER_COMPLETED).reverse(),
  };
}
export type OwnerOrderSectionsData = Awaited<ReturnType<typeof ownerOrderSections>>;
