// Reads of orders for the people in them: the customer and the owner of the job's printer (an owner's lists
// over all their printers are in owner-jobs.server.ts).
import { and, desc, eq, ne, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias, SQLiteAsyncDialect, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { printers, printJobs, refunds, users, type PrintJob } from "../../../db/schema";
import { seesDeliveryAddress } from "~/domain/address";
import type { JobActor } from "~/domain/job-lifecycle";
import {
  CUSTOMER_TABS,
  customerTabStatuses,
  OWNER_VISIBLE,
  PAID_STATUSES,
  reachedOwner,
  type CustomerTab,
  type JobStatus,
} from "~/domain/job-status";
import { getDb, preparedQuery, type Database } from "~/utils/db.server";
import { readFromPrimaryOnMiss } from "~/utils/replica.server";

/** Statuses (our own constants, never input) as the items of an SQL IN list. */
export const quoted = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(", ");

/** Column names, bare, as an INSERT's column list or an upsert's SET needs them (a renamed column follows the schema). */
export function columnNames(...columns: AnySQLiteColumn[]): SQL {
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

/** The print_jobs columns the fragments read: the table's, or an alias's (`alias(printJobs, "j")`). */
export type JobsTable = Record<"id" | "status" | "confirmedAt", AnySQLiteColumn>;

/**
 * reachedOwner (domain/job-status.ts) as an SQL condition on the print_jobs row `jobs` (the table or an alias):
 * every owner read uses it, so an unpaid order never shows to its owner (decision 029).
 */
export function reachedOwnerOf(jobs: JobsTable = printJobs): SQL<boolean> {
  return sql<boolean>`(${jobs.status} IN (${sql.raw(quoted(OWNER_VISIBLE))}) AND NOT (${jobs.status} = 'cancelled' AND ${jobs.confirmedAt} IS NULL))`;
}

/** What was refunded on the print_jobs row `jobs`, made or on its way, in cents; earnings exclude it (decision 040). */
export function refundedOf(jobs: JobsTable = printJobs): SQL<number> {
  return sql<number>`(SELECT coalesce(sum(${refunds.amountCents}), 0) FROM ${refunds} WHERE ${refunds.jobId} = ${jobs.id})`;
}

const dialect = new SQLiteAsyncDialect();
/** A fragment without parameters as SQL text, for the statements still written as text (over the alias `j`). */
const asText = (fragment: SQL) => dialect.sqlToQuery(fragment).sql;

/** reachedOwnerOf as SQL text over the print_jobs alias `job`, for statements written as text. */
export function reachedOwnerSql(job = "j"): string {
  return asText(reachedOwnerOf(alias(printJobs, job)));
}
/** refundedOf as SQL text over the print_jobs alias `j`. */
export const REFUNDED_SQL = asText(refundedOf(alias(printJobs, "j")));

/** Whether this user is the owner of the job's printer as far as the job goes: only once it was paid. */
function isJobOwner(job: Pick<PrintJob, "status" | "confirmedAt">, printerOwnerId: number | null | undefined, userId: number) {
  return printerOwnerId === userId && reachedOwner(job);
}

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

/** How a user stands to a job: its customer, the owner of its printer (once paid), or nobody (null: answer 404). */
export function roleOf(party: Pick<JobParty, "job" | "ownerId">, userId: number): "customer" | "owner" | null {
  if (isJobOwner(party.job, party.ownerId, userId)) return "owner";
  if (party.job.customerId === userId) return "customer";
  return null;
}

/** The actor a user is for one action: an owner who also ordered acts as customer for customer actions. */
export function actorFor(party: JobParty, userId: number, customerAction: boolean): JobActor | null {
  if (customerAction && party.job.customerId === userId) return "customer";
  if (isJobOwner(party.job, party.ownerId, userId)) return "owner";
  if (party.job.customerId === userId) return "customer";
  return null;
}

/** Whether two users have a paid order between them: one of them its customer, the other the owner of its printer. */
export async function havePaidOrderBetween(userA: number, userB: number): Promise<boolean> {
  const db = await getDb();
  const between = (customer: number, owner: number) => and(eq(printJobs.customerId, customer), eq(printers.ownerId, owner));
  const [found] = await db
    .select({ one: sql<number>`1` })
    .from(printJobs)
    .innerJoin(printers, eq(printers.id, printJobs.printerId))
    .where(and(sql`${printJobs.status} IN (${sql.raw(quoted(PAID_STATUSES))})`, or(between(userA, userB), between(userB, userA))))
    .limit(1);
  return found !== undefined;
}

const customer = alias(users, "customer");
const owner = alias(users, "owner");

/** An order with its printer, the printer's owner and the customer: the order page reads it on every view. */
const orderWithParties = preparedQuery((db) =>
  db
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
    .where(and(eq(printJobs.id, sql.placeholder("jobId")), ne(printJobs.status, "draft")))
    .limit(1)
    .prepare(),
);

/** Everything the order page and GET /api/print-jobs/{id} show, for the customer or the owner only (else null). */
export async function getOrderForViewer(jobId: number, viewerId: number) {
  const db = await getDb();
  // an order placed, or paid, through another machine a moment ago
  return readFromPrimaryOnMiss(async () => {
    const row = await orderWithParties(db).get({ jobId });
    if (!row) return null;
    const viewerRole = isJobOwner(row.job, row.printer?.ownerId, viewerId)
      ? "owner"
      : row.job.customerId === viewerId
        ? "customer"
        : null;
    if (!viewerRole) return null;
    const job = seesDeliveryAddress(viewerRole, row.job.status) ? row.job : { ...row.job, deliveryAddress: null };
    return { ...row, job, viewerRole } as const;
  });
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
    // the recipient and the phone: the customer's, and the owner's while the paid order is theirs to fulfil
    deliveryAddress: job.deliveryAddress ?? null,
    shippingService: job.shippingService,
    specialInstructions: job.specialInstructions,
    estimatedWeight: job.estimatedWeightGrams,
    numberOfColors: job.numberOfColors,
    printTimeMinutes: job.printTimeMinutes,
    quantity: job.quantity,
    units: job.units,
    scalePercent: job.scalePercent,
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

/** Refunds of the job, made or on their way (decision 040), as a column of a print_jobs select. */
const refundedCentsColumn = refundedOf();

export const listColumns = {
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
  quantity: printJobs.quantity,
  createdAt: printJobs.createdAt,
  submittedAt: printJobs.submittedAt,
  printerId: printJobs.printerId,
  printerName: printers.name,
  customerId: printJobs.customerId,
  customerFirstName: users.firstName,
  customerLastName: users.lastName,
  customerEmail: users.email,
  refundedCents: refundedCentsColumn,
};
export type JobListItem = Awaited<ReturnType<typeof listCustomerOrders>>[number];

/** Jobs with the list columns (their customer and printer), read from print_jobs: the where names which. */
export function jobListSelect(db: Database) {
  return db
    .select(listColumns)
    .from(printJobs)
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .leftJoin(printers, eq(printers.id, printJobs.printerId));
}

/** The customer's orders (not drafts), newest first. */
export async function listCustomerOrders(customerId: number) {
  return jobListSelect(await getDb())
    .where(and(eq(printJobs.customerId, customerId), ne(printJobs.status, "draft")))
    .orderBy(desc(printJobs.createdAt), desc(printJobs.id));
}

/** A number in a query, or the placeholder of a prepared query's. */
export type SqlNumber = number | Placeholder;

/** One page of a list. */
export interface ListPage {
  offset: SqlNumber;
  limit: SqlNumber;
}

/**
 * The ids of one page of jobs over several statuses, newest first, as an SQL subquery. Each status is read from the
 * newest end of an index that holds the status and then the order, as far as the page reaches, and those few are
 * merged: one walk of several statuses would sort every job of them instead (decision 036). `from` names print_jobs
 * `j` (with the index to read when SQLite would not pick it), `where` picks one status's jobs of `j`, and `newest` is
 * the order's expression over a print_jobs alias, written as the index holds it.
 */
export function newestPageIds(list: {
  statuses: readonly JobStatus[];
  from: string;
  where: (status: JobStatus) => SQL;
  newest: (job: string) => string;
  page: ListPage;
}): SQL {
  const { offset, limit } = list.page;
  const newestOf = (status: JobStatus) =>
    sql`SELECT * FROM (SELECT j.id, ${sql.raw(list.newest("j"))} AS at FROM ${sql.raw(list.from)} WHERE ${list.where(status)}
          ORDER BY ${sql.raw(list.newest("j"))} DESC, j.id DESC LIMIT ${offset} + ${limit})`;
  return sql`SELECT id FROM (${sql.join(list.statuses.map(newestOf), sql` UNION ALL `)})
    ORDER BY at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
}

/** The ids of one page of the customer's jobs in a tab's statuses, from print_jobs_customer_idx (customer, status, created_at). */
function customerPageIds(statuses: readonly JobStatus[]): SQL {
  return newestPageIds({
    statuses,
    from: "print_jobs j",
    where: (status) => sql`j.customer_id = ${sql.placeholder("customerId")} AND j.status = ${sql.raw(quoted([status]))}`,
    newest: (job) => `${job}.created_at`,
    page: { offset: sql.placeholder("offset"), limit: sql.placeholder("limit") },
  });
}

/** A page of the customer's dashboard tab (drafts too), newest first, one query built per tab. */
const customerTabPages = new Map(
  CUSTOMER_TABS.map(({ id }) => [
    id,
    preparedQuery((db) =>
      db
        .select({
          id: printJobs.id,
          fileName: printJobs.fileName,
          status: printJobs.status,
          material: printJobs.material,
          filamentColor: printJobs.filamentColor,
          amountDueCents: printJobs.amountDueCents,
          totalCostCents: printJobs.totalCostCents,
          createdAt: printJobs.createdAt,
          printerName: printers.name,
          deliveryMethod: printJobs.deliveryMethod,
          refundedCents: refundedCentsColumn,
          quantity: printJobs.quantity,
        })
        .from(printJobs)
        .leftJoin(printers, eq(printers.id, printJobs.printerId))
        .where(sql`${printJobs.id} IN (${customerPageIds(customerTabStatuses(id))})`)
        .orderBy(desc(printJobs.createdAt), desc(printJobs.id))
        .prepare(),
    ),
  ]),
);

export async function listCustomerJobs(customerId: number, tab: CustomerTab, page: { offset: number; limit: number }) {
  return customerTabPages.get(tab)!(await getDb()).all({ customerId, ...page });
}

/** How many jobs each of the customer's tabs holds, and what the paid ones cost less refunds: the stat cards. */
const customerCounts = preparedQuery((db) =>
  db
    .select({
      ...(Object.fromEntries(
        CUSTOMER_TABS.map(({ id }) => [
          id,
          sql<number>`count(*) FILTER (WHERE ${printJobs.status} IN (${sql.raw(quoted(customerTabStatuses(id)))}))`,
        ]),
      ) as Record<CustomerTab, SQL<number>>),
      spentCents: sql<number>`coalesce(sum(coalesce(${printJobs.amountDueCents}, 0) - ${refundedCentsColumn}) FILTER (WHERE ${printJobs.status} IN (${sql.raw(quoted(PAID_STATUSES))})), 0)`,
    })
    .from(printJobs)
    .where(eq(printJobs.customerId, sql.placeholder("customerId")))
    .prepare(),
);

export async function customerJobCounts(customerId: number) {
  const [counts] = await customerCounts(await getDb()).all({ customerId });
  return counts!;
}
