// Every page a visitor, a customer, a printer owner and an admin meet, audited by axe for WCAG 2.1
// A and AA (colour contrast, names, labels, landmarks): no violation on any of them, as the page
// is with JavaScript and as it is without (its <noscript> parts shown, nothing hydrated).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { and, asc, eq } from "drizzle-orm";
import {
  backgroundTaskItems,
  backgroundTasks,
  catalogueModels,
  libraryModels,
  printers,
  printJobs,
  users,
} from "../../db/schema";
import { CATALOGUE_TASKS } from "../../app/domain/background-jobs";
import type { JobStatus } from "../../app/domain/job-status";
import { getDb } from "../../app/utils/db.server";
import { DEMO, expect, jsDisabled, signInAs, test } from "./fixtures";

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The page's violations as "rule: target, target" lines, so a failure says what to fix and where. */
async function violationsOf(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * The page as a browser without JavaScript drew it, in a page that may run axe: axe waits on timers,
 * which never fire where scripts are off, so the drawn document is replayed with its scripts taken out
 * and its <noscript> parts kept (and no refresh tag, which would leave the page).
 */
async function withoutScripts(page: Page): Promise<Page> {
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<meta[^>]*http-equiv="refresh"[^>]*>/gi, "")
    .replace(/<noscript>/gi, '<div style="display: contents">')
    .replace(/<\/noscript>/gi, "</div>");
  const url = page.url();
  // a new context takes the project's options, JavaScript off among them, unless told otherwise
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, storageState: await page.context().storageState() });
  const copy = await context.newPage();
  await copy.route(
    (u) => u.href === url,
    (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }),
  );
  await copy.goto(url);
  return copy;
}

/** Audits the page at this path, after `prepare` (opening a disclosure, posting a form) where given. */
async function audit(page: Page, path: string, prepare?: (page: Page) => Promise<void>) {
  const response = await page.goto(path);
  expect(response?.status(), `${path} answers`).toBeLessThan(500);
  if (prepare) await prepare(page);
  const audited = jsDisabled() ? await withoutScripts(page) : page;
  try {
    expect(await violationsOf(audited), `axe violations on ${path}`).toEqual([]);
  } finally {
    if (audited !== page) await audited.context().close();
  }
}

async function userId(email: string) {
  const db = await getDb();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return user!.id;
}

/** The id of one of Casey's demo orders in this status. */
async function caseyJob(status: JobStatus) {
  const db = await getDb();
  const [job] = await db
    .select({ id: printJobs.id, printerId: printJobs.printerId })
    .from(printJobs)
    .where(and(eq(printJobs.customerId, await userId(DEMO.customer)), eq(printJobs.status, status)))
    .orderBy(asc(printJobs.id))
    .limit(1);
  return job!;
}

async function firstPrinterOf(email: string) {
  const db = await getDb();
  const [printer] = await db
    .select({ id: printers.id })
    .from(printers)
    .where(eq(printers.ownerId, await userId(email)))
    .orderBy(asc(printers.id))
    .limit(1);
  return printer!.id;
}

async function firstLibraryModel() {
  const db = await getDb();
  const [model] = await db.select({ id: libraryModels.id }).from(libraryModels).orderBy(asc(libraryModels.id)).limit(1);
  return model!.id;
}

async function firstCatalogueModel() {
  const db = await getDb();
  const [model] = await db
    .select({ sourceId: catalogueModels.sourceId })
    .from(catalogueModels)
    .orderBy(asc(catalogueModels.id))
    .limit(1);
  return model!.sourceId;
}

/** A finished weight-caching job with one failed model, as the admin meets it. */
async function finishedJob() {
  const db = await getDb();
  const now = new Date();
  const [task] = await db
    .insert(backgroundTasks)
    .values({
      kind: CATALOGUE_TASKS.calculateWeights,
      payload: { count: 2, page: 1 },
      status: "done",
      attempts: 1,
      progress: { processed: 2, total: 2, counts: { calculated: 1, cached: 0, failed: 1 } },
      result: { message: "Calculated: 1, Cached: 0, Failed: 1", stats: { total: 2, calculated: 1, cached: 0, failed: 1 } },
      startedAt: now,
      finishedAt: now,
    })
    .returning({ id: backgroundTasks.id });
  await db.insert(backgroundTaskItems).values([
    { taskId: task!.id, itemKey: "1", outcome: "calculated" },
    { taskId: task!.id, itemKey: "2", outcome: "failed", detail: { reason: "The model has no STL, OBJ or 3MF file" } },
  ]);
  return task!.id;
}

const openDetails = (summary: string) => async (page: Page) => {
  await page.locator("summary", { hasText: summary }).first().click();
};

/** The header's menus (account, notifications) drawn open, as a click leaves them. */
const openHeaderMenus = async (page: Page) => {
  await page.locator("header details").evaluateAll((menus) => menus.forEach((menu) => menu.setAttribute("open", "")));
};

