import type { Page } from "@playwright/test";
import { expect, jsDisabled, test } from "./fixtures";

async function fillCalculator(
  page: Page,
  values: { weight?: string; colors?: string; hours?: string; material?: string; delivery?: string },
) {
  if (values.weight !== undefined) await page.getByLabel("Weight (grams)").fill(values.weight);
  if (values.colors !== undefined) await page.getByLabel("Colours").selectOption(values.colors);
  if (values.hours !== undefined) await page.getByLabel("Print time (hours)").fill(values.hours);
  if (values.material !== undefined) await page.getByLabel("Material").selectOption({ label: values.material });
  if (values.delivery !== undefined) await page.getByLabel("Delivery").selectOption({ label: values.delivery });
  // without JavaScript the GET form computes on the server; with it the figures are already live
  if (jsDisabled()) await page.getByRole("button", { name: "Calculate" }).click();
}

test.describe("pricing page", () => {
  test("the calculator starts from its defaults and says the printer's rate decides", async ({ page }) => {
    await page.goto("/pricing");
    await expect(page.getByLabel("Weight (grams)")).toHaveValue("100");
    await expect(page.getByLabel("Material")).toHaveValue("PLA");
    await expect(page.getByTestId("calculator-total")).toHaveText("$3.00");
    await expect(page.getByText("The printer you choose sets the final price")).toBeVisible();
  });

  test("gives the engine's totals: 200 g, 3 colours, 90 min at $15/kg is $11.50; 100 g, 1 colour, 60 min is $2.50", async ({
    page,
  }) => {
    await page.goto("/pricing");
    await fillCalculator(page, {
      weight: "200",
      colors: "3",
      hours: "1.5",
      material: "Platform rate ($15.00/kg)",
      delivery: "Pickup (free)",
    });
    await expect(page.getByTestId("customer-pays")).toHaveText("$11.50");
    await expect(page.getByTestId("calculator-total")).toHaveText("$11.50");
    if (!jsDisabled()) await expect(page).toHaveURL(/\/pricing$/);

    await fillCalculator(page, { weight: "100", colors: "1", hours: "1" });
    await expect(page.getByTestId("calculator-total")).toHaveText("$2.50");

    await fillCalculator(page, { delivery: "Local delivery ($5.00)" });
    await expect(page.getByTestId("calculator-total")).toHaveText("$7.50");
    await fillCalculator(page, { delivery: "Shipping (about $5.99)" });
    await expect(page.getByTestId("calculator-total")).toHaveText("$8.49");
  });

  test("the material select sets the typical rate per kg", async ({ page }) => {
    await page.goto("/pricing");
    await fillCalculator(page, { weight: "500", material: "TPU ($35.00/kg)" });
    await expect(page.getByTestId("calculator-result")).toContainText("Material ($35.00/kg)");
    await expect(page.getByTestId("calculator-result")).toContainText("$17.50");
  });

  test("an out-of-range weight is named, not silently priced", async ({ page }) => {
    await page.goto("/pricing?weight=5000");
    await expect(page.getByText("Weight must be between 1 and 1000 g")).toBeVisible();
  });

  test("the weight tier table shows public prices from the engine's tiers; clicking a tier sets the weight to its minimum", async ({
    page,
  }) => {
    await page.goto("/pricing");
    const tiers = page.getByTestId("weight-tier");
    await expect(tiers).toHaveCount(9);
    await expect(tiers.first()).toContainText("$0.98");
    await expect(tiers.last()).toContainText("$9.98");
    await expect(page.getByText("Weight tiers from $0.98 (0-25 g) to $9.98 (751-1000 g)")).toBeVisible();

    await page.getByRole("link", { name: /751-1000 g/ }).click();
    await expect(page.getByLabel("Weight (grams)")).toHaveValue("751");
    // 751 g at PLA's $20/kg: $15.02 + 15% = $17.27
    await expect(page.getByTestId("calculator-total")).toHaveText("$17.27");

    await page.getByRole("link", { name: /0-25 g/ }).click();
    await expect(page.getByLabel("Weight (grams)")).toHaveValue("1");
  });

  test("the examples load into the calculator", async ({ page }) => {
    await page.goto("/pricing");
    const example = page.getByTestId("pricing-example").filter({ hasText: "Three-colour figurine" });
    await expect(example).toContainText("$11.50");
    await example.getByRole("link", { name: "Try it in the calculator" }).click();
    await expect(page.getByLabel("Colours")).toHaveValue("3");
    await expect(page.getByTestId("calculator-total")).toHaveText("$11.50");
  });
});
