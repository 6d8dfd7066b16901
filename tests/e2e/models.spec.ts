import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { catalogueModels, libraryModels } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { quotePrice } from "../../app/domain/pricing";
import { formatMinutes } from "../../app/domain/format";
import { expect, jsDisabled, test } from "./fixtures";

async function libraryId(name: string) {
  const db = await getDb();
  const [row] = await db.select({ id: libraryModels.id }).from(libraryModels).where(eq(libraryModels.name, name));
  if (!row) throw new Error(`No library model ${name}`);
  return row.id;
}

/** With JavaScript the filters apply as they change; without it the Search button submits the GET form. */
async function applyFilters(page: Page, expectedUrl: RegExp) {
  if (jsDisabled()) await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(expectedUrl);
}

const cards = (page: Page) => page.getByTestId("model-card");

// the two projects run side by side on one database, so each signs in as its own demo user
// neither created the demo library models (a creator cannot rate their own)
const member = () => (jsDisabled() ? "lovelandOwner" : "fortCollinsOwner");

test.describe("Browse Models", () => {
  test("browse both tabs, search, sort and filter", async ({ page }) => {
    await page.goto("/models");
    await expect(page.getByRole("heading", { name: "Thousands of Models, One Click Away" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Browse Thingiverse" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByLabel("Sort by")).toHaveValue("featured");
    await expect(cards(page).first()).toContainText("Flexi Rex");
    await expect(page.getByRole("link", { name: "Upload Model" })).toHaveAttribute("href", "/upload-model");

    await page.getByLabel("Sort by").selectOption("newest");
    await applyFilters(page, /sort=newest/);
    await expect(cards(page).first()).toContainText("Flexi Rex");
    await expect(cards(page).nth(1)).toContainText("Modular Desk Organizer");

    await page.getByLabel("Search").fill("planter");
    await applyFilters(page, /q=planter/);
    await expect(cards(page).filter({ hasText: "Flexi Rex" })).toHaveCount(0);
    await expect(cards(page).filter({ hasText: "Low-Poly Planter" })).toContainText("Non-commercial");

    await page.getByLabel("Search").fill("zeppelin");
    await applyFilters(page, /q=zeppelin/);
    await expect(page.getByText("No results found. Try a different search.")).toBeVisible();

    await page.getByRole("link", { name: "Your Library" }).click();
    await expect(page).toHaveURL(/tab=library/);
    await expect(page.getByRole("link", { name: "Your Library" })).toHaveAttribute("aria-current", "page");
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Category").selectOption({ label: "Organization" });
    await applyFilters(page, /category=5/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Cable Clip Set");

    await page.getByLabel("Category").selectOption({ label: "All Categories" });
    await page.getByLabel("Search").fill("dragons");
    await applyFilters(page, /q=dragons/);
    await expect(cards(page).first()).toContainText("Articulated Dragon");
  });

  test("open a catalogue model and a library model", async ({ page }) => {
    await page.goto("/models");
    await cards(page).filter({ hasText: "Flexi Rex" }).click();
    await expect(page).toHaveURL(/\/models\/thingiverse\/3495390$/);
    await expect(page.getByRole("heading", { name: "Flexi Rex", level: 1 })).toBeVisible();
    await expect(page.getByText("by DrLex", { exact: true })).toBeVisible();
    // before a printer is chosen: the range over the demo's available printers, each at its own rate; a
    // visitor has no location, so the text does not say "near you"
    await expect(page.getByTestId("estimate-total")).toHaveText(
      /^from \$\d+\.\d\d to \$\d+\.\d\d at \d+ printers anywhere \(add your ZIP code to see those near you\)$/,
    );
    await expect(page.getByTestId("price-estimate")).not.toContainText("platform rate");
    // ordering makes a draft, so it is a form post, never a link a prefetcher could follow
    await expect(page.getByRole("button", { name: "Order Print" })).toBeEnabled();
    await expect(page.locator('form[method="post"][action="/order-model/thingiverse/3495390"]')).toContainText("Order Print");
    await expect(page.getByRole("link", { name: "Order Print" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Download Files/ })).toHaveAttribute(
      "href",
      "https://www.thingiverse.com/thing:3495390",
    );
    await expect(page.getByText("Toys & Games", { exact: true })).toBeVisible();
    const [flexi] = await (await getDb()).select().from(catalogueModels).where(eq(catalogueModels.sourceId, 3495390));
    await expect(page.getByText(formatMinutes(flexi.printTimeMinutes), { exact: true })).toBeVisible();

    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Models" }).click();
    await expect(page).toHaveURL(/\/models$/);

    const id = await libraryId("Articulated Dragon");
    await page.goto(`/models/library/${id}`);
    await expect(page.getByRole("heading", { name: "Articulated Dragon", level: 1 })).toBeVisible();
    await expect(page.getByText("by Casey Customer", { exact: true })).toBeVisible();
    // the seed weighs its demo file with the analysis engine: price it with the engine
    const [dragon] = await (await getDb()).select().from(libraryModels).where(eq(libraryModels.id, id));
    // no printer charges less than the platform rate, so the range starts above it
    const quote = quotePrice({ weightGrams: dragon.filamentWeightGrams, printTimeMinutes: dragon.printTimeMinutes });
    const total = (await page.getByTestId("estimate-total").textContent()) ?? "";
    const lowest = Number(/^from \$(\d+\.\d\d) to/.exec(total)?.[1]);
    expect(Math.round(lowest * 100)).toBeGreaterThan(quote.customerPays);
    await expect(page.getByText(formatMinutes(dragon.printTimeMinutes), { exact: true })).toBeVisible();
    await expect(page.getByText(`${dragon.filamentWeightGrams} g`, { exact: true })).toBeVisible();
    await expect(page.getByText("intermediate", { exact: true })).toBeVisible();

    await page.goto("/models/library/99999");
    await expect(page.getByRole("heading", { name: "Model not found" })).toBeVisible();
  });

  test("a non-commercial model cannot be ordered as a paid print", async ({ page }) => {
    await page.goto(`/models/library/${await libraryId("Phone Stand Pro")}`);
    await expect(page.getByRole("button", { name: "Order Print" })).toBeDisabled();
    await expect(page.getByRole("link", { name: "Order Print" })).toHaveCount(0);
    await expect(page.locator('form[action^="/order-model/"]')).toHaveCount(0);
    await expect(page.getByTestId("licence-refusal")).toContainText("licensed CC BY-NC, which does not allow commercial use");

    await page.goto("/models/thingiverse/4734271");
    await expect(page.getByRole("button", { name: "Order Print" })).toBeDisabled();
    await expect(page.getByTestId("licence-refusal")).toBeVisible();
  });

  test("a visitor is asked to sign in, and the API refuses them", async ({ page }) => {
    const id = await libraryId("Hex Key Holder");
    await page.goto(`/models/library/${id}`);
    await expect(page.getByTestId("like-button")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Post Comment" })).toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/auth\\?redirectTo=%2Fmodels%2Flibrary%2F${id}$`));

    for (const [path, body] of [
      [`/api/models/${id}/like`, {}],
      [`/api/models/${id}/comments`, { comment: "hi" }],
      [`/api/models/${id}/ratings`, { rating: 5, hasPrinted: true }],
    ] as const) {
      const res = await page.request.post(path, { data: body });
      expect(res.status(), path).toBe(401);
      expect(await res.json()).toEqual({ message: "Not authenticated" });
    }
    expect((await page.request.get(`/api/models/library/${id}/like-status`)).status()).toBe(401);
  });

  test("like, comment and rate as a signed-in user", async ({ page, signIn }) => {
    await signIn(member());
    const id = await libraryId(jsDisabled() ? "Hex Key Holder" : "Self-Watering Planter");
    await page.goto(`/models/library/${id}`);

    const like = page.getByTestId("like-button");
    const wasLiked = (await like.getAttribute("aria-pressed")) === "true";
    await like.click();
    await expect(like).toHaveAttribute("aria-pressed", String(!wasLiked));
    await like.click();
    await expect(like).toHaveAttribute("aria-pressed", String(wasLiked));

    const post = page.getByRole("button", { name: "Post Comment" });
    if (jsDisabled()) {
      await page.getByLabel("Your comment").fill("   ");
      await post.click();
      await expect(page.getByText("Please write a comment first.")).toBeVisible();
    } else {
      await expect(post).toBeDisabled();
    }
    const text = `Printed this at 0.2 mm, came out great (${Date.now()})`;
    await page.getByLabel("Your comment").fill(text);
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByTestId("toast")).toContainText("Comment posted!");
    await expect(page.getByTestId("comments")).toContainText(text);
    await expect(page.getByLabel("Your comment")).toHaveValue("");

    // the visible star is the label of a visually hidden radio
    await page.locator("label").filter({ hasText: "4 stars" }).click();
    await page.getByLabel("Review (optional)").fill("Sturdy and easy to print.");
    await page.getByRole("button", { name: "Submit Rating" }).click();
    await expect(page.getByTestId("toast")).toContainText("Rating submitted!");
    await expect(page.getByLabel("4 stars")).toBeChecked();
    await expect(page.getByTestId("model-rating")).not.toContainText("No ratings yet");
  });

  test("the author deletes their comment after confirming", async ({ page, signIn }) => {
    await signIn(member());
    const id = await libraryId(jsDisabled() ? "Hex Key Holder" : "Self-Watering Planter");
    await page.goto(`/models/library/${id}`);
    const text = `A comment to take back (${Date.now()})`;
    await page.getByLabel("Your comment").fill(text);
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByTestId("toast")).toContainText("Comment posted!");

    const mine = page.getByTestId("comments").getByRole("listitem").filter({ hasText: text });
    await expect(mine.getByRole("button", { name: "Delete comment" })).toBeHidden();
    await mine.getByText("Delete", { exact: true }).click();
    await mine.getByRole("button", { name: "Delete comment" }).click();
    await expect(page.getByTestId("toast")).toContainText("Comment deleted.");
    await expect(page.getByText(text)).toHaveCount(0);
  });
});

test.describe("Upload Model", () => {
  test("a visitor sees Authentication Required with a Log In button", async ({ page }) => {
    await page.goto("/upload-model");
    await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
    await expect(page.getByText("Please log in to upload models to the library.")).toBeVisible();
    await page.getByRole("link", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fupload-model$/);
  });

  test("upload a library model with its file and land on its page", async ({ page, signIn }) => {
    await signIn(member());
    await page.goto("/upload-model");
    await expect(page.getByLabel("Difficulty")).toHaveValue("beginner");
    await expect(page.getByLabel("License")).toHaveValue("CC BY");

    await page.getByLabel("Name").fill("ab");
    await page.getByLabel("Description").fill("short");
    await page.getByRole("button", { name: "Upload Model" }).click();
    await expect(page.getByText("Name must be at least 3 characters")).toBeVisible();
    await expect(page.getByText("Description must be at least 10 characters")).toBeVisible();
    await expect(page.getByText("Please select a category")).toBeVisible();

    const name = `Test Cube ${jsDisabled() ? "no-js" : "js"} ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("A 20 mm calibration cube for checking dimensions.");
    await page.getByLabel("Category").selectOption({ label: "Tools & Parts" });
    await page.getByLabel("Tags (comma-separated)").fill("calibration, cube");
    await page.getByLabel(/Model file/).setInputFiles("tests/fixtures/models/trimesh_20mm-xyz-cube.stl");
    await page.getByRole("button", { name: "Upload Model" }).click();

    await expect(page).toHaveURL(/\/models\/library\/\d+$/);
    await expect(page.getByTestId("toast")).toContainText("Success!");
    await expect(page.getByTestId("toast")).toContainText("Your model has been uploaded successfully.");
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByText("Tools & Parts", { exact: true })).toBeVisible();

    const download = page.getByRole("link", { name: "Download Files" });
    const href = await download.getAttribute("href");
    expect(href).toMatch(/^\/models\/library\/\d+\/download$/);
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect((await res.body()).equals(readFileSync("tests/fixtures/models/trimesh_20mm-xyz-cube.stl"))).toBe(true);
  });

  test("Cancel goes back to the models", async ({ page, signIn }) => {
    await signIn(member());
    await page.goto("/upload-model");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/models$/);
  });
});
