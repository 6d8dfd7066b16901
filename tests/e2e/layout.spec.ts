import type { Page } from "@playwright/test";
import { and, eq, inArray } from "drizzle-orm";
import { backgroundTasks, messages, printers, printJobs, users } from "../../db/schema";
import { sendJobMessage } from "../../app/services/conversations.server";
import { getDb } from "../../app/utils/db.server";
import { createToastHeader } from "../../app/utils/toast.server";
import { DEMO, expect, jsDisabled, signInAs, test } from "./fixtures";
import { createJob, createPerson, createPrinterFor } from "./helpers";

const PUBLIC_PAGES = [
  "/",
  "/models",
  "/models/thingiverse/4734271",
  "/browse",
  "/printers",
  "/pricing",
  "/how-it-works",
  "/faq",
  "/terms",
  "/contact",
  "/auth",
  "/help",
  // a visitor is sent on from here: what they see is measured
  "/choose-printer",
  "/printers/1",
  "/models/library/1",
  "/browse?view=map",
  // a city name several states have: the page of "City, ST" choices
  "/printers?location=Loveland",
  "/browse?location=Loveland",
  "/no/such/page",
];
const WIDTHS = [390, 768, 1024, 1366];
const SIGNED_IN_WIDTHS = [390, 768, 1024];
// signed in, the header carries the user's links, so the public pages are measured again
const SIGNED_IN_PUBLIC_PAGES = ["/", "/models", "/browse", "/printers/1", "/models/library/1", "/pricing"];

async function userId(email: string) {
  const [user] = await (await getDb()).select({ id: users.id }).from(users).where(eq(users.email, email));
  return user!.id;
}

/** The first job of this customer, or on this owner's printers, in one of these statuses. */
async function jobIn(statuses: (typeof printJobs.$inferSelect)["status"][], who: { customerId?: number; ownerId?: number }) {
  const db = await getDb();
  const [row] = await db
    .select({ id: printJobs.id, printerId: printJobs.printerId })
    .from(printJobs)
    .leftJoin(printers, eq(printers.id, printJobs.printerId))
    .where(
      and(
        inArray(printJobs.status, statuses),
        who.customerId ? eq(printJobs.customerId, who.customerId) : undefined,
        who.ownerId ? eq(printers.ownerId, who.ownerId) : undefined,
      ),
    )
    .orderBy(printJobs.id)
    .limit(1);
  if (!row) throw new Error(`no demo job in ${statuses.join(", ")}`);
  return row;
}

/** Every page each demo role reaches from the header, the dashboards and its orders, with the demo's own ids. */
async function signedInPages(role: "customer" | "owner" | "admin"): Promise<string[]> {
  const db = await getDb();
  if (role === "customer") {
    const customerId = await userId(DEMO.customer);
    const draft = await jobIn(["draft"], { customerId });
    const submitted = await jobIn(["submitted"], { customerId });
    const confirmed = await jobIn(["confirmed"], { customerId });
    const shipped = await jobIn(["shipped"], { customerId });
    const reviewable = await jobIn(["picked_up"], { customerId });
    const talking = await jobIn(["printing"], { customerId });
    return [
      ...SIGNED_IN_PUBLIC_PAGES,
      "/dashboard",
      "/dashboard?tab=drafts",
      "/dashboard?tab=all",
      "/orders",
      "/messages",
      `/messages?jobId=${talking.id}`,
      "/notifications",
      "/profile",
      "/saved-prints",
      "/upload",
      `/upload?draftId=${draft.id}`,
      "/upload-model",
      `/choose-printer?draftId=${draft.id}`,
      `/submit-print?draftId=${draft.id}&printerId=${submitted.printerId}`,
      `/checkout?orderId=${submitted.id}`,
      `/order/${shipped.id}`,
      `/order-confirmation?orderId=${confirmed.id}`,
      `/jobs/${reviewable.id}/review`,
    ];
  }
  if (role === "owner") {
    const ownerId = await userId(DEMO.lovelandOwner);
    const [printer] = await db.select({ id: printers.id }).from(printers).where(eq(printers.ownerId, ownerId)).limit(1);
    const request = await jobIn(["confirmed", "accepted"], { ownerId });
    return [
      ...SIGNED_IN_PUBLIC_PAGES,
      "/dashboard",
      "/printer-dashboard",
      "/printer-tracking",
      "/printer-tracking?tab=shipping",
      "/printer-tracking?tab=payouts",
      `/printers/${printer!.id}`,
      `/printers/${printer!.id}/edit`,
      "/add-printer",
      "/messages",
      `/messages?jobId=${request.id}`,
      `/order/${request.id}`,
      "/notifications",
      "/profile",
    ];
  }
  const [task] = await db.select({ id: backgroundTasks.id }).from(backgroundTasks).orderBy(backgroundTasks.id).limit(1);
  const order = await jobIn(["shipped"], {});
  return [
    ...SIGNED_IN_PUBLIC_PAGES,
    "/admin",
    "/admin/import",
    "/admin/jobs",
    `/admin/jobs/${task!.id}`,
    "/admin/orders",
    `/admin/orders/${order.id}`,
    "/admin/newsletter",
    "/dashboard",
  ];
}

