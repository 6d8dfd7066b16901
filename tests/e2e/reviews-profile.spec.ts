import { expect, test } from "./fixtures";
import { createJob, createPerson, createPrinterFor } from "./helpers";

test.describe("printer reviews", () => {
  test("after pickup the customer rates the printer and the review shows on the printer page", async ({ page, signIn }) => {
    const customer = await createPerson("Rita");
    const owner = await createPerson("Owen", "printer_owner");
    const printer = await createPrinterFor(owner.id, `Owen's Voron ${Date.now()}`);
    const printing = await createJob(customer.id, printer.id, "printing", "not-yet.stl");
    const done = await createJob(customer.id, printer.id, "picked_up", "vase.stl");

    await signIn(customer);
    await page.goto(`/printers/${printer.id}`);
    await expect(page.getByTestId("printer-rating")).toContainText("New");
    await expect(page.getByRole("link", { name: "Print here" })).toHaveAttribute("href", `/upload?printer=${printer.id}`);
    await expect(page.getByTestId("printer-location")).toHaveText(/Fort Collins/);

    await page.goto(`/jobs/${printing.id}/review`);
    await expect(page.getByText("You can rate the printer once your print has been picked up or shipped.")).toBeVisible();

    // the order page of a picked-up job links to the review; one still printing doesn't
    await page.goto(`/order/${printing.id}`);
    await expect(page.getByRole("link", { name: "Rate this printer" })).toHaveCount(0);
    await page.goto(`/order/${done.id}`);
    await page.getByRole("link", { name: "Rate this printer" }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${done.id}/review$`));
    await page.locator("label").filter({ hasText: "4 stars" }).click();
    await page.getByLabel("Your review (optional)").fill("Smooth walls and a friendly pickup.");
    await page.getByRole("button", { name: "Submit Review" }).click();
    await expect(page).toHaveURL(new RegExp(`/printers/${printer.id}`));
    await expect(page.getByText("Review Saved")).toBeVisible();
    await expect(page.getByTestId("printer-rating")).toContainText("4.0");
    await expect(page.getByTestId("printer-rating")).toContainText("(1 review)");
    await expect(page.getByTestId("printer-review")).toContainText("Smooth walls and a friendly pickup.");
    await expect(page.getByTestId("printer-review")).toContainText("Rita");

    // editing keeps one review per job: the dashboard card now offers to edit it
    await page.goto("/dashboard?tab=completed");
    const card = page.getByTestId("job-card").filter({ hasText: "vase.stl" });
    await card.getByRole("link", { name: "Edit your review" }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${done.id}/review$`));
    await page.locator("label").filter({ hasText: "2 stars" }).click();
    await page.getByRole("button", { name: "Update Review" }).click();
    await expect(page.getByTestId("printer-rating")).toContainText("2.0");
    await expect(page.getByTestId("printer-review")).toHaveCount(1);

    // the owner can't review (it isn't their order)
    await page.context().clearCookies();
    await signIn(owner);
    await page.goto(`/order/${done.id}`);
    await expect(page.getByTestId("order-status")).toBeVisible();
    await expect(page.getByRole("link", { name: /Rate this printer|Edit your review/ })).toHaveCount(0);
    const response = await page.goto(`/jobs/${done.id}/review`);
    expect(response?.status()).toBe(404);
  });
});

test.describe("profile", () => {
  test("choosing a preset avatar updates the profile and the header", async ({ page, signIn }) => {
    const user = await createPerson("Ava");
    await signIn(user);
    await page.goto("/profile");
    await expect(page.getByText("Account type: customer")).toBeVisible();
    await page.getByRole("radio", { name: "Avatar 5" }).check();
    await page.getByLabel("First name").fill("Avery");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Profile Updated")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Avery");
    await expect(page.getByRole("radio", { name: "Avatar 5" })).toBeChecked();
    await expect(page.getByLabel("Account menu").locator("img")).toHaveAttribute("src", "/avatars/avatar-5.svg");
  });

  test("an owner's account type is shown with a space, not an underscore", async ({ page, signIn }) => {
    const owner = await createPerson("Opal", "printer_owner");
    await signIn(owner);
    await page.goto("/profile");
    await expect(page.getByText(/Account type: printer owner/i)).toBeVisible();
    await expect(page.getByText("printer_owner")).toHaveCount(0);
  });

  test("a bad ZIP is refused with Update Failed", async ({ page, signIn }) => {
    const user = await createPerson("Zed");
    await signIn(user);
    await page.goto("/profile");
    const zip = page.getByLabel("ZIP code (finds printers near you)");
    await zip.fill("12ab");
    // skip the browser's own constraint check so our rule and its message show
    await page.locator("form#profile").evaluate((form: HTMLFormElement) => form.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Save Changes" }).click();
    // a destructive toast as well as the box, and the typed value stays
    await expect(page.getByTestId("toast")).toContainText("Update Failed");
    await expect(page.getByRole("alert").filter({ hasText: "Update Failed" }).first()).toBeVisible();
    await expect(page.getByText("ZIP must be 5 digits").first()).toBeVisible();
    await expect(zip).toHaveValue("12ab");
  });
});
