// Times show in the viewer's time zone: the browser's with JavaScript, the profile ZIP's without
// it, never bare UTC. The browser sits in New York while the profile's ZIP (80525) is in Colorado,
// so each source shows a different clock.
import { eq } from "drizzle-orm";
import { notifications, printJobs } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { expect, jsDisabled, test } from "./fixtures";
import { createJob, createPerson, createPrinterFor } from "./helpers";

test.use({ timezoneId: "America/New_York" });

test("a notification's time shows in the browser's zone with JavaScript, the profile's without", async ({ page, signIn }) => {
  const person = await createPerson("Zoe");
  const db = await getDb();
  await db.insert(notifications).values({
    userId: person.id,
    title: "Zone check",
    message: "A notice sent at 18:00 UTC.",
    createdAt: new Date("2026-01-01T18:00:00Z"),
  });
  await signIn(person);
  await page.goto("/notifications");
  const time = page.getByTestId("notification-list").locator("li", { hasText: "Zone check" }).locator("time");
  if (jsDisabled()) await expect(time).toHaveText("1/1/26, 11:00 AM MST");
  else await expect(time).toHaveText("1/1/26, 1:00 PM EST");
  await expect(time).not.toContainText("UTC");
});

test("an order's date is the viewer's day, not UTC's", async ({ page, signIn }) => {
  const person = await createPerson("Zack");
  const db = await getDb();
  const owner = await createPerson("Zed", "printer_owner");
  const printer = await createPrinterFor(owner.id, "Zone Printer");
  const job = await createJob(person.id, printer.id, "submitted", "zone-part.stl");
  // 03:00 UTC on 2 January is still 1 January in Colorado and New York
  const at = new Date("2026-01-02T03:00:00Z");
  await db.update(printJobs).set({ submittedAt: at, createdAt: at }).where(eq(printJobs.id, job.id));
  await signIn(person);
  await page.goto("/orders");
  const row = page.getByTestId("order-row").filter({ hasText: "zone-part.stl" });
  await expect(row).toContainText("1/1/26");
  await expect(row).not.toContainText("1/2/26");
});

test("a visitor's dates follow the browser with JavaScript and say UTC without it", async ({ page }) => {
  await page.goto("/models/library/1");
  const uploaded = page.locator("dt", { hasText: "Uploaded" }).locator("xpath=following-sibling::dd");
  await expect(uploaded.locator("time")).toBeVisible();
  if (jsDisabled()) await expect(uploaded).toContainText("UTC");
  else await expect(uploaded).not.toContainText("UTC");
});
