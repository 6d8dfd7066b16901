// The order page and /messages through the app's router: opening an order or a thread with nothing unread
// writes nothing, an unread thread still becomes read, and no statement runs twice for one page.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages } from "../../db/schema";
import * as dashboardPage from "../../app/routes/dashboard";
import { loader as dashboardLoader } from "../../app/routes/dashboard";
import * as printerDashboardPage from "../../app/routes/printer-dashboard";
import * as printerTrackingPage from "../../app/routes/printer-tracking";
import * as messagesPage from "../../app/routes/messages";
import * as orderPage from "../../app/routes/order.$id";
import { openThread } from "../../app/services/conversations.server";
import { saveReview } from "../../app/services/printer-reviews.server";
import { hydratePrinters, listOwnerPrinters, listOwnPrinters } from "../../app/services/printers/records.server";
import { getSiteStats } from "../../app/services/stats.server";
import { filamentInventory } from "../../db/schema";
import { getClient, getDb } from "../../app/utils/db.server";
import { appRouter, statementsRun } from "../setup/app-router";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

const handle = appRouter({
  "routes/order.$id": orderPage,
  "routes/messages": messagesPage,
  "routes/dashboard": dashboardPage,
  "routes/printer-dashboard": printerDashboardPage,
  "routes/printer-tracking": printerTrackingPage,
});
const WRITE = /^(insert|update|delete|replace)\b/i;

async function orderWithMessage(readAt: Date | null) {
  const owner = await createTestUser({ userType: "printer_owner" });
  const customer = await createTestUser();
  const printer = await createTestPrinter(owner.id);
  const job = await createTestJob(customer.id, printer.id, "accepted");
  const db = await getDb();
  const [message] = await db
    .insert(messages)
    .values({ jobId: job.id, senderId: owner.id, senderType: "printer", content: "Printing tomorrow", readAt })
    .returning();
  return {
    jobId: job.id,
    messageId: message.id,
    customerId: customer.id,
    cookie: await sessionCookieFor(customer.id),
    ownerCookie: await sessionCookieFor(owner.id),
  };
}

async function readAtOf(messageId: number) {
  const db = await getDb();
  const [row] = await db.select({ readAt: messages.readAt }).from(messages).where(eq(messages.id, messageId));
  return row.readAt;
}

/** A page's loaders as the browser asks for them (single fetch), and the statements they ran. */
async function visit(path: string, cookie: string) {
  let status = 0;
  const statements = await statementsRun(async () => {
    const url = new URL(path, "http://localhost:3000");
    url.pathname += ".data";
    const response = await handle(getRequest(url.href, cookie));
    status = response.status;
    await response.text();
  });
  return { status, statements };
}

describe("the order page's reads", () => {
  it("writes nothing when the thread has nothing unread", async () => {
    const readAt = new Date(Date.now() - 60_000);
    const { jobId, messageId, cookie } = await orderWithMessage(readAt);
    const { status, statements } = await visit(`/order/${jobId}`, cookie);
    expect(status).toBe(200);
    expect(statements.length).toBeGreaterThan(3);
    expect(statements.filter((sql) => WRITE.test(sql))).toEqual([]);
    expect(await readAtOf(messageId)).toEqual(readAt);
  });

  it("still marks the other party's unread messages read", async () => {
    const { jobId, messageId, cookie } = await orderWithMessage(null);
    const { status, statements } = await visit(`/order/${jobId}`, cookie);
    expect(status).toBe(200);
    // the mark, and the conversation's e-mail window closed: the reader has caught up
    expect(statements.filter((sql) => WRITE.test(sql))).toEqual([
      expect.stringMatching(/^update "messages" set "read_at"/),
      expect.stringMatching(/^DELETE FROM mail_batches/),
    ]);
    expect(await readAtOf(messageId)).toBeInstanceOf(Date);
  });

  it("reads each fact once: no statement runs twice for one view", async () => {
    const { jobId, cookie } = await orderWithMessage(new Date());
    const { statements } = await visit(`/order/${jobId}`, cookie);
    expect(statements.filter((sql, i) => statements.indexOf(sql) !== i)).toEqual([]);
  });
});

describe("/messages' reads", () => {
  it("writes nothing when the open thread has nothing unread, and marks an unread one read", async () => {
    const read = await orderWithMessage(new Date());
    const quiet = await visit(`/messages?jobId=${read.jobId}`, read.cookie);
    expect(quiet.status).toBe(200);
    expect(quiet.statements.filter((sql) => WRITE.test(sql))).toEqual([]);

    const unread = await orderWithMessage(null);
    const opened = await visit(`/messages?jobId=${unread.jobId}`, unread.cookie);
    expect(opened.status).toBe(200);
    expect(opened.statements.some((sql) => /^update "messages" set "read_at"/.test(sql))).toBe(true);
    expect(await readAtOf(unread.messageId)).toBeInstanceOf(Date);
  });
});

describe("opening a thread", () => {
  it("answers the marked messages with the read time stored, as a read after the mark would", async () => {
    const { jobId, messageId, customerId } = await orderWithMessage(null);
    const { messages: thread, markedRead } = await openThread(jobId, customerId);
    expect(markedRead).toBe(1);
    expect(thread.map((m) => m.readAt)).toEqual([(await readAtOf(messageId))!.toISOString()]);
    expect(await openThread(jobId, customerId)).toEqual({ messages: thread, markedRead: 0 });
  });
});

