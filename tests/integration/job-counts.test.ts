// The landing page's job counts come from job_counts, which triggers keep by status and month of submission
// (drizzle/0014_marketplace_scale.sql): whatever happens to the jobs, the kept counts are the jobs counted afresh.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { printJobs, users } from "../../db/schema";
import type { JobStatus } from "../../app/domain/job-status";
import { getSiteStats, startOfMonthUtc } from "../../app/services/stats.server";
import { getClient, getDb } from "../../app/utils/db.server";
import { createTestUser } from "../setup/requests";

/** [status, month, n] rows, sorted: as kept, and as counted from print_jobs now. */
async function keptAndCounted() {
  const client = await getClient();
  const rows = async (sql: string) =>
    (await client.execute(sql)).rows.map((row) => [String(row.status), String(row.month), Number(row.n)]);
  const kept = await rows("SELECT status, month, n FROM job_counts WHERE n <> 0 ORDER BY status, month");
  const counted = await rows(
    `SELECT status, coalesce(strftime('%Y-%m', submitted_at / 1000, 'unixepoch'), '') AS month, count(*) AS n
     FROM print_jobs GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return { kept, counted };
}

describe("job counts kept by triggers", () => {
  it("match a fresh count after inserts, status changes, submissions, moves between months and deletes", async () => {
    const db = await getDb();
    const customer = await createTestUser();
    const leaving = await createTestUser();
    const thisMonth = startOfMonthUtc(new Date());
    const lastMoment = new Date(thisMonth.getTime() - 1); // the last millisecond of last month
    const add = async (customerId: number, status: JobStatus, submittedAt: Date | null) =>
      (await db.insert(printJobs).values({ customerId, status, fileName: "part.stl", submittedAt }).returning())[0]!.id;

    const draft = await add(customer.id, "draft", null);
    const paid = await add(customer.id, "confirmed", thisMonth);
    const older = await add(customer.id, "picked_up", lastMoment);
    await add(customer.id, "shipped", lastMoment); // paid last month, and stays there
    const many = await Promise.all([1, 2, 3].map(() => add(customer.id, "printing", new Date())));
    await add(leaving.id, "shipped", new Date());
    await add(leaving.id, "draft", null);
    const first = await keptAndCounted();
    expect(first.kept).toEqual(first.counted);

    // a draft submitted and paid, a job moving on, one moved into another month, an update that changes nothing
    await db.update(printJobs).set({ status: "confirmed", submittedAt: new Date() }).where(eq(printJobs.id, draft));
    await db.update(printJobs).set({ status: "accepted" }).where(eq(printJobs.id, paid));
    await db
      .update(printJobs)
      .set({ submittedAt: new Date(lastMoment.getTime() + 1) })
      .where(eq(printJobs.id, older));
    await db.update(printJobs).set({ fileName: "renamed.stl" }).where(inArray(printJobs.id, many));
    // one job deleted, and a user's jobs deleted with the account
    await db.delete(printJobs).where(eq(printJobs.id, many[0]!));
    await db.delete(users).where(eq(users.id, leaving.id));

    const { kept, counted } = await keptAndCounted();
    expect(kept).toEqual(counted);
    expect(counted.length).toBeGreaterThan(1);
    const month = thisMonth.toISOString().slice(0, 7);
    expect(counted).toEqual(
      expect.arrayContaining([
        ["accepted", month, 1],
        ["confirmed", month, 1],
        ["picked_up", month, 1],
        ["printing", expect.any(String), 2],
      ]),
    );
    // as the landing page shows them: paid this month (accepted, confirmed, picked_up, printing × 2), and all
    // orders (those and last month's shipped one)
    expect(await getSiteStats()).toMatchObject({ printsThisMonth: 5, totalOrders: 6 });
  });
});
