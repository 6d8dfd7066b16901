// Every promise the public pages make, next to the page or API call that keeps it. A promise is
// checked twice: its words are on the page that makes it, and the route that fulfils it answers
// (not 404) for the person it is made to, showing what was promised. A new promise in the copy
// belongs in this table; a flow that goes away takes its promise with it.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { libraryModels } from "../../db/schema";
import { WEIGHT_TIERS } from "../../app/domain/pricing";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { createTestUser } from "../setup/requests";
import { expect, signInAs, test } from "./fixtures";

type Who = "visitor" | "customer" | "owner";
interface World {
  confirmedId: number;
  shippedId: number;
  submittedId: number;
  /** a library model whose licence forbids paid prints */
  nonCommercialModelId: number;
}
interface Promise_ {
  /** the words as a page shows them */
  text: string | RegExp;
  /** the page that makes the promise */
  page: string;
  /** the route that keeps it, for whom, and what it shows there */
  keptBy: (w: World) => string;
  as: Who;
  shows: string | RegExp;
  /** what that route must not show beside it (a promise it would contradict) */
  hides?: string | RegExp;
}

const PROMISES: Promise_[] = [
  {
    text: "Secure checkout: your card is charged only when a printer accepts",
    page: "/",
    keptBy: (w) => `/checkout?orderId=${w.submittedId}`,
    as: "customer",
    shows: /^Pay \$/,
  },
  {
    text: "Free cancellation until a printer accepts",
    page: "/",
    keptBy: (w) => `/order/${w.confirmedId}`,
    as: "customer",
    shows: "Cancel Order",
  },
  {
    text: "Message your printer from the order page",
    page: "/",
    keptBy: (w) => `/order/${w.confirmedId}`,
    as: "customer",
    shows: "Messages",
  },
  { text: "We reply within 24 hours.", page: "/", keptBy: () => "/contact", as: "visitor", shows: "Send Message" },
  { text: "Mon-Fri 9AM-6PM MST", page: "/faq", keptBy: () => "/contact", as: "visitor", shows: "Send Message" },
  {
    text: "When you pay, your card is only authorised. It is charged when the printer owner accepts the job.",
    page: "/faq",
    keptBy: (w) => `/checkout?orderId=${w.submittedId}`,
    as: "customer",
    shows: /^Pay \$/,
  },
  {
    text: /with Cancel Order on your order page, until the printer owner accepts it, at no cost/,
    page: "/faq",
    keptBy: (w) => `/order/${w.confirmedId}`,
    as: "customer",
    shows: "Cancel Order",
  },
  {
    text: "the tracking number appears on your order page once it is sent",
    page: "/faq",
    keptBy: (w) => `/order/${w.shippedId}`,
    as: "customer",
    shows: "Tracking number",
  },
  {
    text: /request its payout from the Payouts tab of/,
    page: "/faq",
    keptBy: () => "/printer-tracking?tab=payouts",
    as: "owner",
    shows: "Payouts",
  },
  {
    text: /You may cancel an order free of charge from its order page until the printer owner accepts it/,
    page: "/terms",
    keptBy: (w) => `/order/${w.confirmedId}`,
    as: "customer",
    shows: "Cancel Order",
  },
  {
    text: /write to the printer owner from the order page/,
    page: "/terms",
    keptBy: (w) => `/order/${w.shippedId}`,
    as: "customer",
    shows: "Messages",
  },
  {
    text: /you may request a payout of the printing price you set from Order Tracking/,
    page: "/terms",
    keptBy: () => "/printer-tracking?tab=payouts",
    as: "owner",
    shows: "Payouts",
  },
  {
    text: /Until then you can cancel at no cost\. Follow its progress on your order page and message the owner there/,
    page: "/how-it-works",
    keptBy: (w) => `/order/${w.confirmedId}`,
    as: "customer",
    shows: "Messages",
  },
  {
    text: /with its tracking number on your order page/,
    page: "/how-it-works",
    keptBy: (w) => `/order/${w.shippedId}`,
    as: "customer",
    shows: "Tracking number",
  },
  {
    text: /request its payout from Order Tracking/,
    page: "/how-it-works",
    keptBy: () => "/printer-tracking?tab=payouts",
    as: "owner",
    shows: "Payouts",
  },
  {
    text: /Each order's page shows its status and tracking number, lets you cancel until the printer accepts, and is where you message the printer owner/,
    page: "/contact",
    keptBy: () => "/dashboard",
    as: "customer",
    shows: /Welcome back/,
  },
  {
    text: /so message the owner from your order page/,
    page: "/faq",
    keptBy: () => "/messages",
    as: "customer",
    shows: "Messages",
  },
];

