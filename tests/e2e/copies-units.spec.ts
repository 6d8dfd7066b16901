// Four copies of a part drawn in inches, with JavaScript on and off: measured at its real size, one price from
// /upload through Choose Printer and /submit-print to checkout, and shipped to an address with one total from
// /submit-print to the receipt.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { expect, jsDisabled, test } from "./fixtures";
import { shipToFifthAvenue } from "./helpers";

const BRACKET_INCH = "tests/fixtures/designs/bracket-2x1x0.5-inch.stl";

const amounts = (text: string | null) => [...(text ?? "").matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));

/** Where the e2e server writes its mail (MAIL_OUTBOX_DIR beside the test database, playwright.config.ts). */
const outbox = () => `${(process.env.DATABASE_URL ?? "file:tests/.tmp/e2e.db").replace(/^file:/, "")}-outbox`;

/** The text of the first mail to `address` whose subject starts with `subject`, if it was written yet. */
async function mailText(address: string, subject: string): Promise<string | undefined> {
  for (const file of (await readdir(outbox()).catch(() => [] as string[])).filter((name) => name.endsWith(".eml"))) {
    const raw = await readFile(join(outbox(), file));
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    if (mail.subject?.startsWith(subject)) return mail.text ?? "";
  }
  return undefined;
}

/** Saves the bracket drawn in inches as 4 copies of PLA Black and goes on to Choose Printer's cheapest printer. */
async function fourInchBrackets(page: Page) {
  await page.goto("/upload");
  await page.locator("#design-file").setInputFiles(BRACKET_INCH);
  await page.getByLabel("File units").selectOption("inch");
  await page.getByLabel("Copies").fill("4");
  await page.getByLabel("Material").selectOption("PLA");
  await page.getByLabel("Color", { exact: true }).selectOption("Black");
  await page.getByRole("button", { name: "Save Print" }).click();
  await expect(page).toHaveURL(/\/upload\?draft=\d+$/);
  await page.getByRole("link", { name: "Choose Printer & Submit" }).click();
  await (await cheapestCard(page)).card.getByRole("link", { name: "Select Printer" }).click();
  await expect(page.getByRole("heading", { name: "Submit Print Job" })).toBeVisible();
}

/** The cheapest of the printers that can take the order now (busy ones are listed too, but can't be selected). */
async function cheapestCard(page: Page) {
  const cards = page.getByTestId("printer-card").filter({ has: page.getByRole("link", { name: "Select Printer" }) });
  await expect(cards.first()).toBeVisible();
  const prices: number[] = [];
  for (const card of await cards.all()) prices.push(amounts(await card.getByTestId("design-price").textContent())[0]!);
  const min = Math.min(...prices);
  return { prices, min, card: cards.nth(prices.indexOf(min)) };
}