/** A toast flashed for the next page, as a form post leaves one; long enough to wrap on a phone. */
async function flashToast(page: Page) {
  // the page before leaves first: a revalidation of its own (a conversation marked read, a live update)
  // would otherwise carry the cookie and take the toast meant for the next page
  await page.goto("about:blank");
  const [pair] = (
    await createToastHeader({
      title: "Printer added successfully!",
      description: "Your printer is now listed on the marketplace.",
    })
  ).split(";");
  const [name, ...value] = pair!.split("=");
  await page.context().addCookies([{ name: name!, value: value.join("="), url: test.info().project.use.baseURL! }]);
}

/** What sticks out sideways on this page: the document's width, and the toast's box. */
async function overflowOf(page: Page, path: string, width: number): Promise<string[]> {
  const found: string[] = [];
  const { scrollWidth, viewport } = await documentOverflow(page);
  if (scrollWidth > viewport) found.push(`${path} at ${width}: ${scrollWidth} > ${viewport}`);
  // its place on the page, not where its hide animation (5 s after it is drawn) has carried it on a slow machine
  await page.getByTestId("toast").evaluate((el) => el.getAnimations().forEach((animation) => animation.cancel()));
  const toast = await page.getByTestId("toast").boundingBox();
  if (!toast) found.push(`${path} at ${width}: no toast shown`);
  else if (toast.x < 0 || toast.x + toast.width > viewport) {
    found.push(`${path} at ${width}: toast from ${Math.round(toast.x)} to ${Math.round(toast.x + toast.width)}`);
  }
  return found;
}

async function documentOverflow(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
}

