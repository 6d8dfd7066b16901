// Delivery addresses through real Requests: a shipped or delivered order needs a whole address whose
// ZIP lies in its state (400 with each field's message otherwise), the order keeps its own copy, and
// only its customer, and its owner while the paid order is theirs to fulfil, ever see it.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { addresses, printJobs } from "../../db/schema";
import { addressTextMessages } from "../../app/domain/address";
import { tableShippingQuote } from "../../app/domain/shipping";
import { action as confirmPayment } from "../../app/routes/api.confirm-payment";
import { loader as checkoutPage } from "../../app/routes/checkout";
import { loader as getJob } from "../../app/routes/api.print-jobs.$id";
import { action as submitOrder } from "../../app/routes/api.submit-order";
import { loader as orderPage } from "../../app/routes/order.$id";
import { action as profileAction, loader as profilePage } from "../../app/routes/profile";
import { action as submitPrintAction, loader as submitPrintPage } from "../../app/routes/submit-print";
import { milesBetweenZips } from "../../app/services/shipping/rates.server";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };
const NEW_YORK = {
  name: "Casey Customer",
  line1: "350 Fifth Avenue",
  line2: "Floor 20",
  city: "New York",
  state: "NY",
  zip: "10001",
  phone: "(212) 555-0100",
};

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

async function setup() {
  const { owner, printer } = await createOwnerWithPrinter();
  const customer = (await createTestUser())!;
  const draft = await createDraft(customer.id);
  return {
    owner,
    printer,
    customer,
    draft,
    ownerCookie: await sessionCookieFor(owner.id),
    customerCookie: await sessionCookieFor(customer.id),
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

function submit(s: Setup, body: Record<string, unknown>) {
  const order = { printerId: s.printer.id, draftId: s.draft.id, filamentColor: "Red", deliveryMethod: "shipping", ...body };
  return run(() => submitOrder(args(jsonRequest("/api/submit-order", order, { cookie: s.customerCookie }))));
}

async function apiView(id: number, cookie: string) {
  return run(() => getJob(args(getRequest(`/api/print-jobs/${id}`, cookie), { id: String(id) })));
}

async function pageView(id: number, cookie: string) {
  return run(() => orderPage(args(getRequest(`/order/${id}`, cookie), { id: String(id) })));
}

async function pay(s: Setup, orderId: number) {
  const paid = await run(() =>
    confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId, ...CARD }, { cookie: s.customerCookie }))),
  );
  expect(paid.status).toBe(200);
}

