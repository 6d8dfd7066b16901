// Four copies of a part drawn in inches, with JavaScript on and off: measured at its real size, and one price from
// /upload through Choose Printer and /submit-print to checkout.
import type { Page } from "@playwright/test";
import { expect, jsDisabled, test } from "./fixtures";

const BRACKET_INCH = "tests/fixtures/designs/bracket-2x1x0.5-inch.stl";

const amounts = (text: string | null) => [...(text ?? "").matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));

async function cheapestCard(page: Page) {
  const cards = page.getByTestId("printer-card");
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
});