test.describe("layout", () => {
  test("no public page is wider than the window", async ({ page }) => {
    test.setTimeout(240_000);
    const tooWide: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        const { scrollWidth, viewport } = await documentOverflow(page);
        if (scrollWidth > viewport) tooWide.push(`${path} at ${width}: ${scrollWidth} > ${viewport}`);
      }
    }
    expect(tooWide).toEqual([]);
  });

  for (const role of ["customer", "owner", "admin"] as const) {
    test(`no signed-in page of the ${role} is wider than a phone, a tablet or a small laptop, nor is its toast`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await signInAs(page, { customer: DEMO.customer, owner: DEMO.lovelandOwner, admin: DEMO.admin }[role]);
      const paths = await signedInPages(role);
      const tooWide: string[] = [];
      for (const width of SIGNED_IN_WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of paths) {
          await flashToast(page);
          const response = await page.goto(path);
          expect(response?.status(), path).toBe(200);
          tooWide.push(...(await overflowOf(page, path, width)));
        }
      }
      expect(tooWide).toEqual([]);
    });
  }

  test("a conversation about a file with a long name stays inside a phone's screen", async ({ page }) => {
    const customer = await createPerson("Lena");
    const owner = await createPerson("Omar", "printer_owner");
    const printer = await createPrinterFor(owner.id, "Omar's Prusa MK4 in the back room of the makerspace");
    const fileName = `replacement-bracket-for-the-left-kitchen-cabinet-door-hinge-version-${Date.now()}-final.stl`;
    const job = await createJob(customer.id, printer.id, "accepted", fileName);
    await sendJobMessage({
      jobId: job!.id,
      senderId: owner.id,
      content: "Thanks for the order! I will print it in PETG tomorrow morning; the bracket should be ready by the afternoon.",
    });
    await signInAs(page, customer.email);
    await page.setViewportSize({ width: 390, height: 800 });
    for (const path of ["/messages", `/messages?jobId=${job!.id}`, "/dashboard?tab=all", "/orders", `/order/${job!.id}`]) {
      await flashToast(page);
      await page.goto(path);
      await expect(page.getByRole("main").getByText(fileName).locator("visible=true").first()).toBeVisible();
      expect(await overflowOf(page, path, 390)).toEqual([]);
    }
  });

  test("the signed-in header fits the window and keeps its labels on one line", async ({ page }) => {
    // a customer with ten unread messages: the header's widest badge ("9+") beside Messages
    const customer = await createPerson("Maximiliana");
    const owner = await createPerson("Otto", "printer_owner");
    const job = await createJob(customer.id, (await createPrinterFor(owner.id)).id, "accepted", "badge.stl");
    await (await getDb()).insert(messages).values(
      Array.from({ length: 10 }, (_, i) => ({
        jobId: job!.id,
        senderId: owner.id,
        senderType: "printer" as const,
        content: `Update ${i}`,
      })),
    );
    for (const email of [DEMO.lovelandOwner, customer.email]) {
      await signInAs(page, email);
      for (const width of [390, 768, 1024, 1100, 1366]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/dashboard");
        const { scrollWidth, viewport } = await documentOverflow(page);
        expect(scrollWidth, `dashboard at ${width} for ${email}`).toBeLessThanOrEqual(viewport);
        if (width < 1024) continue;
        const avatar = (await page.getByLabel("Account menu").boundingBox())!;
        expect(avatar.x + avatar.width, `the avatar at ${width} for ${email}`).toBeLessThanOrEqual(viewport);
        const links = page.getByRole("banner").locator("nav[aria-label=Main] a, div.lg\\:flex > a");
        const count = await links.count();
        expect(count).toBeGreaterThanOrEqual(8);
        for (let i = 0; i < count; i++) {
          const link = links.nth(i);
          const { height, lineHeight } = await link.evaluate((el) => ({
            height: el.getBoundingClientRect().height,
            lineHeight: parseFloat(getComputedStyle(el).lineHeight),
          }));
          // one line of text plus the link's vertical padding (py-2: 16 px)
          expect(height, `${await link.textContent()} at ${width}`).toBeLessThan(lineHeight * 2);
        }
      }
    }
  });

  test("below 1024 px the bell sits beside the menu toggle and leads to the notifications", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/dashboard");
    const bell = page.getByRole("link", { name: "Open notifications (1 unread)" });
    await expect(bell).toBeVisible();
    await expect(bell).toContainText("1");
    await bell.click();
    await expect(page).toHaveURL(/\/notifications$/);
    await page.setViewportSize({ width: 1366, height: 800 });
    await expect(page.getByRole("link", { name: /Open notifications/ })).toBeHidden();
  });
});

