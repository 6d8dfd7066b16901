import type { Page } from "@playwright/test";
import { DEMO, expect, jsDisabled, signInAs, test } from "./fixtures";

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

  test("the signed-in header fits the window and keeps its labels on one line", async ({ page }) => {
    await signInAs(page, DEMO.lovelandOwner);
    for (const width of [390, 768, 1024, 1100, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/dashboard");
      const { scrollWidth, viewport } = await documentOverflow(page);
      expect(scrollWidth, `dashboard at ${width}`).toBeLessThanOrEqual(viewport);
      if (width < 1024) continue;
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
