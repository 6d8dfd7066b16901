// The money path in the browser, with JavaScript on and off: upload → printer → submit → pay with
// the test card → the owner accepts, prints, completes, hands over → payout; a declined card; a
// customer cancel; a shipping order with a tracking number.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { printers, printJobs } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { createTestUser } from "../setup/requests";
import { DEMO, expect, signInAs, test } from "./fixtures";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";

async function newCustomer(page: Page) {
  const tag = randomBytes(6).toString("hex");
  const user = await createTestUser({ email: `buyer-${tag}@example.test`, username: `buyer_${tag}` });
  await signInAs(page, user.email);
  return user;
}

/** Upload a cube for the Berthoud printer (#1) and land on Submit Print Job. */
async function uploadForPrinter(page: Page) {
  await page.goto("/upload?printer=1");
  await page.locator("#design-file").setInputFiles(CUBE_STL);
  await page.getByRole("button", { name: "Submit to Printer #1" }).click();
  await expect(page).toHaveURL(/\/submit-print\?printerId=1&draftId=\d+$/);
  await expect(page.getByRole("heading", { name: "Submit Print Job" })).toBeVisible();
}

async function payWith(page: Page, cardNumber: string) {
  await expect(page.getByText("Test mode: no real charge")).toBeVisible();
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Test Buyer");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
}

async function placeAndPay(page: Page) {
  await page.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\?orderId=\d+$/);
  const orderId = Number(new URL(page.url()).searchParams.get("orderId"));
  await payWith(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(new RegExp(`/order-confirmation\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText("Your order has been confirmed!").first()).toBeVisible();
  return orderId;
}

async function ownerStep(page: Page, orderId: number, button: string, status: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  await expect(page.getByTestId("order-status")).toHaveText(status);
}

test.describe("orders", () => {
  test("pickup order from upload to payout", async ({ page }) => {
    await newCustomer(page);
    await uploadForPrinter(page);
    const orderId = await placeAndPay(page);

    await signInAs(page, DEMO.berthoudOwner);
    await page.goto("/printer-dashboard");
    await expect(page.getByRole("heading", { name: "New Order Requests" })).toBeVisible();
    await page.goto(`/order/${orderId}`);
    await expect(page.getByTestId("order-status")).toHaveText("Paid, awaiting printer");
    await ownerStep(page, orderId, "Accept", "Accepted");
    await ownerStep(page, orderId, "Start Printing", "Printing");
    await ownerStep(page, orderId, "Mark Complete", "Print complete");
    await ownerStep(page, orderId, "Ready for Pickup", "Ready for pickup");
    await ownerStep(page, orderId, "Mark Picked Up", "Picked up");

    await page.goto("/printer-tracking?tab=payouts");
    const row = page.getByTestId("tracking-row").filter({ has: page.locator(`a[href="/order/${orderId}"]`) });
    await row.getByRole("button", { name: /Request Payout/ }).click();
    await expect(page.getByText("Payout Requested")).toBeVisible();
    await expect(row.getByText(/Paid out/)).toBeVisible();
  });

  test("a declined card leaves the order awaiting payment", async ({ page }) => {
    await newCustomer(page);
    await uploadForPrinter(page);
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page).toHaveURL(/\/checkout\?orderId=\d+$/);
    await payWith(page, "4000 0000 0000 0002");
    await expect(page.getByText("Your card was declined.")).toBeVisible();
    await expect(page).toHaveURL(/\/checkout\?orderId=\d+$/);
  });

  test("the customer cancels a paid order before the printer answers", async ({ page }) => {
    await newCustomer(page);
    await uploadForPrinter(page);
    const orderId = await placeAndPay(page);
    await page.goto(`/order/${orderId}`);
    await page.getByText("Cancel Order", { exact: true }).click();
    await page.getByRole("button", { name: "Yes, cancel order" }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Cancelled");
  });

  test("a shipping order is shipped with a tracking number", async ({ page }) => {
    await newCustomer(page);
    await uploadForPrinter(page);
    await page.getByLabel("Delivery method").selectOption("shipping");
    await page.getByRole("button", { name: "Update summary" }).click();
    await page.getByLabel("Delivery ZIP code").fill("10001");
    await page.getByRole("button", { name: "Update summary" }).click();
    await expect(page.getByText(/Ground Advantage \(estimated/)).toBeVisible();
    const orderId = await placeAndPay(page);

    await signInAs(page, DEMO.berthoudOwner);
    await page.goto(`/order/${orderId}`);
    await ownerStep(page, orderId, "Accept", "Accepted");
    await ownerStep(page, orderId, "Start Printing", "Printing");
    await ownerStep(page, orderId, "Mark Complete", "Print complete");
    await ownerStep(page, orderId, "Ready for Shipping", "Ready to ship");
    await page.getByLabel("Tracking number").fill("9400 1112 0255 5842 7600 00");
    await ownerStep(page, orderId, "Mark as Shipped", "Shipped");
    await expect(page.getByTestId("tracking-number")).toHaveText("9400 1112 0255 5842 7600 00");
  });
});

test.describe("an offline printer", () => {
  test("reached by editing the address, it shows as offline and the server refuses the order", async ({ page }) => {
    const { printer } = await createOwnerWithPrinter();
    const db = await getDb();
    await db.update(printers).set({ isAvailable: false }).where(eq(printers.id, printer.id));
    const customer = await newCustomer(page);
    const draft = await createDraft(customer.id);
    await page.goto(`/submit-print?printerId=${printer.id}&draftId=${draft.id}`);
    await expect(page.getByText("This printer is offline right now.")).toBeVisible();
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page.getByText("This printer is not taking orders right now. Please choose another.")).toBeVisible();
    await expect(page).toHaveURL(/\/submit-print\?/);
    const [job] = await db.select().from(printJobs).where(eq(printJobs.id, draft.id));
    expect(job!.status).toBe("draft");
  });
});