test.describe("header menus", () => {
  test("the mobile menu closes on navigation, outside click and Escape", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    const toggle = page.getByLabel("Menu", { exact: true });
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await toggle.click();
    await expect(mobile).toBeVisible();
    await mobile.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    // a new page without JavaScript starts with the menu closed; with it the menu closes itself
    await expect(mobile).toBeHidden();
    if (jsDisabled()) {
      // without JavaScript the <details> toggles open and shut with its summary
      await toggle.click();
      await expect(mobile).toBeVisible();
      await toggle.click();
      await expect(mobile).toBeHidden();
      return;
    }
    await toggle.click();
    await expect(mobile).toBeVisible();
    await page.mouse.click(200, 700);
    await expect(mobile).toBeHidden();
    await toggle.click();
    await expect(mobile).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mobile).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test("the avatar menu and the bell close on navigation, outside click and Escape", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/dashboard");
    const avatar = page.getByLabel("Account menu");
    const email = page.getByRole("banner").getByText("casey@printnear.test");
    const bell = page.getByLabel(/Notifications, 1 unread/);
    const dropdown = page.getByRole("banner").getByRole("heading", { name: "Notifications" });
    await avatar.click();
    await expect(email).toBeVisible();
    await page.getByRole("link", { name: "Profile Settings" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(email).toBeHidden();
    if (jsDisabled()) {
      await bell.click();
      await expect(dropdown).toBeVisible();
      await bell.click();
      await expect(dropdown).toBeHidden();
      return;
    }
    await avatar.click();
    await expect(email).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(email).toBeHidden();
    await expect(avatar).toBeFocused();
    await bell.click();
    await expect(dropdown).toBeVisible();
    // opening one menu closes the other
    await avatar.click();
    await expect(dropdown).toBeHidden();
    await expect(email).toBeVisible();
    await page.getByRole("main").click({ position: { x: 5, y: 5 } });
    await expect(email).toBeHidden();
    await bell.click();
    await expect(dropdown).toBeVisible();
    await page.getByRole("link", { name: "See all notifications" }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(dropdown).toBeHidden();
  });
});

test.describe("header links", () => {
  for (const [role, email] of [
    ["customer", DEMO.customer],
    ["owner", DEMO.lovelandOwner],
    ["admin", DEMO.admin],
  ] as const) {
    test(`every header and dashboard link answers for the ${role}`, async ({ page }) => {
      await signInAs(page, email);
      const hrefs = new Set<string>();
      for (const path of ["/", "/dashboard"]) {
        await page.goto(path);
        for (const href of await page
          .getByRole("banner")
          .locator("a[href^='/']")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
          hrefs.add(href);
        }
      }
      for (const href of await page
        .getByRole("main")
        .getByRole("link", { name: "View Order" })
        .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
        hrefs.add(href);
      }
      expect(hrefs).toContain("/messages");
      if (role === "admin") expect(hrefs).toContain("/admin");
      else expect(hrefs).not.toContain("/admin");
      if (role === "customer") expect([...hrefs].some((href) => href.startsWith("/order/"))).toBe(true);
      const failures: string[] = [];
      for (const href of hrefs) {
        const response = await page.request.get(href);
        if (response.status() !== 200) failures.push(`${href}: ${response.status()}`);
      }
      expect(failures).toEqual([]);
    });
  }
});

test.describe("titles and API answers", () => {
  test("the 404 page says so in its title", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page).toHaveTitle("Page not found | Printnear");
    await page.goto("/pricing");
    await expect(page).toHaveTitle("Pricing | Printnear");
  });

  test("a missing or wrongly asked /api address answers JSON @no-browser", async ({ request }) => {
    const missing = await request.get("/api/no-such-endpoint");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toMatch(/application\/json/);
    expect(await missing.json()).toEqual({ message: "There is no API endpoint at this address." });
    const wrongMethod = await request.post("/api/stats", { form: { a: "b" } });
    expect(wrongMethod.status()).toBe(405);
    expect(await wrongMethod.json()).toEqual({ message: "Method not allowed" });
    const readOnlyWrite = await request.get("/api/calculate-shipping");
    expect(readOnlyWrite.status()).toBe(405);
    expect(await readOnlyWrite.json()).toEqual({ message: "Method not allowed" });
  });
});