describe("review links", () => {
  it("are looked up only for jobs that can be reviewed, and still shown for them", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const active = await createTestJob(customer.id, printer.id, "printing");
    const dashboard = async (tab: string) => {
      let data: { jobs: Array<{ id: number; review: { reviewed: boolean } | null }> } | undefined;
      const statements = await statementsRun(async () => {
        data = (await dashboardLoader(
          args(getRequest(`/dashboard?tab=${tab}`, await sessionCookieFor(customer.id))),
        )) as typeof data;
      });
      return { jobs: data!.jobs, asked: statements.some((sql) => sql.includes('"printer_reviews"')) };
    };
    expect(await dashboard("all")).toEqual({ jobs: [expect.objectContaining({ id: active.id, review: null })], asked: false });

    const done = await createTestJob(customer.id, printer.id, "picked_up");
    const withDone = await dashboard("all");
    expect(withDone.asked).toBe(true);
    expect(withDone.jobs.find((j) => j.id === done.id)?.review).toEqual({ reviewed: false });
    await saveReview({ jobId: done.id, customerId: customer.id, rating: 5, review: "" });
    expect((await dashboard("all")).jobs.find((j) => j.id === done.id)?.review).toEqual({ reviewed: true });
  });
});

describe("one statement where one does", () => {
  it("reads an owner's printers, newest first, as one statement that builds the records", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const older = await createTestPrinter(owner.id, { name: "Older", createdAt: new Date(Date.now() - 60_000) });
    const newer = await createTestPrinter(owner.id, { name: "Newer" });
    let listed: Awaited<ReturnType<typeof listOwnerPrinters>> = [];
    const statements = await statementsRun(async () => {
      listed = await listOwnerPrinters(owner.id, { viewerId: owner.id });
    });
    expect(statements).toHaveLength(1);
    expect(listed).toEqual(await hydratePrinters([newer.id, older.id], { viewerId: owner.id }));
  });

  it("reads the dashboard's printers as one statement, each as the full record shows it to its owner", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const customer = await createTestUser();
    const older = await createTestPrinter(owner.id, {
      name: "Older",
      isAvailable: false,
      materials: ["PLA", "PETG"],
      createdAt: new Date(Date.now() - 60_000),
    });
    const newer = await createTestPrinter(owner.id, {
      name: "Newer",
      imageKey: "printer-images/2026/11/0123456789abcdef0123456789abcdef.png",
    });
    const db = await getDb();
    await db.insert(filamentInventory).values([
      { printerId: older.id, material: "PLA", color: "Red", grams: 0 },
      { printerId: older.id, material: "PETG", color: "Black", grams: 750 },
      { printerId: older.id, material: "PLA", color: "Blue", grams: 200 },
    ]);
    await createTestJob(customer.id, older.id, "picked_up");
    let listed: Awaited<ReturnType<typeof listOwnPrinters>> = [];
    const statements = await statementsRun(async () => {
      listed = await listOwnPrinters(owner.id);
    });
    expect(statements).toHaveLength(1);
    const full = await listOwnerPrinters(owner.id, { viewerId: owner.id });
    expect(listed.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(listed).toEqual(
      full.map((p) => ({
        id: p.id,
        name: p.name,
        model: p.model,
        location: p.location,
        isAvailable: p.isAvailable,
        ratePerKgCents: p.ratePerKgCents,
        buildVolumeX: p.buildVolumeX,
        buildVolumeY: p.buildVolumeY,
        buildVolumeZ: p.buildVolumeZ,
        materials: p.materials,
        imageUrl: p.imageUrl,
        filamentInventory: p.filamentInventory,
      })),
    );
    expect(listed[1]!.filamentInventory.map((row) => [row.material, row.color, row.inStock])).toEqual([
      ["PETG", "Black", true],
      ["PLA", "Blue", true],
      ["PLA", "Red", false],
    ]);
  });

  it("counts the landing page's statistics in two statements: the printers near by and the three counts", async () => {
    const statements = await statementsRun(() => getSiteStats());
    expect(statements).toHaveLength(2);
  });
});

/**
 * The plan lines of a statement that read rows of other people's: a table (or a CTE's source) read whole,
 * or the jobs' status index, which holds every job of the marketplace. A name the statement itself defines
 * (a CTE or a subquery, "mine AS (" or ") AS f") holds the visitor's rows only and may be read whole.
 */
async function marketplaceWideReads(sql: string): Promise<string[]> {
  const client = await getClient();
  const plan = await client.execute(`EXPLAIN QUERY PLAN ${sql}`);
  const ownName = (name: string) => new RegExp(`\\b${name} AS \\(|\\) AS ${name}\\b`).test(sql);
  return plan.rows
    .map((row) => String(row.detail))
    .filter((line) => {
      const scanned = /^SCAN (\w+)/.exec(line)?.[1];
      if (scanned && scanned !== "CONSTANT" && !ownName(scanned)) return true;
      return /print_jobs_status_idx/.test(line);
    });
}

describe("a signed-in page's reads start from the visitor's own rows", () => {
  it("reads no table whole and no marketplace-wide index, however many jobs and messages others have", async () => {
    const { jobId, cookie: customerCookie, ownerCookie } = await orderWithMessage(null);
    const visits = [
      ["/dashboard", customerCookie],
      [`/order/${jobId}`, customerCookie],
      ["/messages", customerCookie],
      ["/messages", ownerCookie],
      ["/printer-dashboard", ownerCookie],
      ["/printer-tracking?tab=pickup", ownerCookie],
      ["/printer-tracking?tab=shipping", ownerCookie],
    ] as const;
    const wide: Record<string, string[]> = {};
    for (const [path, cookie] of visits) {
      const { status, statements } = await visit(path, cookie);
      expect(status, path).toBe(200);
      expect(statements.length, path).toBeGreaterThan(2);
      for (const sql of statements) {
        const lines = await marketplaceWideReads(sql);
        if (lines.length) wide[`${path}: ${sql.slice(0, 80)}`] = lines;
      }
    }
    expect(wide).toEqual({});
  });
});