// Catalogue licences and quotes before a printer is chosen: the copy says what the model pages do.
PROMISES.push(
  {
    text: /Non-commercial licences \(for example CC BY-NC\) do not allow a print to be sold, so those models can't be ordered as paid prints/,
    page: "/faq",
    keptBy: (w) => `/models/library/${w.nonCommercialModelId}`,
    as: "customer",
    shows: "which does not allow commercial use, so it can't be ordered as a paid print",
    hides: "Estimated total",
  },
  {
    text: /Before you choose a printer, model pages and uploads show what the printers that can print it charge, each at its own rate; the platform rate of \$15\.00\/kg is used only when no printer can print it yet/,
    page: "/pricing",
    keptBy: () => "/models/thingiverse/3495390",
    as: "visitor",
    shows: /^from \$\d+\.\d\d to \$\d+\.\d\d at \d+ printers anywhere/,
    hides: "at the platform rate",
  },
);

const NEVER_PROMISED = [/live chat/i, /money-back/i, /verified sellers/i];

async function world(page: Page) {
  const tag = randomBytes(6).toString("hex");
  const { owner, printer } = await createOwnerWithPrinter();
  const customer = await createTestUser({ email: `promise-${tag}@example.test`, username: `promise_${tag}` });
  const job = (status: "submitted" | "confirmed" | "shipped", extra = {}) =>
    createDraft(customer!.id, { status, printerId: printer.id, filamentColor: "Red", deliveryMethod: "pickup", ...extra });
  const w: World = {
    submittedId: (await job("submitted")).id,
    confirmedId: (await job("confirmed")).id,
    shippedId: (await job("shipped", { deliveryMethod: "shipping", deliveryZip: "10001", trackingNumber: "9400 1111 2222" })).id,
    nonCommercialModelId: (
      await (await getDb()).select({ id: libraryModels.id }).from(libraryModels).where(eq(libraryModels.name, "Phone Stand Pro"))
    )[0]!.id,
  };
  const as = async (who: Who) => {
    await page.context().clearCookies();
    if (who === "customer") await signInAs(page, customer!.email);
    if (who === "owner") await signInAs(page, owner.email);
  };
  return { w, as };
}

test.describe("promises the copy makes and the routes that keep them", () => {
  test("every promise is on its page, and its route answers with what was promised", async ({ page }) => {
    // two page loads per promise
    test.setTimeout(90_000);
    const { w, as } = await world(page);
    for (const promise of PROMISES) {
      await as("visitor");
      await page.goto(promise.page);
      // FAQ answers sit in closed <details>: the words must be in the page, not necessarily unfolded
      await expect(page.getByText(promise.text).first(), `"${promise.text}" on ${promise.page}`).toBeAttached();

      await as(promise.as);
      const path = promise.keptBy(w);
      const response = await page.goto(path);
      expect(response?.status(), `${path} for the ${promise.as}`).toBeLessThan(400);
      await expect(page.getByText(promise.shows).first(), `${path} shows "${promise.shows}"`).toBeVisible();
      if (promise.hides) await expect(page.getByText(promise.hides), `${path} shows "${promise.hides}"`).toHaveCount(0);
    }
  });

  test("the pricing page's keychain example weighs what a keychain does, and costs what the calculator says", async ({
    page,
  }) => {
    await page.goto("/pricing");
    const example = page.getByTestId("pricing-example").filter({ hasText: "Keychain-sized part" });
    const grams = Number(/([\d.]+) g,/.exec((await example.textContent()) ?? "")?.[1]);
    // the weight tier table's first row is the keychain's: "Keychain/trinkets"
    const keychains = WEIGHT_TIERS[0]!;
    expect(keychains.description).toBe("Keychain/trinkets");
    expect(grams).toBeGreaterThan(keychains.minGrams);
    expect(grams).toBeLessThanOrEqual(keychains.maxGrams);
    const price = (await example.getByText(/^\$\d+\.\d\d$/).textContent())!;
    await example.getByRole("link", { name: "Try it in the calculator" }).click();
    await expect(page.getByLabel("Weight (grams)")).toHaveValue(String(grams));
    await expect(page.getByTestId("calculator-total")).toHaveText(price);
  });

  test("no page promises live chat, a money-back guarantee or verified sellers", async ({ page }) => {
    for (const path of ["/", "/faq", "/terms", "/how-it-works", "/contact"]) {
      await page.goto(path);
      const text = await page.locator("body").innerText();
      for (const words of NEVER_PROMISED) expect(text, `${path} says ${words}`).not.toMatch(words);
    }
  });
});