test.describe("copies, units and one price", () => {
  test("an inch part in 4 copies costs the same on /upload, Choose Printer, /submit-print and checkout", async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto("/upload");
    await page.locator("#design-file").setInputFiles(BRACKET_INCH);
    if (!jsDisabled()) {
      // read as millimetres the bracket is 2 mm long: the page asks whether it is drawn in inches
      await expect(page.getByTestId("unit-hint")).toContainText("Is it drawn in inches? Then it is 50.8 mm across.");
    }
    await page.getByLabel("File units").selectOption("inch");
    await page.getByLabel("Copies").fill("4");
    await page.getByLabel("Material").selectOption("PLA");
    await page.getByLabel("Color", { exact: true }).selectOption("Black");
    if (!jsDisabled()) {
      await expect(page.getByTestId("analysis-size")).toHaveText("50.8 × 25.4 × 12.7 mm");
      await expect(page.getByTestId("unit-hint")).toHaveCount(0);
    }
    await page.getByRole("button", { name: "Save Print" }).click();
    await expect(page).toHaveURL(/\/upload\?draft=\d+$/);

    await expect(page.getByTestId("analysis-size")).toHaveText("50.8 × 25.4 × 12.7 mm");
    await expect(page.getByTestId("analysis-weight")).toContainText("for 4 copies");
    await expect(page.getByTestId("price-quantity")).toHaveText("4");
    const range = await page.getByTestId("price-range").textContent();
    const [low, high = low] = amounts(range);
    const printerCount = Number(/at (\d+) printers?/.exec(range ?? "")?.[1]);

    await page.getByRole("link", { name: "Choose Printer & Submit" }).click();
    await expect(page.getByText("4 copies, PLA Black")).toBeVisible();
    const choice = await cheapestCard(page);
    expect(choice.prices).toHaveLength(printerCount);
    expect(choice.min).toBe(low);
    expect(Math.max(...choice.prices)).toBe(high);

    await choice.card.getByRole("link", { name: "Select Printer" }).click();
    await expect(page.getByRole("heading", { name: "Submit Print Job" })).toBeVisible();
    await expect(page.getByTestId("order-quantity")).toHaveValue("4");
    await expect(page.getByTestId("order-total")).toHaveText(`$${low!.toFixed(2)}`);

    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page).toHaveURL(/\/checkout\?orderId=\d+/);
    await expect(page.getByTestId("order-copies")).toHaveText("4 copies");
    await expect(page.getByTestId("order-total")).toHaveText(`$${low!.toFixed(2)}`);
  });

  test("a scale past every printer is refused on the page, keeping the form", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/upload");
    await page.locator("#design-file").setInputFiles(BRACKET_INCH);
    await page.getByLabel("File units").selectOption("inch");
    await page.getByLabel("Scale (%)").fill("1000");
    await page.getByRole("button", { name: "Save Print" }).click();
    await expect(page.getByTestId("upload-alert")).toContainText(
      "At these units and this scale the part is larger than every printer's build volume",
      { timeout: 30_000 },
    );
    await expect(page.getByLabel("Scale (%)")).toHaveValue("1000");
    await expect(page).toHaveURL(/\/upload$/);
  });

  test("4 copies of an inch part shipped to an address: one total on /submit-print, checkout, the order and the receipt", async ({
    page,
    signIn,
  }) => {
    const customer = await signIn();
    await fourInchBrackets(page);
    await shipToFifthAvenue(page, "NY");
    await expect(page.getByTestId("order-quantity")).toHaveValue("4");
    const total = (await page.getByTestId("order-total").textContent())!.trim();
    expect(total).toMatch(/^\$\d+\.\d\d$/);

    await page.getByRole("button", { name: "Submit Order" }).click();
    await expect(page).toHaveURL(/\/checkout\?orderId=\d+$/);
    const orderId = Number(new URL(page.url()).searchParams.get("orderId"));
    await expect(page.getByTestId("order-copies")).toHaveText("4 copies");
    await expect(page.getByTestId("checkout-address")).toContainText("350 Fifth Avenue");
    await expect(page.getByTestId("order-total")).toHaveText(total);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel("Name on card").fill("Test Buyer");
    await page.getByRole("button", { name: `Pay ${total}` }).click();
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

    await page.goto(`/order/${orderId}`);
    await expect(page.getByText(total).first()).toBeVisible();
    await expect(page.getByTestId("delivery-address")).toContainText("Sam Shipper350 Fifth AvenueNew York, NY 10001");

    let receipt: string | undefined;
    await expect
      .poll(async () => (receipt = await mailText(customer.email, "Your Printnear Receipt")) !== undefined, { timeout: 20_000 })
      .toBe(true);
    expect(receipt).toContain(`Order #${orderId}`);
    expect(receipt).toContain("Copies: 4");
    expect(receipt).toContain("Ship to: Sam Shipper, 350 Fifth Avenue");
    expect(receipt).toContain(`Total: ${total}`);
    expect(receipt).toContain("charged when the printer accepts");
  });
});
