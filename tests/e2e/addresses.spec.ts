// The address book on /profile with JavaScript on and off: add (the first is the default), a ZIP
// outside its state refused with what was typed kept, make another the default, edit, delete.
import { randomBytes } from "node:crypto";
import { createTestUser } from "../setup/requests";
import { expect, signInAs, test } from "./fixtures";

test("a customer keeps several addresses, one the default, with plain form posts", async ({ page }) => {
  const tag = randomBytes(6).toString("hex");
  const user = await createTestUser({ email: `addr-${tag}@example.test`, username: `addr_${tag}` });
  await signInAs(page, user.email);
  await page.goto("/profile");
  const book = page.locator("#addresses");
  const add = book.locator("#address-new");
  const fill = async (form: typeof add, values: { name: string; line1: string; city: string; state: string; zip: string }) => {
    await form.getByLabel("Recipient name").fill(values.name);
    await form.getByLabel("Street address").fill(values.line1);
    await form.getByLabel("City").fill(values.city);
    await form.getByLabel("State").selectOption(values.state);
    await form.getByLabel("ZIP code").fill(values.zip);
  };
  await fill(add, { name: "Ann Home", line1: "1 Main St", city: "Loveland", state: "CO", zip: "80537" });
  await add.getByRole("button", { name: "Add Address" }).click();
  const saved = book.getByTestId("saved-address");
  await expect(saved).toHaveCount(1);
  await expect(saved.first().getByText("Default", { exact: true })).toBeVisible();

  await book.getByText("Add an address").click();
  await fill(add, { name: "Ann Office", line1: "350 Fifth Avenue", city: "New York", state: "CO", zip: "10001" });
  await add.getByRole("button", { name: "Add Address" }).click();
  await expect(book.getByText("ZIP code 10001 is not in CO.")).toBeVisible();
  await expect(book.locator("#address-new").getByLabel("Street address")).toHaveValue("350 Fifth Avenue");
  await book.locator("#address-new").getByLabel("State").selectOption("NY");
  await book.locator("#address-new").getByRole("button", { name: "Add Address" }).click();
  await expect(saved).toHaveCount(2);

  const office = saved.filter({ hasText: "Ann Office" });
  await office.getByRole("button", { name: "Make default" }).click();
  await expect(saved.first()).toContainText("Ann Office");
  await expect(saved.filter({ hasText: "Ann Office" }).getByText("Default", { exact: true })).toBeVisible();
  await expect(saved.filter({ hasText: "Ann Home" }).getByText("Default", { exact: true })).toHaveCount(0);

  const home = saved.filter({ hasText: "Ann Home" });
  await home.getByText("Edit").click();
  await home.getByLabel("Street address").fill("2 Main St");
  await home.getByRole("button", { name: "Save Address" }).click();
  await expect(saved.filter({ hasText: "Ann Home" })).toContainText("2 Main St");

  await saved.filter({ hasText: "Ann Office" }).getByRole("button", { name: "Delete" }).click();
  await expect(saved).toHaveCount(1);
  await expect(saved.first()).toContainText("Ann Home");
  await expect(saved.first().getByText("Default", { exact: true })).toBeVisible();
});
