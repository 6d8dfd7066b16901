// The log of what the money reconciliation finished or undid, per order (decision 039): a row each,
// read by the admin order page. Details are providers' ids and messages, never user content.
import { desc, eq } from "drizzle-orm";
import { moneyRepairs } from "../../../db/schema";
import type { MoneyRepairKind } from "~/domain/payments";
import { getDb } from "~/utils/db.server";

export async function recordRepair(jobId: number, kind: MoneyRepairKind, detail: string | null = null): Promise<void> {
  const db = await getDb();
  await db.insert(moneyRepairs).values({ jobId, kind, detail: detail?.slice(0, 300) ?? null });
  console.info(`money repair: ${kind} for job ${jobId}`);
}

/** The order's repairs, newest first. */
export async function repairsOfJob(jobId: number) {
  const db = await getDb();
  return db
    .select({ id: moneyRepairs.id, kind: moneyRepairs.kind, detail: moneyRepairs.detail, createdAt: moneyRepairs.createdAt })
    .from(moneyRepairs)
    .where(eq(moneyRepairs.jobId, jobId))
    .orderBy(desc(moneyRepairs.id));
}
