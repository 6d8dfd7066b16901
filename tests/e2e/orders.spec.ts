// The money path in the browser, with JavaScript on and off: upload → choose printer → submit →
// pay with the test card → the owner accepts on the dashboard, prints, completes, hands over →
// connects a payout account → payout; a Natural part; a declined card; a customer cancel; a
// shipping order with a tracking number; reject with its confirm step; Download Failed; and the
// pages for bad addresses (Invalid Checkout, Order Not Found, No Printer Registered, /my-orders).
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { printers, printJobs, users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter, placeTestOrder } from "../setup/orders";
import { createTestUser } from "../setup/requests";
import { DEMO, expect, signInAs, test } from "./fixtures";
import { createJob, createPerson, createPrinterFor, shipToFifthAvenue } from "./helpers";
import { jobRow } from "../setup/jobs";

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

/** The toast as the app renders it (server-rendered without JavaScript, shown by the Toaster with it). */
function toast(page: Page) {
  return page.getByRole("list", { name: "Notifications (F8)" }).getByTestId("toast");
}

async function placeAndPay(page: Page) {
  await page.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\?orderId=\d+$/);
  await expect(toast(page)).toContainText("Order Submitted Successfully!");
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

/** The owner's row for this order on /printer-dashboard, in whichever section it stands. */
function dashboardRow(page: Page, orderId: number) {
  return page.getByTestId("owner-order").filter({ has: page.locator(`a[href="/order/${orderId}"]`) });
}

async function dashboardStep(page: Page, orderId: number, button: string, status: string) {
  await dashboardRow(page, orderId).getByRole("button", { name: button, exact: true }).click();
  await expect(page).toHaveURL(/\/printer-dashboard$/);
  await expect(dashboardRow(page, orderId).getByTestId("owner-order-status")).toHaveText(status);
}

