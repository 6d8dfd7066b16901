// Helpers for integration tests: printers and print jobs in the test's database, statuses set directly; a task's worker dying.
import { eq } from "drizzle-orm";
import { backgroundTasks, printers, printJobs } from "../../db/schema";
import type { JobStatus } from "~/domain/job-status";
import { getDb } from "../../app/utils/db.server";

export async function createTestPrinter(ownerId: number, overrides: Partial<typeof printers.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(printers)
    .values({
      ownerId,
      name: "Test printer",
      model: "Prusa MK4",
      buildVolumeX: 250,
      buildVolumeY: 210,
      buildVolumeZ: 220,
      fitSmall: 210,
      fitMid: 220,
      fitLarge: 250,
      ratePerKgCents: 10000,
      location: "Fort Collins, CO",
      latitude: 40.5853,
      longitude: -105.0844,
      ...overrides,
    })
    .returning();
  return row;
}

export async function createTestJob(
  customerId: number,
  printerId: number | null,
  status: JobStatus = "confirmed",
  fileName = "bracket.stl",
) {
  const db = await getDb();
  const [row] = await db
    .insert(printJobs)
    .values({ customerId, printerId, status, fileName, submittedAt: new Date() })
    .returning();
  return row;
}

/** A job's row as it is now. */
export async function jobRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(printJobs).where(eq(printJobs.id, id));
  return row!;
}

/** The worker holding this task dies (kill -9): nobody renews its lease, which has run out, and its writes no longer count. */
export async function workerDies(taskId: number) {
  const db = await getDb();
  await db
    .update(backgroundTasks)
    .set({ lockedBy: "dead-worker", leaseExpiresAt: new Date(0) })
    .where(eq(backgroundTasks.id, taskId));
}
