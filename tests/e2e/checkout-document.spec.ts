// Every way into /checkout loads a new document, with JavaScript on as well as off: the card
// provider's script is allowed only by /checkout's own Content-Security-Policy, which a client-side
// navigation would not bring along.
import { randomBytes } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { createDraft } from "../setup/orders";
import { expect, jsDisabled, test } from "./fixtures";
import { createJob } from "./helpers";

/** Document (not fetch) requests for /checkout from now on. */
function checkoutDocuments(page: Page) {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document" && new URL(request.url()).pathname === "/checkout") seen.push(request);
  });
  return seen;
}

/** With JavaScript, wait until Remix has taken over the page, so a click could navigate client-side. */
async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
  if (!jsDisabled()) await page.waitForFunction(() => "__remixRouter" in window);
}

async function expectCheckoutDocument(page: Page, documents: Request[], orderId: number) {
  await expect(page).toHaveURL(new RegExp(`/checkout\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  expect(documents.map((r) => new URL(r.url()).search)).toContain(`?orderId=${orderId}`);
  const policy = (await documents.at(-1)!.response())!.headers()["content-security-policy"];
  expect(policy).toContain("https://js.stripe.com");
}

test.describe("into /checkout", () => {
  for (const from of ["/order/{id}", "/dashboard", "/orders"]) {
    test(`Pay now on ${from} loads checkout as a document`, async ({ page, signIn }) => {
      const customer = await signIn();
      const job = (await createJob(customer.id, 1, "submitted", `pay-${randomBytes(3).toString("hex")}.stl`))!;
      await page.goto(from.replace("{id}", String(job.id)));
      await hydrated(page);
      const documents = checkoutDocuments(page);
      await page.locator(`a[href="/checkout?orderId=${job.id}"]`).first().click();
      await expectCheckoutDocument(page, documents, job.id);
    });
  }

  test("Submit Order goes on to checkout as a document, with its toast", async ({ page, signIn }) => {
    const customer = await signIn();
    const draft = await createDraft(customer.id);
    await page.goto(`/submit-print?printerId=1&draftId=${draft.id}`);
    await hydrated(page);
    const documents = checkoutDocuments(page);
    await page.getByRole("button", { name: "Submit Order" }).click();
    await expectCheckoutDocument(page, documents, draft.id);
    await expect(page.getByText("Order Submitted Successfully!")).toBeVisible();
  });
});
