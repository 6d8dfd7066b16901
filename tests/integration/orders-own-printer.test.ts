// An owner can't order from their own printer (they could pay and refund money to themselves): the API and
// the page's post refuse it on the server, the page sends them back to choose, and Choose a Printer leaves
// their own printers out. Another customer orders from the same printer as before.
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { printJobs } from "../../db/schema";
import { loader as choosePrinterPage } from "../../app/routes/choose-printer";
import { action as submitOrder } from "../../app/routes/api.submit-order";
import { action as submitPrintAction, loader as submitPrintPage } from "../../app/routes/submit-print";
import { OWN_PRINTER } from "../../app/services/orders/place-order.server";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import {
  args,
  createTestUser,
  flashedToast,
  formRequest,
  getRequest,
  jsonRequest,
  run,
  sessionCookieFor,
} from "../setup/requests";

async function ownerWithOwnDraft() {
  const { owner, printer } = await createOwnerWithPrinter();
  const draft = await createDraft(owner.id);
  return { owner, printer, draft, cookie: await sessionCookieFor(owner.id) };
}

const statusOf = async (draftId: number) =>
  (await (await getDb()).select().from(printJobs).where(eq(printJobs.id, draftId)))[0]!.status;

test("POST /api/submit-order refuses an owner's order from their own printer with 403", async () => {
  const { printer, draft, cookie } = await ownerWithOwnDraft();
  const order = { printerId: printer.id, draftId: draft.id, filamentColor: "Red", deliveryMethod: "pickup" };
  const res = await run(() => submitOrder(args(jsonRequest("/api/submit-order", order, { cookie }))));
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({ message: OWN_PRINTER });
  expect(await statusOf(draft.id)).toBe("draft");

  // the same printer takes another customer's order
  const customer = (await createTestUser())!;
  const theirs = await createDraft(customer.id);
  const customerCookie = await sessionCookieFor(customer.id);
  const placed = await run(() =>
    submitOrder(args(jsonRequest("/api/submit-order", { ...order, draftId: theirs.id }, { cookie: customerCookie }))),
  );
  expect(placed.status).toBe(201);
});

test("/submit-print's post refuses it on the printer field; its page sends the owner back to choose", async () => {
  const { printer, draft, cookie } = await ownerWithOwnDraft();
  const fields = { printerId: String(printer.id), draftId: String(draft.id), filamentColor: "Red", deliveryMethod: "pickup" };
  const refused = await run(() => submitPrintAction(args(formRequest("/submit-print", fields, { cookie }))));
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ result: { error: { printerId: [OWN_PRINTER] } } });
  expect(await statusOf(draft.id)).toBe("draft");

  const page = await run(() =>
    submitPrintPage(args(getRequest(`/submit-print?printerId=${printer.id}&draftId=${draft.id}`, cookie))),
  );
  expect(page.status).toBe(302);
  expect(page.headers.get("location")).toBe(`/choose-printer?draftId=${draft.id}`);
  expect(await flashedToast(page)).toMatchObject({ description: OWN_PRINTER });
});

test("Choose a Printer leaves the owner's own printers out, and shows them to everyone else", async () => {
  const { printer, draft, cookie } = await ownerWithOwnDraft();
  const other = await createOwnerWithPrinter();
  const listed = async (cookieOf: string, draftId: number) =>
    (
      (await (
        await run(() => choosePrinterPage(args(getRequest(`/choose-printer?draftId=${draftId}&location=80513`, cookieOf))))
      ).json()) as { printers: { id: number }[] }
    ).printers.map((p) => p.id);
  const forOwner = await listed(cookie, draft.id);
  expect(forOwner).toContain(other.printer.id);
  expect(forOwner).not.toContain(printer.id);

  const customer = (await createTestUser())!;
  const theirs = await createDraft(customer.id);
  expect(await listed(await sessionCookieFor(customer.id), theirs.id)).toEqual(
    expect.arrayContaining([printer.id, other.printer.id]),
  );
});