describe("POST /api/submit-order with a delivery address", () => {
  test("an incomplete address is 400 with each field's message, and nothing is ordered", async () => {
    const s = await setup();
    const missing = await submit(s, {});
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe("Check the delivery address.");
    expect(Object.keys(body.errors).sort()).toEqual(
      [
        "deliveryAddress.city",
        "deliveryAddress.line1",
        "deliveryAddress.name",
        "deliveryAddress.state",
        "deliveryAddress.zip",
      ].sort(),
    );
    const partial = await submit(s, { deliveryAddress: { ...NEW_YORK, line1: " ", state: "New York", phone: "12" } });
    expect(((await partial.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      "deliveryAddress.line1": ["Enter the street address."],
      "deliveryAddress.state": ["Choose the state (two letters, e.g. CO)."],
      "deliveryAddress.phone": ["Enter a phone number of 10 digits (or leave it empty)."],
    });
    const local = await submit(s, { deliveryMethod: "delivery", deliveryAddress: { zip: "80537" } });
    expect(local.status).toBe(400);
    expect((await (await getDb()).select().from(printJobs).where(eq(printJobs.id, s.draft.id)))[0]!.status).toBe("draft");
  });

  test("control characters, a direction override or invisible-only text in a field are refused, and nothing is ordered", async () => {
    const s = await setup();
    const res = await submit(s, {
      deliveryAddress: {
        ...NEW_YORK,
        name: "Casey \u202eremotsuC",
        line1: "350 Fifth\r\nAvenue",
        line2: "\u200b\u200b",
        city: "New\u0000York",
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: "Check the delivery address.",
      errors: {
        "deliveryAddress.name": [addressTextMessages("name").notOneLine],
        "deliveryAddress.line1": [addressTextMessages("line1").notOneLine],
        "deliveryAddress.line2": [addressTextMessages("line2").invisible],
        "deliveryAddress.city": [addressTextMessages("city").notOneLine],
      },
    });
    expect((await (await getDb()).select().from(printJobs).where(eq(printJobs.id, s.draft.id)))[0]!.status).toBe("draft");
  });

  test("a ZIP outside the address's state is refused by the gazetteer", async () => {
    const s = await setup();
    const res = await submit(s, { deliveryAddress: { ...NEW_YORK, state: "CO" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      "deliveryAddress.zip": ["ZIP code 10001 is not in CO."],
    });
  });

  test("shipping is priced from the address's ZIP and the order keeps a copy that address-book edits leave alone", async () => {
    const s = await setup();
    const db = await getDb();
    const [saved] = await db
      .insert(addresses)
      .values({ userId: s.customer.id, ...NEW_YORK, isDefault: true })
      .returning();
    const res = await submit(s, { deliveryZip: "80537", deliveryAddress: NEW_YORK });
    expect(res.status).toBe(201);
    const { orderId } = (await res.json()) as { orderId: number };
    const row = (await db.select().from(printJobs).where(eq(printJobs.id, orderId)))[0]!;
    const ground = tableShippingQuote(40, milesBetweenZips("80513", "10001")!).defaultOption!;
    expect([row.deliveryZip, row.deliveryFeeCents, row.shippingService]).toEqual(["10001", ground.estimatedCost, ground.service]);
    await db.update(addresses).set({ line1: "1 Elsewhere Rd" }).where(eq(addresses.id, saved!.id));
    await db.delete(addresses).where(eq(addresses.id, saved!.id));
    const view = (await (await apiView(orderId, s.customerCookie)).json()) as { deliveryAddress: unknown };
    expect(view.deliveryAddress).toEqual(NEW_YORK);
  });

  test("a pickup order needs no address and stores none", async () => {
    const s = await setup();
    const res = await submit(s, { deliveryMethod: "pickup" });
    expect(res.status).toBe(201);
    const { orderId } = (await res.json()) as { orderId: number };
    expect(
      ((await (await apiView(orderId, s.customerCookie)).json()) as { deliveryAddress: unknown }).deliveryAddress,
    ).toBeNull();
  });
});

describe("who sees the address", () => {
  test("the owner sees it (with the phone) only once paid and while fulfilling; other customers and owners never", async () => {
    const s = await setup();
    const res = await submit(s, { deliveryAddress: NEW_YORK });
    const { orderId } = (await res.json()) as { orderId: number };
    const checkout = (await (
      await run(() => checkoutPage(args(getRequest(`/checkout?orderId=${orderId}`, s.customerCookie))))
    ).json()) as { order: { deliveryAddress: string } };
    expect(checkout.order.deliveryAddress).toBe(
      "Casey Customer, 350 Fifth Avenue, Floor 20, New York, NY 10001, Phone: (212) 555-0100",
    );
    // before payment the order is not the owner's: neither page nor API shows it
    expect((await apiView(orderId, s.ownerCookie)).status).toBe(404);
    expect((await pageView(orderId, s.ownerCookie)).status).toBe(404);
    await pay(s, orderId);

    const ownerApi = (await (await apiView(orderId, s.ownerCookie)).json()) as { deliveryAddress: unknown };
    expect(ownerApi.deliveryAddress).toEqual(NEW_YORK);
    const ownerPage = (await (await pageView(orderId, s.ownerCookie)).json()) as { order: { deliveryAddress: string[] } };
    expect(ownerPage.order.deliveryAddress).toEqual([
      "Casey Customer",
      "350 Fifth Avenue",
      "Floor 20",
      "New York, NY 10001",
      "Phone: (212) 555-0100",
    ]);

    const otherCustomer = await sessionCookieFor((await createTestUser())!.id);
    const other = await createOwnerWithPrinter();
    const otherOwner = await sessionCookieFor(other.owner.id);
    for (const cookie of [otherCustomer, otherOwner]) {
      expect((await apiView(orderId, cookie)).status).toBe(404);
      expect((await pageView(orderId, cookie)).status).toBe(404);
    }

    // once it has left, the address is no longer the owner's to see; the customer keeps it
    await (await getDb()).update(printJobs).set({ status: "shipped", trackingNumber: "9400" }).where(eq(printJobs.id, orderId));
    expect(((await (await apiView(orderId, s.ownerCookie)).json()) as { deliveryAddress: unknown }).deliveryAddress).toBeNull();
    const afterPage = (await (await pageView(orderId, s.ownerCookie)).json()) as { order: { deliveryAddress: unknown } };
    expect(afterPage.order.deliveryAddress).toBeNull();
    expect(((await (await apiView(orderId, s.customerCookie)).json()) as { deliveryAddress: unknown }).deliveryAddress).toEqual(
      NEW_YORK,
    );
  });
});

describe("/submit-print asks for the address", () => {
  test("prefilled from the default saved address; a refused address answers 400 with field messages", async () => {
    const s = await setup();
    const db = await getDb();
    await db.insert(addresses).values([
      { userId: s.customer.id, ...NEW_YORK, name: "Old Office", isDefault: false },
      { userId: s.customer.id, ...NEW_YORK, isDefault: true },
    ]);
    const url = `/submit-print?printerId=${s.printer.id}&draftId=${s.draft.id}&deliveryMethod=shipping`;
    const page = (await (await run(() => submitPrintPage(args(getRequest(url, s.customerCookie))))).json()) as {
      address: { name: string; line1: string; state: string };
      zip: string;
      savedAddresses: unknown[];
    };
    expect([page.address.name, page.address.line1, page.address.state, page.zip]).toEqual([
      "Casey Customer",
      "350 Fifth Avenue",
      "NY",
      "10001",
    ]);
    expect(page.savedAddresses).toHaveLength(2);

    const fields = {
      printerId: String(s.printer.id),
      draftId: String(s.draft.id),
      filamentColor: "Red",
      deliveryMethod: "shipping",
      "deliveryAddress.name": "Casey Customer",
      "deliveryAddress.line1": "350 Fifth Avenue",
      "deliveryAddress.city": "New York",
      "deliveryAddress.state": "CO",
      deliveryZip: "10001",
    };
    const refused = await run(() => submitPrintAction(args(formRequest("/submit-print", fields, { cookie: s.customerCookie }))));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ result: { error: { deliveryZip: ["ZIP code 10001 is not in CO."] } } });
    const blank = await run(() =>
      submitPrintAction(
        args(formRequest("/submit-print", { ...fields, "deliveryAddress.name": "" }, { cookie: s.customerCookie })),
      ),
    );
    expect(await blank.json()).toMatchObject({ result: { error: { "deliveryAddress.name": ["Enter the recipient's name."] } } });

    const placed = await run(() =>
      submitPrintAction(
        args(formRequest("/submit-print", { ...fields, "deliveryAddress.state": "NY" }, { cookie: s.customerCookie })),
      ),
    );
    expect(placed.status).toBe(302);
    const row = (await db.select().from(printJobs).where(eq(printJobs.id, s.draft.id)))[0]!;
    expect(row.deliveryAddress).toEqual({
      name: "Casey Customer",
      line1: "350 Fifth Avenue",
      city: "New York",
      state: "NY",
      zip: "10001",
    });
  });
});

test("/submit-print refuses a bell or an escape sequence in the address, keeps what was typed and orders nothing", async () => {
  const s = await setup();
  const fields = {
    printerId: String(s.printer.id),
    draftId: String(s.draft.id),
    filamentColor: "Red",
    deliveryMethod: "shipping",
    "deliveryAddress.name": "Casey\u0007Customer",
    "deliveryAddress.line1": "\u001b[2J350 Fifth Avenue",
    "deliveryAddress.city": "New York",
    "deliveryAddress.state": "NY",
    deliveryZip: "10001",
  };
  const refused = await run(() => submitPrintAction(args(formRequest("/submit-print", fields, { cookie: s.customerCookie }))));
  expect(refused.status).toBe(400);
  const { result } = (await refused.json()) as {
    result: { error: Record<string, string[]>; initialValue: { deliveryAddress: Record<string, string> } };
  };
  expect(result.error).toMatchObject({
    "deliveryAddress.name": [addressTextMessages("name").notOneLine],
    "deliveryAddress.line1": [addressTextMessages("line1").notOneLine],
  });
  expect(result.initialValue.deliveryAddress).toMatchObject({ name: "Casey\u0007Customer", city: "New York" });
  const row = (await (await getDb()).select().from(printJobs).where(eq(printJobs.id, s.draft.id)))[0]!;
  expect([row.status, row.deliveryAddress]).toEqual(["draft", null]);
});

describe("the address book on /profile", () => {
  const post = (cookie: string, fields: Record<string, string>) =>
    run(() => profileAction(args(formRequest("/profile", fields, { cookie }))));
  const book = async (cookie: string) =>
    (
      (await (await run(() => profilePage(args(getRequest("/profile", cookie))))).json()) as {
        addresses: { id: number; name: string; line1: string; isDefault: boolean; lines: string[] }[];
      }
    ).addresses;
  const HOME = { name: "Casey Customer", line1: "1 Main St", city: "Loveland", state: "CO", zip: "80537" };

  test("add, edit, make default and delete with plain form posts; the first address is the default", async () => {
    const user = (await createTestUser())!;
    const cookie = await sessionCookieFor(user.id);
    expect((await post(cookie, { intent: "address-save", ...HOME })).status).toBe(302);
    expect((await post(cookie, { intent: "address-save", ...NEW_YORK })).status).toBe(302);
    let saved = await book(cookie);
    expect(saved.map((a) => [a.line1, a.isDefault])).toEqual([
      ["1 Main St", true],
      ["350 Fifth Avenue", false],
    ]);
    expect(saved[1]!.lines).toContain("Phone: (212) 555-0100");

    const ny = saved[1]!.id;
    await post(cookie, { intent: "address-save", addressId: String(ny), ...NEW_YORK, line1: "20 W 34th St" });
    await post(cookie, { intent: "address-default", addressId: String(ny) });
    saved = await book(cookie);
    expect(saved.map((a) => [a.line1, a.isDefault])).toEqual([
      ["20 W 34th St", true],
      ["1 Main St", false],
    ]);

    await post(cookie, { intent: "address-delete", addressId: String(ny) });
    saved = await book(cookie);
    expect(saved.map((a) => [a.line1, a.isDefault])).toEqual([["1 Main St", true]]);

    // another customer's address is not theirs to change
    const other = await sessionCookieFor((await createTestUser())!.id);
    await post(other, { intent: "address-delete", addressId: String(saved[0]!.id) });
    await post(other, { intent: "address-save", addressId: String(saved[0]!.id), ...NEW_YORK });
    expect((await book(cookie)).map((a) => a.line1)).toEqual(["1 Main St"]);
  });

  test("an incomplete address or a ZIP outside its state is refused with field messages and kept as typed", async () => {
    const user = (await createTestUser())!;
    const cookie = await sessionCookieFor(user.id);
    const incomplete = await post(cookie, { intent: "address-save", ...HOME, line1: "", city: "" });
    expect(incomplete.status).toBe(400);
    const incompleteBody = await incomplete.json();
    expect(incompleteBody).toMatchObject({
      result: { error: { line1: ["Enter the street address."], city: ["Enter the city."] } },
    });
    // a new address's form: the refused save carries its intent and no addressId
    expect(incompleteBody.result.initialValue).toMatchObject({ intent: "address-save" });
    expect(incompleteBody.result.initialValue.addressId).toBeUndefined();
    const elsewhere = await post(cookie, { intent: "address-save", ...HOME, state: "NY" });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({
      result: { error: { zip: ["ZIP code 80537 is not in NY."] }, initialValue: { name: "Casey Customer", state: "NY" } },
    });
    expect(await book(cookie)).toEqual([]);
  });

  test("a line break, a direction override or a zero-width-only field is refused with its message and kept as typed", async () => {
    const user = (await createTestUser())!;
    const cookie = await sessionCookieFor(user.id);
    const refused = await post(cookie, {
      intent: "address-save",
      ...HOME,
      name: "Casey\r\nCustomer",
      line2: "\u202eevil",
      city: "\u200b",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      result: {
        error: {
          name: [addressTextMessages("name").notOneLine],
          line2: [addressTextMessages("line2").notOneLine],
          city: [addressTextMessages("city").invisible],
        },
        initialValue: { name: "Casey\r\nCustomer", line1: "1 Main St", line2: "\u202eevil", city: "\u200b" },
      },
    });
    expect(await book(cookie)).toEqual([]);
  });
});
