// The header's unread-message count starts from the reader's unread messages (messages.recipient_id, set by the
// messages_recipient trigger of drizzle/0015_unread_by_recipient.sql): whoever writes a message and however, it is
// counted for the party it was written to, as counting afresh from each of the reader's orders counts it.
import { eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { messages, printers, users } from "../../db/schema";
import type { JobStatus } from "../../app/domain/job-status";
import { reachedOwnerSql } from "../../app/services/orders/jobs.server";
import { countUnreadMessages, readHeader } from "../../app/services/notifications.server";
import { getClient, getDb } from "../../app/utils/db.server";
import { statementsRun } from "../setup/app-router";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createTestUser } from "../setup/requests";

/**
 * The count as it was before recipients were kept: messages in the orders the user placed, and in the orders of
 * the user's printers that reached the owner and that the user did not place, that someone else sent, unread.
 */
async function countedFromOrders(userId: number): Promise<number> {
  const client = await getClient();
  const result = await client.execute({
    sql: `SELECT (SELECT count(*) FROM print_jobs j JOIN messages m ON m.job_id = j.id
                   WHERE j.customer_id = ?1 AND m.read_at IS NULL AND m.sender_id <> ?1)
               + (SELECT count(*) FROM printers p JOIN print_jobs j ON j.printer_id = p.id JOIN messages m ON m.job_id = j.id
                   WHERE p.owner_id = ?1 AND j.customer_id IS NOT ?1 AND ${reachedOwnerSql("j")}
                     AND m.read_at IS NULL AND m.sender_id <> ?1) AS n`,
    args: [userId],
  });
  return Number(result.rows[0]?.n);
}

async function write(jobId: number, senderId: number, senderType: "customer" | "printer", content: string) {
  const [row] = await (await getDb()).insert(messages).values({ jobId, senderId, senderType, content }).returning();
  return row!.id;
}

async function recipientOf(messageId: number) {
  const [row] = await (
    await getDb()
  )
    .select({ recipientId: messages.recipientId })
    .from(messages)
    .where(eq(messages.id, messageId));
  return row?.recipientId;
}

