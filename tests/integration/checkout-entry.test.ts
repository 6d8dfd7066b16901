// Every way into /checkout is a full document load: the card provider's script and frames are
// allowed by /checkout's own Content-Security-Policy, which a client-side navigation would not
// bring (the previous page's policy stays in force). Without JavaScript nothing changes.
import { readdirSync, readFileSync } from "node:fs";
import { beforeEach, describe, expect, test } from "vitest";
import { action as submitPrintAction } from "../../app/routes/submit-print";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, run, sessionCookieFor } from "../setup/requests";

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe("into /checkout", () => {
  test("Submit Order answers a document redirect to checkout with the success toast", async () => {
    const { printer } = await createOwnerWithPrinter();
    const customer = (await createTestUser())!;
    const draft = await createDraft(customer.id);
    const cookie = await sessionCookieFor(customer.id);
    const answer = await run(() =>
      submitPrintAction(
        args(
          formRequest(
            `/submit-print?printerId=${printer.id}&draftId=${draft.id}`,
            {
              printerId: String(printer.id),
              draftId: String(draft.id),
              filamentColor: "Red",
              deliveryMethod: "pickup",
            },
            { cookie },
          ),
        ),
      ),
    );
    // a plain 302 for a browser without JavaScript
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`/checkout?orderId=${draft.id}`);
    // Remix's client reloads the document for this header instead of navigating in place
    expect(answer.headers.get("x-remix-reload-document")).toBe("true");
    expect(answer.headers.get("set-cookie")).toContain("pn_toast=");
  });

  test("every link to /checkout in the pages reloads the document", () => {
    const dir = "app/routes";
    const links: string[] = [];
    for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".tsx")) continue;
      const source = readFileSync(`${dir}/${file}`, "utf8");
      for (const match of source.matchAll(/<Link\b[^>]*\bto=\{?["'`]\/checkout\b[^>]*>/g)) links.push(`${file}: ${match[0]}`);
    }
    expect(links.length).toBeGreaterThanOrEqual(4);
    expect(links.filter((link) => !/\breloadDocument\b/.test(link))).toEqual([]);
  });
});
