// Every order as the admin sees it: a filtered list and one order, read-only.
import { and, desc, eq, like, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { payments, printers, printJobs, users } from "../../../db/schema";
import { JOB_STATUSES, type JobStatus } from "~/domain/job-status";
import { repairsOfJob } from "~/services/orders/money-repairs.server";
import { getDb } from "~/utils/db.server";

export const ADMIN_ORDERS_PAGE = 50;

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === "string" && (JOB_STATUSES as readonly string[]).includes(value);
}

const owners = alias(users, "owners");

export async function listOrders(filter: { status?: JobStatus | null; q?: string | null; page?: number }) {
  const db = await getDb();
  const q = filter.q?.trim();
  const id = q && /^#?\d+$/.test(q) ? Number(q.replace("#", "")) : null;
  const where = and(
    filter.status ? eq(printJobs.status, filter.status) : ne(printJobs.status, "draft"),
    q
      ? or(
          id ? eq(printJobs.id, id) : undefined,
          like(users.email, `%${q}%`),
          like(users.username, `%${q}%`),
          like(printers.name, `%${q}%`),
          like(printJobs.fileName, `%${q}%`),
        )
      : undefined,
  );
  const page = Math.max(1, filter.page ?? 1);
  const rows = await db
    .select({
      id: printJobs.id,
      status: printJobs.status,
      fileName: printJobs.fileName,
      customer: users.email,
      printer: printers.name,
      amountDueCents: printJobs.amountDueCents,
      createdAt: printJobs.createdAt,
    })
    .from(printJobs)
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .leftJoin(printers, eq(printers.id, printJobs.printerId))
    .where(where)
    .orderBy(desc(printJobs.createdAt), desc(printJobs.id))
    .limit(ADMIN_ORDERS_PAGE + 1)
    .offset((page - 1) * ADMIN_ORDERS_PAGE);
  return { orders: rows.slice(0, ADMIN_ORDERS_PAGE), hasMore: rows.length > ADMIN_ORDERS_PAGE, page };
}

export async function getOrderForAdmin(id: number) {
  const db = await getDb();
  const [order] = await db
    .select({
      job: printJobs,
      customerEmail: users.email,
      customerName: sql<string>`trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`,
      printerName: printers.name,
      ownerEmail: owners.email,
    })
    .from(printJobs)
    .innerJoin(users, eq(users.id, printJobs.customerId))
    .leftJoin(printers, eq(printers.id, printJobs.printerId))
    .leftJoin(owners, eq(owners.id, printers.ownerId))
    .where(eq(printJobs.id, id));
  if (!order) return null;
  const paymentRows = await db
    .select({
      id: payments.id,
      provider: payments.provider,
      amountCents: payments.amountCents,
      status: payments.status,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(eq(payments.jobId, id))
    .orderBy(desc(payments.createdAt));
  // the delivery address is for the customer and the printer fulfilling it only
  const {
    fileKey: _fileKey,
    previewKey: _previewKey,
    analysis: _analysis,
    deliveryAddress: _deliveryAddress,
    ...job
  } = order.job;
  return { ...order, job, payments: paymentRows, repairs: await repairsOfJob(id) };
}