test.describe("orders", () => {
  test("pickup order: upload, choose a printer, pay, the owner accepts on the dashboard, hands over, connects and is paid out", async ({
    page,
  }) => {
    // a new owner, so Connect Stripe is still to be done
    const { owner, printer } = await createOwnerWithPrinter();
    await newCustomer(page);
    await page.goto("/upload");
    await page.locator("#design-file").setInputFiles(CUBE_STL);
    await page.getByRole("button", { name: "Choose Printer" }).click();
    await expect(page).toHaveURL(/\/printers\?.*jobId=\d+$/);
    await expect(page.getByTestId("design-banner")).toBeVisible();
    const draftId = Number(new URL(page.url()).searchParams.get("jobId"));

    await page.goto(`/choose-printer?draftId=${draftId}`);
    const filters = page.getByRole("form", { name: "Printer filters" });
    await filters.getByLabel("Search").fill(printer.name);
    await filters.getByRole("button", { name: "Search" }).click();
    await page.getByRole("article", { name: printer.name }).getByRole("link", { name: "Select Printer" }).click();
    await expect(page).toHaveURL(new RegExp(`/submit-print\\?printerId=${printer.id}&draftId=${draftId}$`));
    const orderId = await placeAndPay(page);
    expect(orderId).toBe(draftId);

    await signInAs(page, owner.email);
    await page.goto("/printer-dashboard");
    const requests = page.getByRole("region", { name: "New Order Requests" });
    await expect(requests.locator(`a[href="/order/${orderId}"]`)).toBeVisible();
    await dashboardStep(page, orderId, "Accept", "Accepted");
    await dashboardStep(page, orderId, "Start Printing", "Printing");
    await dashboardStep(page, orderId, "Mark Complete", "Print complete");
    await dashboardStep(page, orderId, "Ready for Pickup", "Ready for pickup");
    await dashboardStep(page, orderId, "Mark Picked Up", "Picked up");
    expect((await jobRow(orderId)).status).toBe("picked_up");

    await page.goto("/printer-tracking?tab=payouts");
    const row = page.getByTestId("tracking-row").filter({ has: page.locator(`a[href="/order/${orderId}"]`) });
    await expect(row.getByRole("button", { name: /Request Payout/ })).toHaveCount(0);
    await page.getByRole("button", { name: "Connect Stripe" }).click();
    await expect(toast(page)).toContainText("Stripe Account Created");
    await row.getByRole("button", { name: /Request Payout/ }).click();
    await expect(toast(page)).toContainText("Payout Requested");
    await expect(row.getByText(/Paid out/)).toBeVisible();
  });

  test("a Natural Nylon part is ordered from the Fort Collins Fab Lab, which stocks only Natural Nylon", async ({ page }) => {
    const customer = await newCustomer(page);
    const db = await getDb();
    const [fabLab] = await db.select().from(printers).where(eq(printers.name, "Fort Collins Fab Lab"));
    const draft = await createDraft(customer.id, { material: "Nylon" });
    await page.goto(`/submit-print?printerId=${fabLab!.id}&draftId=${draft.id}`);
    const natural = page.getByRole("radio", { name: "Natural", exact: true });
    await expect(natural).toBeEnabled();
    await expect(natural).toBeChecked();
    const orderId = await placeAndPay(page);
    await expect(page.getByTestId("confirmation-summary")).toContainText(/Local Pickup\s*Free/);
    const job = await jobRow(orderId);
    expect([job.status, job.material, job.filamentColor]).toEqual(["confirmed", "Nylon", "Natural"]);
  });

  test("the confirmation page of a rejected order says so, not Payment Successful", async ({ page }) => {
    const casey = await signInAs(page, DEMO.customer);
    const db = await getDb();
    const [rejected] = await db
      .select()
      .from(printJobs)
      .where(and(eq(printJobs.customerId, casey.id), eq(printJobs.status, "rejected")));
    await page.goto(`/order-confirmation?orderId=${rejected!.id}`);
    await expect(page.getByRole("heading", { name: "Order Rejected" })).toBeVisible();
    await expect(page.getByText("Payment Successful")).toHaveCount(0);
    await expect(page.getByText("Your order has been confirmed!")).toHaveCount(0);
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

  test("the card fields start empty: the test card is a hint beside them, and its button fills them in", async ({ page }) => {
    const { customer, jobId } = await placeTestOrder();
    await signInAs(page, customer.email);
    await page.goto(`/checkout?orderId=${jobId}`);
    const fields = ["Card number", "Expiry (MM/YY)", "CVC", "Name on card"].map((label) => page.getByLabel(label));
    // nothing in a field looks typed in: no values, and no sample values as placeholders
    for (const field of fields) {
      await expect(field).toHaveValue("");
      await expect(field).not.toHaveAttribute("placeholder", /./);
    }
    const hint = page.getByTestId("test-card-hint");
    await expect(hint).toContainText("4242 4242 4242 4242");
    await hint.getByRole("link", { name: "Fill in the test card" }).click();
    await expect(fields[0]!).toHaveValue("4242 4242 4242 4242");
    for (const field of fields) await expect(field).not.toHaveValue("");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/order-confirmation\\?orderId=${jobId}$`));
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  });

  test("the dashboard's stat cards count what its tabs list", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome back, Casey" })).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Order tabs" });
    const tabCount = async (label: string) =>
      Number(/\((\d+)\)/.exec((await tabs.getByRole("link", { name: new RegExp(`^${label}`) }).textContent()) ?? "")?.[1]);
    expect(await tabCount("All Orders")).toBeGreaterThan(0);
    await expect(page.getByTestId("stat-totalOrders")).toHaveText(String(await tabCount("All Orders")));
    await expect(page.getByTestId("stat-active")).toHaveText(String(await tabCount("Active Orders")));
    await expect(page.getByTestId("stat-completed")).toHaveText(String(await tabCount("Completed")));
  });

  test("/orders offers Contact Printer only while a printer is working on the order", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/orders");
    const rows = page.getByTestId("order-row");
    for (const ended of ["Cancelled", "Rejected"]) {
      const row = rows.filter({ has: page.getByText(ended, { exact: true }) });
      await expect(row.first()).toBeVisible();
      await expect(row.getByRole("link", { name: "Contact Printer" })).toHaveCount(0);
    }
    const printing = rows.filter({ has: page.getByText("Printing", { exact: true }) }).first();
    await expect(printing.getByRole("link", { name: "Contact Printer" })).toBeVisible();
  });

  test("Submit Print Job gives the print time as every page does (2h 16m, not 136 min)", async ({ page }) => {
    const customer = await newCustomer(page);
    const draft = await createDraft(customer.id, { printTimeMinutes: 136 });
    await page.goto(`/submit-print?printerId=1&draftId=${draft.id}`);
    const details = page.getByRole("region", { name: "File details" });
    await expect(details).toContainText("2h 16m");
    await expect(details).not.toContainText("136 min");
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
    // the address is asked for; a ZIP outside its state is refused and what was typed stays
    await shipToFifthAvenue(page, "CO");
    await page.getByLabel("Phone for the carrier (optional)").fill("(212) 555-0100");
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page.getByText("ZIP code 10001 is not in CO.")).toBeVisible();
    await expect(page.getByLabel("Street address")).toHaveValue("350 Fifth Avenue");
    await page.getByLabel("State").selectOption("NY");
    const orderId = await placeAndPay(page);
    const fee = (await jobRow(orderId)).deliveryFeeCents;
    await expect(page.getByTestId("confirmation-summary")).toContainText(
      `USPS Shipping (Ground Advantage)$${(fee / 100).toFixed(2)}`,
    );

    await signInAs(page, DEMO.berthoudOwner);
    await page.goto(`/order/${orderId}`);
    // paid and theirs to fulfil: the owner sees where it goes and the phone for the carrier
    await expect(page.getByTestId("delivery-address")).toContainText(
      "Sam Shipper350 Fifth AvenueNew York, NY 10001Phone: (212) 555-0100",
    );
    await ownerStep(page, orderId, "Accept", "Accepted");
    await ownerStep(page, orderId, "Start Printing", "Printing");
    await ownerStep(page, orderId, "Mark Complete", "Print complete");
    await ownerStep(page, orderId, "Ready for Shipping", "Ready to ship");
    await page.getByLabel("Tracking number").fill("9400 1112 0255 5842 7600 00");
    await ownerStep(page, orderId, "Mark as Shipped", "Shipped");
    await expect(page.getByTestId("tracking-number")).toHaveText("9400 1112 0255 5842 7600 00");
    // once it has left, the address is no longer the owner's to see
    await expect(page.getByTestId("delivery-address")).toHaveCount(0);
  });
});

test.describe("owner answers", () => {
  test("Reject asks first, then rejects with the owner's reason; the customer still sees it under Active Orders", async ({
    page,
  }) => {
    const owner = await createPerson("Rhea", "printer_owner");
    const printer = await createPrinterFor(owner.id);
    const customer = await createPerson("Carl");
    const job = await createJob(customer.id, printer.id, "confirmed", `reject-${randomBytes(4).toString("hex")}.stl`);
    await signInAs(page, owner.email);
    await page.goto("/printer-dashboard");
    const row = dashboardRow(page, job.id);
    const confirm = row.getByRole("button", { name: "Yes, reject order" });
    await expect(confirm).toBeHidden();
    await row.getByText("Reject", { exact: true }).click();
    await expect(confirm).toBeVisible();
    expect((await jobRow(job.id)).status).toBe("confirmed");
    await row.getByLabel("Reason for the customer (optional)").fill("Too tall for my printer this week.");
    await confirm.click();
    await expect(toast(page)).toContainText("Order rejected");
    expect((await jobRow(job.id)).status).toBe("rejected");

    await signInAs(page, customer.email);
    await page.goto(`/order/${job.id}`);
    await expect(page.getByTestId("order-status")).toHaveText("Rejected");
    await expect(page.getByText("Too tall for my printer this week.")).toBeVisible();
    await page.goto("/dashboard?tab=active");
    await expect(page.getByTestId("job-card").filter({ hasText: job.fileName })).toBeVisible();
  });

  test("Download 3D File of a file no longer stored comes back to the order with Download Failed", async ({ page }) => {
    const owner = await createPerson("Dora", "printer_owner");
    const printer = await createPrinterFor(owner.id);
    const customer = await createPerson("Cleo");
    const job = await createJob(customer.id, printer.id, "accepted", "gone.stl");
    await signInAs(page, owner.email);
    await page.goto(`/order/${job.id}`);
    await page.getByRole("link", { name: "Download 3D File" }).click();
    await expect(page).toHaveURL(new RegExp(`/order/${job.id}$`));
    await expect(toast(page)).toContainText("Download Failed");
    await expect(toast(page)).toContainText("The design file is no longer stored.");
  });
});

test.describe("bad addresses", () => {
  test("Invalid Checkout, Order Not Found, No Printer Registered for a customer, and /my-orders is the dashboard", async ({
    page,
  }) => {
    await newCustomer(page);
    await page.goto("/checkout?orderId=not-a-number");
    await expect(page.getByRole("heading", { name: "Invalid Checkout" })).toBeVisible();

    // another customer's order is not this customer's to pay or see
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.email, DEMO.customer));
    const [theirs] = await db
      .select()
      .from(printJobs)
      .where(and(eq(printJobs.customerId, casey!.id), eq(printJobs.status, "submitted")));
    await page.goto(`/checkout?orderId=${theirs!.id}`);
    await expect(page.getByRole("heading", { name: "Invalid Checkout" })).toBeVisible();
    const hidden = await page.goto(`/order/${theirs!.id}`);
    expect(hidden?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Order Not Found" })).toBeVisible();
    await expect(page.getByText("The order you're looking for doesn't exist or you don't have access to it.")).toBeVisible();

    await page.goto("/printer-tracking");
    await expect(page.getByRole("heading", { name: "No Printer Registered" })).toBeVisible();

    await page.goto("/my-orders");
    await expect(page).toHaveURL(/\/dashboard$/);
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
    // the refusal beside the button, and as the destructive toast
    await expect(
      page.getByText("Submission Failed: This printer is not taking orders right now. Please choose another."),
    ).toBeVisible();
    const toast = page.getByTestId("toast").filter({ hasText: "Submission Failed" });
    await expect(toast).toContainText("This printer is not taking orders right now. Please choose another.");
    await expect(page).toHaveURL(/\/submit-print\?/);
    const [job] = await db.select().from(printJobs).where(eq(printJobs.id, draft.id));
    expect(job!.status).toBe("draft");
  });
});