/** A page to audit: its path (looked up in the e2e database where it names a record), and what to do on it first. */
type Visit = { path: string | (() => Promise<string>); name?: string; prepare?: (page: Page) => Promise<void> };

function auditEach(role: string, email: string | null, visits: Visit[]) {
  test.describe(role, () => {
    for (const visit of visits) {
      const name = visit.name ?? (typeof visit.path === "string" ? visit.path : "");
      test(`${name}: no axe violations`, async ({ page }) => {
        if (email) await signInAs(page, email);
        const path = typeof visit.path === "string" ? visit.path : await visit.path();
        await audit(page, path, visit.prepare);
      });
    }
  });
}

const quickAddForm = openDetails("Quick Add Printer");
const quickAddRefused = async (page: Page) => {
  await quickAddForm(page);
  await page.getByRole("button", { name: "Add Printer to Marketplace" }).click();
  await expect(page.getByText("Please enter complete address information")).toBeVisible();
};

auditEach("signed out", null, [
  ...[
    "/",
    "/models",
    "/browse",
    "/printers",
    "/printers?view=map",
    "/pricing",
    "/faq",
    "/how-it-works",
    "/help",
    "/contact",
    "/terms",
    "/auth",
    "/auth?mode=register",
    "/newsletter",
    "/newsletter/confirm?token=unknown",
    "/unsubscribe?token=unknown",
    "/choose-printer",
    "/upload",
    "/dashboard",
    "/printer-dashboard",
    "/no-such-page",
  ].map((path) => ({ path })),
  { name: "a printer's page", path: async () => `/printers/${await firstPrinterOf(DEMO.berthoudOwner)}` },
  { name: "a library model's page", path: async () => `/models/library/${await firstLibraryModel()}` },
  { name: "a catalogue model's page", path: async () => `/models/thingiverse/${await firstCatalogueModel()}` },
]);

auditEach("customer", DEMO.customer, [
  ...[
    "/",
    "/dashboard",
    "/dashboard?tab=drafts",
    "/dashboard?tab=completed",
    "/orders",
    "/saved-prints",
    "/messages",
    "/notifications",
    "/profile",
    "/upload",
    "/upload-model",
    "/add-printer",
    "/choose-printer",
    "/printer-tracking",
  ].map((path) => ({ path })),
  { name: "the header's menus, open", path: "/dashboard", prepare: openHeaderMenus },
  { name: "choosing a printer for a draft", path: async () => `/choose-printer?draftId=${(await caseyJob("draft")).id}` },
  {
    name: "submitting a draft to a printer",
    path: async () =>
      `/submit-print?printerId=${await firstPrinterOf(DEMO.berthoudOwner)}&draftId=${(await caseyJob("draft")).id}`,
  },
  {
    name: "submitting a draft for shipping, its address filled from the address book",
    path: async () =>
      `/submit-print?printerId=${await firstPrinterOf(DEMO.berthoudOwner)}&draftId=${(await caseyJob("draft")).id}&deliveryMethod=shipping`,
  },
  { name: "checkout", path: async () => `/checkout?orderId=${(await caseyJob("submitted")).id}` },
  { name: "an order's confirmation", path: async () => `/order-confirmation?orderId=${(await caseyJob("confirmed")).id}` },
  { name: "a paid order's page", path: async () => `/order/${(await caseyJob("confirmed")).id}` },
  { name: "a shipped order's page", path: async () => `/order/${(await caseyJob("shipped")).id}` },
  { name: "an order's conversation", path: async () => `/messages?jobId=${(await caseyJob("printing")).id}` },
  { name: "reviewing a picked-up order", path: async () => `/jobs/${(await caseyJob("picked_up")).id}/review` },
  { name: "ordering a catalogue model", path: async () => `/order-model/thingiverse/${await firstCatalogueModel()}` },
]);

auditEach("printer owner", DEMO.berthoudOwner, [
  ...["/printer-dashboard", "/printer-tracking", "/printer-tracking?tab=payouts", "/messages", "/dashboard"].map((path) => ({
    path,
  })),
  { name: "the header's menus, open", path: "/printer-dashboard", prepare: openHeaderMenus },
  { name: "the quick add-printer form, open", path: "/printer-dashboard", prepare: quickAddForm },
  { name: "the quick add-printer form, refused", path: "/printer-dashboard", prepare: quickAddRefused },
  { name: "a printer's settings", path: async () => `/printers/${await firstPrinterOf(DEMO.berthoudOwner)}/edit` },
  { name: "an order to their printer", path: async () => `/order/${(await caseyJob("confirmed")).id}` },
]);

auditEach("admin", DEMO.admin, [
  ...["/admin", "/admin/orders", "/admin/claims", "/admin/jobs", "/admin/import", "/admin/newsletter"].map((path) => ({ path })),
  { name: "the header's menus, open", path: "/admin", prepare: openHeaderMenus },
  { name: "an order's admin page", path: async () => `/admin/orders/${(await caseyJob("accepted")).id}` },
  { name: "a finished job with a failed item", path: async () => `/admin/jobs/${await finishedJob()}` },
]);
