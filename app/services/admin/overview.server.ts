// The admin overview: counts across the marketplace, money from the payment records, the
// contact inbox and the running background jobs.
import { getClient } from "~/utils/db.server";
import type { JobSummary } from "~/domain/background-jobs";
import { listJobSummaries } from "./jobs.server";

export interface AdminOverview {
  usersByRole: { customers: number; printerOwners: number; both: number; admins: number; total: number };
  printers: { online: number; offline: number };
  ordersByStatus: Record<string, number>;
  money: {
    heldCents: number;
    capturedCents: number;
    refundedCents: number;
    paidOutCents: number;
    platformFeesThisMonthCents: number;
  };
  contactMessages: { id: number; name: string; email: string; subject: string; createdAt: number }[];
  runningJobs: JobSummary[];
}

const n = (value: unknown) => Number(value ?? 0);

export function startOfMonthUtc(now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

export async function getAdminOverview(now = new Date()): Promise<AdminOverview> {
  const client = await getClient();
  const [users, printers, orders, money, fees, contact] = await client.batch(
    [
      `SELECT sum(user_type = 'customer') AS customers, sum(user_type = 'printer_owner') AS owners,
              sum(user_type = 'both') AS both_, sum(is_admin) AS admins, count(*) AS total FROM users`,
      "SELECT sum(is_available) AS online, sum(NOT is_available) AS offline FROM printers",
      "SELECT status, count(*) AS n FROM print_jobs WHERE status <> 'draft' GROUP BY status",
      `SELECT (SELECT coalesce(sum(amount_cents), 0) FROM payments WHERE status = 'authorized') AS held,
              (SELECT coalesce(sum(amount_cents), 0) FROM payments WHERE status = 'captured') AS captured,
              (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE status = 'succeeded') AS refunded,
              (SELECT coalesce(sum(amount_cents - reversed_cents), 0) FROM payouts WHERE status = 'paid') AS paid_out`,
      {
        sql: `SELECT coalesce(sum(j.platform_fee_cents), 0) AS fees FROM payments p JOIN print_jobs j ON j.id = p.job_id
              WHERE p.status = 'captured' AND p.captured_at >= ?`,
        args: [startOfMonthUtc(now)],
      },
      "SELECT id, name, email, subject, created_at FROM contact_messages ORDER BY created_at DESC, id DESC LIMIT 5",
    ],
    "read",
  );
  const u = users.rows[0];
  return {
    usersByRole: {
      customers: n(u.customers),
      printerOwners: n(u.owners),
      both: n(u.both_),
      admins: n(u.admins),
      total: n(u.total),
    },
    printers: { online: n(printers.rows[0].online), offline: n(printers.rows[0].offline) },
    ordersByStatus: Object.fromEntries(orders.rows.map((r) => [String(r.status), n(r.n)])),
    money: {
      heldCents: n(money.rows[0].held),
      capturedCents: n(money.rows[0].captured),
      refundedCents: n(money.rows[0].refunded),
      paidOutCents: n(money.rows[0].paid_out),
      platformFeesThisMonthCents: n(fees.rows[0].fees),
    },
    contactMessages: contact.rows.map((r) => ({
      id: n(r.id),
      name: String(r.name),
      email: String(r.email),
      subject: String(r.subject),
      createdAt: n(r.created_at),
    })),
    runningJobs: await listJobSummaries({ statuses: ["queued", "running"], limit: 10 }),
  };
}
