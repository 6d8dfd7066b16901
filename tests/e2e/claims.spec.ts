// Claims and refunds in the browser, with JavaScript on and off: a paid order picked up, a claim with a
// photo, a partial refund offered and accepted, the owner's payout the remainder; and a claim on an order
// already paid out, escalated to an admin who refunds in full.
import { eq } from "drizzle-orm";
import { payments, printJobs, users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import type { Page } from "@playwright/test";
import { expect, test, type SignIn, type Someone } from "./fixtures";
import { createPerson, createPrinterFor } from "./helpers";

// a real 1×1 PNG: photos are decoded and re-encoded before they are stored
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8cf500f00038601805a347d6b0000000049454e44ae426082",
  "hex",
);

/** A paid pickup order of $5.80 ($4.80 for the owner), ready for pickup, its card captured by the test provider. */
async function paidOrder(fileName: string) {
  const customer = await createPerson("Claire");
  const owner = await createPerson("Oscar", "printer_owner");
  const printer = await createPrinterFor(owner.id, `Oscar's MK4 ${Date.now()}`);
  const db = await getDb();
  await db
    .update(users)
    .set({ stripeAccountId: `acct_test_${owner.id}` })
    .where(eq(users.id, owner.id));
  const now = new Date();
  const [job] = await db
    .insert(printJobs)
    .values({
      customerId: customer.id,
      printerId: printer.id,
      status: "ready_for_pickup",
      fileName,
      deliveryMethod: "pickup",
      totalCostCents: 580,
      printerProfitCents: 480,
      platformFeeCents: 100,
      amountDueCents: 580,
      submittedAt: now,
      confirmedAt: now,
      acceptedAt: now,
      completedAt: now,
      readyAt: now,
    })
    .returning();
  await db.insert(payments).values({
    jobId: job!.id,
    provider: "test",
    providerPaymentId: `test_pi_e2e_${job!.id}`,
    amountCents: 580,
    status: "captured",
    authorizedAt: now,
    capturedAt: now,
  });
  return { customer, owner, job: job! };
}

/** Signs someone else in and opens a page as them. */
function visitor(page: Page, signIn: SignIn) {
  return async (who: Someone, path: string) => {
    await page.context().clearCookies();
    await signIn(who);
    await page.goto(path);
  };
}

test.describe("claims and refunds", () => {
  test("picked up → claim with a photo → partial refund accepted → the payout is the remainder", async ({ page, signIn }) => {
    const { customer, owner, job } = await paidOrder("bracket.stl");
    const visitAs = visitor(page, signIn);

    await signIn(owner);
    await page.goto(`/order/${job.id}`);
    await page.getByRole("button", { name: "Mark Picked Up" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Picked up");

    await visitAs(customer, `/order/${job.id}`);
    await page.getByLabel("What went wrong?").selectOption("arrived_broken");
    await page.getByLabel("Description").fill("The bracket arrived snapped in two.");
    await page.getByLabel(/^Photos/).setInputFiles({ name: "crack.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Report Problem" }).click();
    await expect(page.getByTestId("claim-status")).toHaveText("Awaiting the printer's answer");
    await expect(page.getByRole("img", { name: "Claim photo 1" })).toBeVisible();

    // the payout asked for while the claim is open waits for it
    await visitAs(owner, "/printer-tracking?tab=payouts");
    await page.getByRole("button", { name: "Request Payout ($4.80)" }).click();
    await expect(page.getByText("The payout will be sent once the claim about this order is resolved.")).toBeVisible();
    await page.goto(`/order/${job.id}`);
    await page.getByRole("radio", { name: "Partial refund" }).check();
    await page.getByLabel(/Amount to refund/).fill("2.00");
    await page.getByLabel("Message to the customer").fill("Sorry about that, here is part of it back.");
    await page.getByRole("button", { name: "Send Answer" }).click();
    await expect(page.getByTestId("claim-answer")).toContainText("Partial refund of $2.00");

    await visitAs(customer, `/order/${job.id}`);
    await page.getByRole("button", { name: "Accept Answer" }).click();
    await expect(page.getByTestId("claim-status")).toHaveText("Resolved");
    await expect(page.getByTestId("order-refunded")).toHaveText("Refunded: $2.00");
    await expect(page.getByText("Claim answer accepted")).toBeVisible();

    // the claim resolved, the waiting payout went out: the remainder after the refund
    await visitAs(owner, "/printer-tracking?tab=payouts");
    await expect(page.getByText("Paid out $2.80")).toBeVisible();
  });

  test("a claim on an order already paid out, escalated, refunded in full by an admin", async ({ page, signIn }) => {
    const { customer, owner, job } = await paidOrder("vase.stl");
    const visitAs = visitor(page, signIn);
    await signIn(owner);
    await page.goto(`/order/${job.id}`);
    await page.getByRole("button", { name: "Mark Picked Up" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Picked up");
    await page.goto("/printer-tracking?tab=payouts");
    await page.getByRole("button", { name: "Request Payout ($4.80)" }).click();
    await expect(page.getByText("$4.80 is on its way.")).toBeVisible();

    await visitAs(customer, `/order/${job.id}`);
    await page.getByLabel("What went wrong?").selectOption("poor_quality");
    await page.getByLabel("Description").fill("Layer lines all over the vase.");
    await page.getByRole("button", { name: "Report Problem" }).click();
    await expect(page.getByTestId("claim-status")).toHaveText("Awaiting the printer's answer");

    await visitAs(owner, `/order/${job.id}`);
    await page.getByRole("radio", { name: "Decline" }).check();
    await page.getByLabel("Message to the customer").fill("This is within the quality I advertise.");
    await page.getByRole("button", { name: "Send Answer" }).click();
    await expect(page.getByTestId("claim-answer")).toContainText("Decline");

    await visitAs(customer, `/order/${job.id}`);
    await page.getByRole("button", { name: "Escalate to Printnear" }).click();
    await expect(page.getByTestId("claim-status")).toHaveText("With Printnear support");

    await visitAs("admin", "/admin/claims");
    const claim = page.getByTestId("admin-claim").filter({ hasText: `order #${job.id}` });
    await claim.getByLabel(/Refund in dollars/).fill("5.80");
    await claim.getByLabel("Note to both parties").fill("The print does not match the listing: refunded in full.");
    await claim.getByRole("button", { name: "Decide" }).click();
    await expect(page.getByText("$5.80 refunded.")).toBeVisible();
    await expect(page.getByTestId("admin-claim").filter({ hasText: `order #${job.id}` })).toHaveCount(0);

    await visitAs(owner, `/order/${job.id}`);
    await expect(page.getByTestId("claim-decision")).toContainText("Refund of $5.80: The print does not match the listing");
    await expect(page.getByTestId("order-refunded")).toHaveText("Refunded: $5.80");
    await expect(page.getByText("Your earnings: $0.00")).toBeVisible();
  });
});