describe("unread messages counted from their recipients", () => {
  it("names the other party of the order as each message's recipient, whoever inserts it", async () => {
    const customer = await createTestUser();
    const owner = await createTestUser({ userType: "printer_owner" });
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer.id, "accepted", "bracket.stl");
    const own = await createTestJob(owner.id, printer.id, "printing", "own-part.stl");

    expect(await recipientOf(await write(job.id, customer.id, "customer", "Is it ready?"))).toBe(owner.id);
    expect(await recipientOf(await write(job.id, owner.id, "printer", "Tomorrow."))).toBe(customer.id);
    // an owner's order at their own printer: written to themselves, never counted as unread
    expect(await recipientOf(await write(own.id, owner.id, "customer", "note to self"))).toBe(owner.id);
    expect(await countUnreadMessages(owner.id)).toBe(1);
    expect(await countUnreadMessages(customer.id)).toBe(1);
  });

  it("counts what a fresh count from each order counts, through payment, refusal, reading and a deleted printer", async () => {
    const db = await getDb();
    const owner = await createTestUser({ userType: "printer_owner" });
    const other = await createTestUser({ userType: "printer_owner" });
    const customers = [await createTestUser(), await createTestUser(), await createTestUser()];
    const printer = await createTestPrinter(owner.id);
    const second = await createTestPrinter(owner.id);
    const elsewhere = await createTestPrinter(other.id);
    const everyone = [owner, other, ...customers];

    const statuses: JobStatus[] = ["draft", "submitted", "confirmed", "accepted", "printing", "shipped", "rejected", "cancelled"];
    const jobs: Array<{ id: number; customerId: number; ownerId: number }> = [];
    for (const [i, status] of statuses.entries()) {
      const customer = customers[i % customers.length]!;
      const at = [printer, second, elsewhere][i % 3]!;
      const job = await createTestJob(customer.id, at.id, status, `part-${i}.stl`);
      jobs.push({ id: job.id, customerId: customer.id, ownerId: at.ownerId });
    }
    // an order of the owner's at their own printer, and one of the other owner's at the owner's printer
    const own = await createTestJob(owner.id, printer.id, "accepted", "own.stl");
    jobs.push({ id: own.id, customerId: owner.id, ownerId: owner.id });
    const across = await createTestJob(other.id, second.id, "printing", "across.stl");
    jobs.push({ id: across.id, customerId: other.id, ownerId: owner.id });

    // both sides write in every order, unpaid ones included (the service refuses those; the count must not care)
    const written: number[] = [];
    for (const job of jobs) {
      written.push(await write(job.id, job.customerId, "customer", "question"));
      written.push(await write(job.id, job.ownerId, "printer", "answer"));
      written.push(await write(job.id, job.customerId, "customer", "thanks"));
    }
    const same = async () => {
      for (const user of everyone) {
        const counted = await countedFromOrders(user.id);
        expect({ user: user.id, unread: await countUnreadMessages(user.id) }).toEqual({ user: user.id, unread: counted });
        expect((await readHeader(user.id, 5)).unreadMessages).toBe(counted);
      }
    };
    await same();
    expect(await countedFromOrders(owner.id)).toBeGreaterThan(0);

    // some are read, an order moves on, one is refused after payment, and a printer goes with its orders' owner side
    await db.update(messages).set({ readAt: new Date() }).where(eq(messages.id, written[1]!));
    await db.update(messages).set({ readAt: new Date() }).where(eq(messages.id, written[9]!));
    await (await getClient()).execute({ sql: "UPDATE print_jobs SET status = 'confirmed' WHERE id = ?", args: [jobs[1]!.id] });
    await (await getClient()).execute({ sql: "UPDATE print_jobs SET status = 'rejected' WHERE id = ?", args: [jobs[4]!.id] });
    await same();
    await db.delete(printers).where(eq(printers.id, second.id));
    await same();
    // an account deleted: its messages to others stay in their threads, its own unread ones go with it
    await db.delete(users).where(eq(users.id, other.id));
    await same();
  });

  it("names the recipients of messages written before the migration", async () => {
    const customer = await createTestUser();
    const owner = await createTestUser({ userType: "printer_owner" });
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer.id, "printing", "older.stl");
    const asked = await write(job.id, customer.id, "customer", "Is it ready?");
    const answered = await write(job.id, owner.id, "printer", "Soon.");
    const client = await getClient();
    // as the rows stood before drizzle/0015 added the column
    await client.execute({ sql: "UPDATE messages SET recipient_id = NULL WHERE job_id = ?", args: [job.id] });
    expect(await countUnreadMessages(owner.id)).toBe(0);
    const migration = readFileSync(new URL("../../drizzle/0015_unread_by_recipient.sql", import.meta.url), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((step) => step.trim().startsWith("UPDATE"));
    await client.execute(backfill!);
    expect([await recipientOf(asked), await recipientOf(answered)]).toEqual([owner.id, customer.id]);
    expect(await countUnreadMessages(owner.id)).toBe(await countedFromOrders(owner.id));
    expect(await countUnreadMessages(owner.id)).toBe(1);
  });

  it("starts from the reader's unread messages, not from each of the reader's orders", async () => {
    const customer = await createTestUser();
    const client = await getClient();
    const [statement, ...more] = await statementsRun(() => readHeader(customer.id, 5));
    expect(more).toEqual([]);
    const steps = (await client.execute({ sql: `EXPLAIN QUERY PLAN ${statement}`, args: [customer.id, 5] })).rows.map((r) =>
      String(r.detail),
    );
    expect(steps).toEqual(
      expect.arrayContaining([expect.stringContaining("USING INDEX messages_recipient_idx (recipient_id=? AND read_at=?)")]),
    );
    // no walk over the reader's orders, as customer or as owner
    expect(steps.filter((step) => /print_jobs_customer_idx|print_jobs_printer_idx/.test(step))).toEqual([]);
  });
});
