// /messages lists a reader's newest conversations from each order's kept newest message (print_jobs.last_message_id,
// kept by the messages_last triggers of drizzle/0016_newest_threads.sql): whatever is written or deleted, the kept id
// is the newest message's, and the list is the one a fresh look at every message gives.
import { eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { messages, printJobs, printers, users } from "../../db/schema";
import { CONVERSATION_LIMIT, listConversations } from "../../app/services/conversations.server";
import { getClient, getDb } from "../../app/utils/db.server";
import { statementsRun } from "../setup/app-router";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createTestUser } from "../setup/requests";

/** Orders whose kept newest message is not their newest message: none, when the triggers do their work. */
async function keptWrong() {
  const client = await getClient();
  const result =
    await client.execute(`SELECT j.id, j.last_message_id AS kept, (SELECT max(id) FROM messages WHERE job_id = j.id) AS newest
    FROM print_jobs j WHERE j.last_message_id IS NOT (SELECT max(id) FROM messages WHERE job_id = j.id)`);
  return result.rows.map((row) => ({ job: Number(row.id), kept: row.kept, newest: row.newest }));
}

async function write(jobId: number, senderId: number, senderType: "customer" | "printer", content: string) {
  const [row] = await (await getDb()).insert(messages).values({ jobId, senderId, senderType, content }).returning();
  return row!.id;
}

describe("the newest conversations", () => {
  it("keep each order's newest message through writes, deletes and a deleted account", async () => {
    const db = await getDb();
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const leaving = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const first = await createTestJob(customer.id, printer.id, "accepted", "first.stl");
    const second = await createTestJob(leaving.id, printer.id, "printing", "second.stl");

    const asked = await write(first.id, customer.id, "customer", "Is it ready?");
    await write(second.id, leaving.id, "customer", "Hello");
    const answered = await write(first.id, owner.id, "printer", "Tomorrow.");
    expect(await keptWrong()).toEqual([]);
    const [row] = await db.select({ kept: printJobs.lastMessageId }).from(printJobs).where(eq(printJobs.id, first.id));
    expect(row?.kept).toBe(answered);

    // the newest deleted: the one before it is the newest again; an older one deleted changes nothing
    await db.delete(messages).where(eq(messages.id, answered));
    expect(await keptWrong()).toEqual([]);
    await write(first.id, owner.id, "printer", "Done.");
    await db.delete(messages).where(eq(messages.id, asked));
    expect(await keptWrong()).toEqual([]);
    // an account deleted with its orders and its messages
    await db.delete(users).where(eq(users.id, leaving.id));
    expect(await keptWrong()).toEqual([]);
    // every message of an order deleted: it has no conversation left
    await db.delete(messages).where(eq(messages.jobId, first.id));
    expect(await keptWrong()).toEqual([]);
    expect(await listConversations(owner.id)).toEqual([]);
  });

  it("lists the newest first, a page of them, with each one's last message and unread count", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const other = await createTestPrinter(owner.id, { name: "Second printer" });
    const count = CONVERSATION_LIMIT + 5;
    const jobs: number[] = [];
    for (let i = 0; i < count; i++) {
      const job = await createTestJob(customer.id, i % 2 ? other.id : printer.id, "accepted", `part-${i}.stl`);
      jobs.push(job.id);
      await write(job.id, customer.id, "customer", `question ${i}`);
    }
    // the owner answers the oldest: it becomes the newest conversation of both, each with one unread message
    await write(jobs[0]!, owner.id, "printer", "answer");
    for (const reader of [customer.id, owner.id]) {
      const list = await listConversations(reader);
      expect(list).toHaveLength(CONVERSATION_LIMIT);
      expect(list[0]).toMatchObject({ jobId: jobs[0], lastMessage: "answer", unreadCount: 1 });
      // then the others, newest first, down to the ones a page leaves out
      expect(list.slice(1, 4).map((c) => c.jobId)).toEqual([jobs[count - 1], jobs[count - 2], jobs[count - 3]]);
      expect(list.map((c) => c.jobId)).not.toContain(jobs[1]);
    }
    expect((await listConversations(owner.id)).find((c) => c.jobId === jobs[count - 1])).toMatchObject({
      unreadCount: 1,
      lastMessage: `question ${count - 1}`,
      printerName: expect.any(String),
    });
    // a printer deleted takes its orders' conversations out of the owner's list, as before
    await (await getDb()).delete(printers).where(eq(printers.id, other.id));
    expect((await listConversations(owner.id)).every((c) => c.printerName !== "Second printer")).toBe(true);
  });

  it("fills a customer's page from the conversations still shown when the newest went with a deleted printer", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const kept = await createTestPrinter(owner.id);
    const gone = await createTestPrinter(owner.id, { name: "Sold printer" });
    for (let i = 0; i < CONVERSATION_LIMIT + 2; i++) {
      const job = await createTestJob(customer.id, kept.id, "shipped", `kept-${i}.stl`);
      await write(job.id, customer.id, "customer", "thanks");
    }
    for (let i = 0; i < 5; i++) {
      const job = await createTestJob(customer.id, gone.id, "shipped", `gone-${i}.stl`);
      await write(job.id, customer.id, "customer", "thanks");
    }
    await (await getDb()).delete(printers).where(eq(printers.id, gone.id));
    const list = await listConversations(customer.id);
    expect(list).toHaveLength(CONVERSATION_LIMIT);
    expect(list.every((c) => c.jobFileName.startsWith("kept-"))).toBe(true);
  });

  it("reads a page of the user's conversations from the thread indexes, not every message", async () => {
    const user = await createTestUser();
    const [statement, ...more] = await statementsRun(() => listConversations(user.id));
    expect(more).toEqual([]);
    const client = await getClient();
    const steps = (
      await client.execute({ sql: `EXPLAIN QUERY PLAN ${statement}`, args: [user.id, CONVERSATION_LIMIT] })
    ).rows.map((r) => String(r.detail));
    expect(steps).toEqual(
      expect.arrayContaining([
        expect.stringContaining("USING INDEX print_jobs_customer_threads_idx"),
        expect.stringContaining("USING INDEX print_jobs_printer_threads_idx"),
      ]),
    );
    // messages are read only for the conversations shown: by their id and their order, never grouped over all
    expect(steps.filter((step) => /GROUP BY/.test(step))).toEqual([]);
  });

  it("fills in the newest message of orders written to before the migration", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer.id, "printing", "older.stl");
    await write(job.id, customer.id, "customer", "Is it ready?");
    const newest = await write(job.id, owner.id, "printer", "Soon.");
    const client = await getClient();
    await client.execute({ sql: "UPDATE print_jobs SET last_message_id = NULL WHERE id = ?", args: [job.id] });
    expect(await listConversations(customer.id)).toEqual([]);
    const migration = readFileSync(new URL("../../drizzle/0016_newest_threads.sql", import.meta.url), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((step) => step.trim().startsWith("UPDATE"));
    await client.execute(backfill!);
    expect(await keptWrong()).toEqual([]);
    expect((await listConversations(customer.id)).map((c) => [c.jobId, c.lastMessage])).toEqual([[job.id, "Soon."]]);
    expect(newest).toBeGreaterThan(0);
  });
});
