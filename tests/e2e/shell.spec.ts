import { DEMO, expect, jsDisabled, sessionCookie, test } from "./fixtures";

test.describe("the shell", () => {
  test("signed-out header offers Sign In and Get Started", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/auth?tab=register");
    await expect(page.getByRole("contentinfo").getByRole("heading", { name: "Quick Links" })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("heading", { name: "Get in Touch" })).toBeVisible();
  });

  test("signed-in header: links, unread badge, notifications dropdown and avatar menu", async ({ page, signIn }) => {
    await signIn("customer");
    await page.goto("/dashboard");
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Browse Models" })).toBeVisible();
    await expect(page.getByTestId("notification-badge")).toHaveText("1");
    await page.getByLabel(/Notifications, 1 unread/).click();
    await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
    await expect(page.getByText("Berthoud Print Shop started printing lamp-shade.stl.")).toBeVisible();
    await page.getByLabel("Account menu").click();
    await expect(page.getByText("casey@printnear.test")).toBeVisible();
    await expect(page.getByRole("link", { name: "Profile Settings" })).toBeVisible();
    // Casey is a customer: no Printer Dashboard entry
    await expect(page.getByRole("link", { name: "Printer Dashboard" })).toHaveCount(0);
  });

  test("a header link opens its page marked as the current one; with JavaScript the document stays", async ({ page, signIn }) => {
    await signIn("customer");
    await page.goto("/dashboard");
    const marker = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
    if (!jsDisabled()) await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Find Printers" })).not.toHaveAttribute("aria-current", "page");
    await main.getByRole("link", { name: "Find Printers" }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(main.getByRole("link", { name: "Find Printers" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // in-page navigation with JavaScript; a whole new document without it
    if (!jsDisabled()) expect(await marker()).toBe(true);
    await page.getByRole("contentinfo").getByRole("link", { name: "Browse Models" }).click();
    await expect(page).toHaveURL(/\/models$/);
    if (!jsDisabled()) expect(await marker()).toBe(true);
  });

  test("the footer's parts drawn once per process show after hydration and after an in-page navigation, without an error", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto("/faq");
    if (!jsDisabled()) await page.waitForFunction(() => "__remixRouter" in window);
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Terms of Service" }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const name of ["Browse Models", "FAQ", "support@printnear.com", "Contact form"]) {
      await expect(footer.getByRole("link", { name })).toBeVisible();
    }
    await expect(footer.getByRole("button", { name: "Subscribe" })).toBeVisible();
    if (!jsDisabled()) {
      // the root's error boundary draws the layout, footer included, anew in the browser
      await page.evaluate(() =>
        (window as unknown as { __remixRouter: { navigate(to: string): void } }).__remixRouter.navigate("/no-such-page"),
      );
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      for (const name of ["Browse Models", "FAQ", "support@printnear.com"]) {
        await expect(footer.getByRole("link", { name })).toBeVisible();
      }
      expect(errors.filter((error) => !/404/.test(error))).toEqual([]);
    } else expect(errors).toEqual([]);
  });

  test("pages start with their doctype, so browsers draw them in standards mode", async ({ page, signIn }) => {
    await signIn("customer");
    for (const path of ["/", "/dashboard"]) {
      const response = await page.goto(path);
      expect((await response!.text()).startsWith("<!DOCTYPE html><html")).toBe(true);
      if (!jsDisabled()) expect(await page.evaluate(() => document.compatMode)).toBe("CSS1Compat");
    }
  });

  test("a printer owner's avatar menu has the Printer Dashboard", async ({ page, signIn }) => {
    await signIn("lovelandOwner");
    await page.goto("/dashboard");
    await page.getByLabel("Account menu").click();
    await expect(page.getByRole("link", { name: "Printer Dashboard" })).toBeVisible();
  });

  test("the mobile menu opens without JavaScript too", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobile).toBeHidden();
    await page.getByLabel("Menu", { exact: true }).click();
    await expect(mobile.getByRole("link", { name: "Find Printers" })).toBeVisible();
    await mobile.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test("unknown paths get the 404 page with a 404 status", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("marking notifications read clears the badge, within the page when there is JavaScript", async ({ page, signIn }) => {
    // the admin has no seeded notifications: give one through the API-independent page flow
    const user = await signIn("fortCollinsOwner");
    const { notify } = await import("../../app/services/notifications.server");
    await notify(user.id, "Test notice", `for ${jsDisabled() ? "no-js" : "js"}`);
    await page.goto("/profile");
    await expect(page.getByTestId("notification-badge")).toBeVisible();
    // with JavaScript the form posts within the page (the site's plain form, app/components/form.tsx)
    if (!jsDisabled()) await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
    await page.getByLabel(/Notifications, \d+ unread/).click();
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId("notification-badge")).toHaveCount(0);
    if (!jsDisabled())
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test("the JSON API knows the session cookie and answers 401 without it @no-browser", async ({ request }) => {
    const cookie = await sessionCookie("customer");
    const withCookie = await request.get("/api/auth/user", { headers: { cookie } });
    expect(withCookie.status()).toBe(200);
    expect((await withCookie.json()).email).toBe(DEMO.customer);
    const without = await request.get("/api/auth/user", { headers: { cookie: "" } });
    expect(without.status()).toBe(401);
    expect((await request.get("/healthz")).status()).toBe(200);
  });

  test("a cross-site form post is refused @no-browser", async ({ request }) => {
    const res = await request.post("/logout", { headers: { origin: "https://evil.example" } });
    expect(res.status()).toBe(403);
  });

  test("profile changes are saved", async ({ page, signIn }) => {
    await signIn("admin");
    await page.goto("/profile");
    await page.getByLabel("First name").fill(jsDisabled() ? "Adele" : "Adaline");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByTestId("toast")).toContainText("Profile Updated");
    await expect(page.getByLabel("First name")).toHaveValue(jsDisabled() ? "Adele" : "Adaline");
  });
});

test("an oversized form body is refused before it is read @no-browser", async ({ request }) => {
  const res = await request.post("/contact", { form: { message: "x".repeat(300 * 1024) } });
  expect(res.status()).toBe(413);
});
