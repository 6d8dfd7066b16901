// A long history through the app's router. The printer dashboard draws every open order but only the newest
// completed ones, and says where the rest are; the owner's tracking tabs and the customer's dashboard tabs go
// through it a page at a time, newest first. The cards and tab counts still count all of it.
import { describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { payouts, printJobs } from "../../db/schema";
import * as dashboardPage from "../../app/routes/dashboard";
import * as printerDashboardPage from "../../app/routes/printer-dashboard";
import * as printerTrackingPage from "../../app/routes/printer-tracking";
import { ORDER_PAGE_SIZE } from "../../app/domain/paging";
import { getClient, getDb } from "../../app/utils/db.server";
import { customerTabStatuses, OWNER_COMPLETED, OWNER_COMPLETED_SHOWN } from "../../app/domain/job-status";
import { appRouter, statementsRun } from "../setup/app-router";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

const handle = appRouter({
  "routes/dashboard": dashboardPage,
  "routes/printer-dashboard": printerDashboardPage,
  "routes/printer-tracking": printerTrackingPage,
});

/**
 * An owner with `finished` picked-up or shipped orders (finished-1 the oldest; picked up when odd, for pickup,
 * shipped when even) and one new request.
 */
async function ownerWithHistory(finished: number) {
  const owner = await createTestUser({ userType: "printer_owner" });
  const customer = await createTestUser();
  const printer = await createTestPrinter(owner.id);
  const jobIds: number[] = [];
  for (let i = 1; i <= finished; i++) {
    const job = await createTestJob(customer.id, printer.id, i % 2 ? "picked_up" : "shipped", `finished-${i}.stl`);
    jobIds.push(job.id);
  }
  const db = await getDb();
  await db
    .update(printJobs)
    .set({ deliveryMethod: "shipping" })
    .where(and(inArray(printJobs.id, jobIds), eq(printJobs.status, "shipped")));
  await createTestJob(customer.id, printer.id, "confirmed", "new-request.stl");
  return {
    ownerId: owner.id,
    jobIds,
    cookie: await sessionCookieFor(owner.id),
    customerCookie: await sessionCookieFor(customer.id),
  };
}

/** The page's HTML as a browser gets it, without React's text separators. */
async function page(path: string, cookie: string) {
  const response = await handle(getRequest(path, cookie));
  expect(response.status).toBe(200);
  return (await response.text()).replaceAll("<!-- -->", "");
}

/** The finished orders (their numbers) that the page's rows of this test id name, in the page's order. */
function finishedRows(html: string, testId: string) {
  return html
    .split(`data-testid="${testId}"`)
    .slice(1)
    .map((row) => row.match(/>finished-(\d+)\.stl</)?.[1] ?? row.match(/ finished-(\d+)\.stl</)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
}
const finishedShown = (html: string) => finishedRows(html, "tracking-row");

describe("the printer dashboard of an owner with a long history", () => {
  it("draws the newest completed orders only, and links to the rest", async () => {
    const { cookie } = await ownerWithHistory(OWNER_COMPLETED_SHOWN + 5);
    const html = await page("/printer-dashboard", cookie);

    const newest = Array.from({ length: OWNER_COMPLETED_SHOWN }, (_, i) => OWNER_COMPLETED_SHOWN + 5 - i);
    expect(finishedRows(html, "owner-order")).toEqual(newest);
    // nor in its hydration data: nothing older than the newest shown comes to the browser
    expect(html).not.toMatch(/finished-[1-5]\.stl/);
    expect(html).toContain("new-request.stl");
    expect(html).toContain(`The newest ${OWNER_COMPLETED_SHOWN} of ${OWNER_COMPLETED_SHOWN + 5} are shown.`);
    expect(html).toMatch(/<a href="\/printer-tracking"[^>]*>All completed orders are in Order Tracking<\/a>/);
    // the cards count every order, shown or not
    expect(html).toMatch(new RegExp(`data-testid="stat-totalJobs">${OWNER_COMPLETED_SHOWN + 6}<`));
  });

  it("draws them all, without the note, when there are no more than it shows", async () => {
    const { cookie } = await ownerWithHistory(3);
    const html = await page("/printer-dashboard", cookie);
    expect(finishedRows(html, "owner-order")).toEqual([3, 2, 1]);
    expect(html).not.toContain("All completed orders are in Order Tracking");
  });
});

/** Counting down from `from` in steps of `step`, `count` numbers. */
const down = (from: number, count: number, step = 1) => Array.from({ length: count }, (_, i) => from - i * step);

describe("the tracking tabs of an owner with a long history", () => {
  it("show a page of orders at a time, newest first, with links to the others", async () => {
    const finished = 2 * ORDER_PAGE_SIZE + 10;
    const { cookie } = await ownerWithHistory(finished);

    // Payouts: every picked-up or shipped order
    const first = await page("/printer-tracking?tab=payouts", cookie);
    expect(finishedShown(first)).toEqual(down(finished, ORDER_PAGE_SIZE));
    expect(first).toContain("Page 1 of 3");
    expect(first).toMatch(/<a [^>]*href="\/printer-tracking\?tab=payouts&amp;page=2"[^>]*>Next<\/a>/);
    expect(first).not.toContain(">Previous<");
    const last = await page("/printer-tracking?tab=payouts&page=3", cookie);
    expect(finishedShown(last)).toEqual(down(10, 10));
    expect(last).toMatch(/<a [^>]*href="\/printer-tracking\?tab=payouts&amp;page=2"[^>]*>Previous<\/a>/);
    expect(last).not.toContain(">Next<");
    // the cards count them all
    expect(last).toMatch(new RegExp(`<dt[^>]*>Completed</dt><dd[^>]*>${finished}<`));

    // Pickup Orders: only the picked-up ones (odd), on pages of their own
    const pickup = await page("/printer-tracking?tab=pickup&page=2", cookie);
    expect(finishedShown(pickup)).toEqual(down(finished - 1 - 2 * ORDER_PAGE_SIZE, 5, 2));
    expect(pickup).toContain("Page 2 of 2");
  });

  it("answers a page out of range with the nearest page, and a page that is not a number with the first", async () => {
    const { cookie } = await ownerWithHistory(ORDER_PAGE_SIZE + 2);
    expect(finishedShown(await page("/printer-tracking?tab=payouts&page=99", cookie))).toEqual(down(2, 2));
    expect(finishedShown(await page("/printer-tracking?tab=payouts&page=0", cookie))).toEqual(
      down(ORDER_PAGE_SIZE + 2, ORDER_PAGE_SIZE),
    );
    expect(finishedShown(await page("/printer-tracking?tab=payouts&page=next", cookie))).toEqual(
      down(ORDER_PAGE_SIZE + 2, ORDER_PAGE_SIZE),
    );
  });

  it("shows a paid-out order as paid on whichever page it is", async () => {
    const { ownerId, jobIds, cookie } = await ownerWithHistory(ORDER_PAGE_SIZE + 2);
    const db = await getDb();
    // finished-1, the oldest: on the second page
    await db.insert(payouts).values({ jobId: jobIds[0]!, ownerId, amountCents: 1234, provider: "test", status: "paid" });
    const second = await page("/printer-tracking?tab=payouts&page=2", cookie);
    expect(finishedShown(second)).toEqual([2, 1]);
    expect(second.match(/Paid out \$/g)).toHaveLength(1);
    expect(await page("/printer-tracking?tab=payouts", cookie)).not.toContain("Paid out $");
  });
});

describe("the dashboard of a customer with a long history", () => {
  it("shows a tab a page at a time, newest first, and counts every order", async () => {
    const finished = ORDER_PAGE_SIZE + 5;
    const { customerCookie } = await ownerWithHistory(finished);

    const first = await page("/dashboard?tab=completed", customerCookie);
    expect(finishedRows(first, "job-card")).toEqual(down(finished, ORDER_PAGE_SIZE));
    expect(first).toContain("Page 1 of 2");
    expect(first).toMatch(/<a [^>]*href="\/dashboard\?tab=completed&amp;page=2"[^>]*>Next<\/a>/);
    const second = await page("/dashboard?tab=completed&page=2", customerCookie);
    expect(finishedRows(second, "job-card")).toEqual(down(5, 5));
    // the tab labels and the cards count every order, not the page
    expect(second).toContain(`Completed <span class="text-slate-500">(${finished})</span>`);
    expect(second).toContain(`All Orders <span class="text-slate-500">(${finished + 1})</span>`);
    expect(second).toMatch(new RegExp(`data-testid="stat-totalOrders">${finished + 1}<`));
    expect(second).toMatch(new RegExp(`data-testid="stat-completed">${finished}<`));

    // the default tab, Active Orders, holds the one paid request, with no pages
    const active = await page("/dashboard", customerCookie);
    expect(active).toContain("new-request.stl");
    expect(active).not.toContain('aria-label="Pages"');
  });
});

/** SQLite's plan of the statement that lists the page's orders (the one merging statuses) when this page is drawn. */
async function planOfPageList(path: string, cookie: string): Promise<string[]> {
  const statements = await statementsRun(() => page(path, cookie));
  const list = statements.find((text) => /\bUNION ALL\b/.test(text) && text.includes("print_jobs"));
  expect(list).toBeDefined();
  const args = (list!.match(/\?/g) ?? []).map(() => 0);
  const plan = await (await getClient()).execute({ sql: `EXPLAIN QUERY PLAN ${list}`, args });
  return plan.rows.map((row) => String(row.detail));
}

describe("a page of a long history, as SQLite reads it", () => {
  it("reads a tab's page from the newest end of each of its statuses, not by sorting all of them", async () => {
    const { customerCookie } = await ownerWithHistory(ORDER_PAGE_SIZE + 5);
    const steps = await planOfPageList("/dashboard?tab=completed&page=2", customerCookie);
    const walks = steps.filter((step) => step.includes("COVERING INDEX print_jobs_customer_idx (customer_id=? AND status=?)"));
    expect(walks).toHaveLength(customerTabStatuses("completed").length);
  });

  it("reads an owner's tracking tab page from each status's newest paid orders, not by sorting the tab", async () => {
    const { cookie } = await ownerWithHistory(ORDER_PAGE_SIZE + 5);
    const steps = await planOfPageList("/printer-tracking?tab=payouts&page=2", cookie);
    const walks = steps.filter((step) => step.includes("INDEX print_jobs_printer_paid_idx (printer_id=? AND status=?)"));
    expect(walks).toHaveLength(OWNER_COMPLETED.length);
    // the rows read whole are the page's, looked up by id
    expect(steps).toEqual(expect.arrayContaining([expect.stringContaining("print_jobs USING INTEGER PRIMARY KEY")]));
  });
});
