// The admin area with JavaScript on and off: non-admins are refused on every admin page, an
// import job started from /admin/import runs to 100% with its progress on the page, and a job
// asked for more models than the catalogue has ends with a full bar and its failures named.
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

test("weight caching asked for more models than the catalogue has: a full bar, counts that add up, each failure named with its reason", async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn("admin");
  await page.goto("/admin/import");
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Quick Weight Caching" }) });
  // the default batch of 100 asks for more than the catalogue lists
  await expect(card.getByLabel("Models")).toHaveValue("100");
  await card.getByRole("button", { name: "Calculate Weights" }).click();
  // this test's own job (the other project may be running one too), followed on its page. A job whose
  // models are already weighed can finish before the answer's page is drawn: that page then flashes the
  // finished job's toast instead of "started", and the job is the newest in the list
  const started = page.getByTestId("toast").filter({ hasText: "Weight calculation started" });
  const finished = page.getByTestId("toast").filter({ hasText: "Weight Calculation Complete" });
  await expect(started.or(finished).first()).toBeAttached();
  const newest = page.getByRole("link", { name: /Quick Weight Caching #\d+/ }).first();
  const named = (await started.count()) > 0 ? await started.textContent() : await newest.textContent();
  const jobId = /#(\d+)/.exec(named ?? "")![1];
  await page.goto(`/admin/jobs/${jobId}`);
  await expect(page.getByTestId("job-status")).toHaveText("Done", { timeout: 60_000 });
  await expect(page.getByTestId("job-percent")).toHaveText("100%");
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  const text = (await page.getByTestId(/^job-\d+$/).textContent()) ?? "";
  const [, processed, total] = /(\d+) of (\d+)/.exec(text) ?? [];
  expect(processed).toBe(total);
  const counted = [...text.matchAll(/(?:Calculated|Cached|Failed): (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  expect(counted).toBe(Number(processed));
  const failures = page.getByTestId("job-failure");
  await expect(failures).toHaveCount(Number(/Failed: (\d+)/.exec(text)![1]));
  const gearbox = failures.filter({ hasText: "Planetary Gearbox Concept (WIP)" });
  await expect(gearbox).toContainText("The model has no STL, OBJ or 3MF file to weigh.");
  await expect(gearbox.getByRole("link")).toHaveAttribute("href", "/models/thingiverse/6201006");
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
