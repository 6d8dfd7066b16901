// "Request payout for all" on /printer-tracking, with JavaScript on and off: the owner sees how many
// orders are ready and which are held and why, posts once, and every ready order is paid out.
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { payments } from "../../db/schema";
import { NOT_CAPTURED, NOT_DELIVERED } from "../../app/domain/payouts";
import { connectPayoutAccount } from "../../app/services/orders/payouts.server";
import { getDb } from "../../app/utils/db.server";
import { createOwnerWithPrinter, paidOrderAt, TO_PICKED_UP } from "../setup/orders";
import { expect, signInAs, test } from "./fixtures";

function toast(page: Page) {
  return page.getByRole("list", { name: "Notifications (F8)" }).getByTestId("toast");
}

test("Request payout for all pays every ready order once and lists the held ones with why", async ({ page }) => {
  const { owner, printer } = await createOwnerWithPrinter({ grams: 5000 });
  const ready = [await paidOrderAt(owner, printer.id, "first.stl"), await paidOrderAt(owner, printer.id, "second.stl")];
  await paidOrderAt(owner, printer.id, "on-its-way.stl", TO_PICKED_UP.slice(0, 4));
  const uncharged = await paidOrderAt(owner, printer.id, "uncharged.stl");
  const db = await getDb();
  await db.update(payments).set({ status: "authorized" }).where(eq(payments.jobId, uncharged));
  await connectPayoutAccount(owner, "http://localhost:3000");

  await signInAs(page, owner.email);
  await page.goto("/printer-tracking?tab=payouts");
  const held = page.getByRole("region", { name: "On hold" });
  await expect(held.getByRole("listitem").filter({ hasText: "on-its-way.stl" })).toContainText(NOT_DELIVERED);
  await expect(held.getByRole("listitem").filter({ hasText: "uncharged.stl" })).toContainText(NOT_CAPTURED);
  await expect(page.getByText("2 orders are ready for a payout: one transfer each.")).toBeVisible();

  await page.getByRole("button", { name: "Request payout for all" }).click();
  await expect(toast(page)).toContainText("Payouts Requested");
  await expect(toast(page)).toContainText("2 payouts ($9.60) on the way. 2 on hold.");
  for (const jobId of ready) {
    const row = page.getByTestId("tracking-row").filter({ has: page.locator(`a[href="/order/${jobId}"]`) });
    await expect(row.getByText("Paid out $4.80")).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Request payout for all" })).toHaveCount(0);
  await expect(held.getByRole("listitem")).toHaveCount(2);
});
