// The admin area with JavaScript on and off: non-admins are refused on every admin page, and an
// import job started from /admin/import runs to 100% with its progress on the page.
import { expect, test } from "./fixtures";

// one job's and one order's pages too: the check comes before the lookup, so any id is refused
const ADMIN_PAGES = [
  "/admin",
  "/admin/orders",
  "/admin/orders/1",
  "/admin/jobs",
  "/admin/jobs/1",
  "/admin/import",
  "/admin/newsletter",
];

test("visitors are sent to sign in from every admin page", async ({ page }) => {
  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/auth\\?redirectTo=${encodeURIComponent(path)}`));
  }
});

test("a signed-in customer is refused on every admin page with Access Denied", async ({ page, signIn }) => {
  await signIn("customer");
  for (const path of ADMIN_PAGES) {
    // the toast is in the answered HTML; without JavaScript it hides itself 5 s after it is drawn, and on a
    // busy machine the landing page's load event can come later than that
    await page.goto(path, { waitUntil: "domcontentloaded" });
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Access Denied")).toBeVisible();
    await expect(page.getByText("Admin access required")).toBeVisible();
  }
  const api = await page.request.post("/api/thingiverse/import-popular", { data: { count: 5 } });
  expect(api.status()).toBe(403);
});

test("an admin reaches the overview from the avatar menu", async ({ page, signIn }) => {
  await signIn("admin");
  await page.goto("/dashboard");
  await page.getByLabel("Account menu").first().click();
  await page.getByRole("link", { name: "Admin", exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Users by role" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Running jobs" })).toBeVisible();
});

test("an import job runs to 100% with its progress visible", async ({ page, signIn }) => {
  test.setTimeout(60_000);
  await signIn("admin");
  await page.goto("/admin/import");
  await expect(page.getByRole("heading", { name: "Thingiverse Import", level: 1 })).toBeVisible();
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Import Popular Models" }) });
  await card.getByLabel("Number of models").fill("5");
  await card.getByRole("button", { name: "Import Popular Models" }).click();
  await expect(page).toHaveURL(/\/admin\/import$/);
  const bar = page.getByRole("progressbar").first();
  await expect(bar).toBeVisible();
  // the page follows the job by itself: polling with JavaScript, a refresh tag without
  await expect(bar).toHaveAttribute("aria-valuenow", "100", { timeout: 30_000 });
  // the documented toast, once, through the site's toaster (live refresh with JS, the refreshed page without)
  await expect(page.getByTestId("toast")).toContainText("Import Successful", { timeout: 10_000 });
  await page
    .getByRole("link", { name: /Import Popular Models #\d+/ })
    .first()
    .click();
  // with JavaScript the job's page arrives by client navigation: wait for it before reading its status
  await expect(page).toHaveURL(/\/admin\/jobs\/\d+$/);
  await expect(page.getByTestId("job-status")).toHaveText("Done");
  await expect(page.getByTestId("job-percent")).toHaveText("100%");
});

test("the category card: suggested categories fill the term, a blank term is refused", async ({ page, signIn }) => {
  await signIn("admin");
  await page.goto("/admin/import");
  await page.getByRole("link", { name: "vase", exact: true }).click();
  await expect(page.getByRole("textbox", { name: "Category" })).toHaveValue("vase");
  await page.getByRole("textbox", { name: "Category" }).fill("");
  await page.getByRole("button", { name: "Import Category" }).click();
  await expect(page.getByText("Please enter a category name")).toBeVisible();
});
