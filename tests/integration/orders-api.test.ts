// The order API and pages through real Requests: who may see and do what (401 / 403 / 404), the
// server computing the amount, and plain form posts on the order page.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { printers, printJobs } from "../../db/schema";
import { action as confirmPayment } from "../../app/routes/api.confirm-payment";
import { action as createIntent } from "../../app/routes/api.create-payment-intent";
import { loader as getJob } from "../../app/routes/api.print-jobs.$id";
import { action as respond } from "../../app/routes/api.print-jobs.$id.respond";
import { action as setStatus } from "../../app/routes/api.print-jobs.$id.status";
import { action as submitOrder } from "../../app/routes/api.submit-order";
import { action as calculateShipping } from "../../app/routes/api.calculate-shipping";
import { loader as userJobs } from "../../app/routes/api.users.$id.jobs";
import { action as orderPageAction, loader as orderPage } from "../../app/routes/order.$id";
import { action as submitPrintAction } from "../../app/routes/submit-print";
import { placeOrder } from "../../app/services/orders/place-order.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

WRITE_LIMITS.jobStatus.limit = 10_000;

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };

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

describe("order API", () => {
  test("submit → pay → respond, with the amount from the server and roles enforced", async () => {
    const s = await setup();
    const body = {
      printerId: s.printer.id,
      draftId: s.draft.id,
      filamentColor: "Red",
      deliveryMethod: "delivery",
      deliveryAddress: { name: "Casey Customer", line1: "1 Main St", city: "Loveland", state: "CO", zip: "80537" },
      totalCost: "0.01",
    };
    expect((await run(() => submitOrder(args(jsonRequest("/api/submit-order", body))))).status).toBe(401);
    const placed = await run(() => submitOrder(args(jsonRequest("/api/submit-order", body, { cookie: s.customerCookie }))));
    expect(placed.status).toBe(201);
    const { orderId, totalCents } = (await placed.json()) as { orderId: number; totalCents: number };
    // 40 g × $0.12 = 480 + 100 fee + 500 local delivery; the client's totalCost is ignored
    expect(totalCents).toBe(1080);
    const again = await run(() => submitOrder(args(jsonRequest("/api/submit-order", body, { cookie: s.customerCookie }))));
    expect(again.status).toBe(404);

    const intent = await run(() =>
      createIntent(args(jsonRequest("/api/create-payment-intent", { orderId, amount: 1 }, { cookie: s.customerCookie }))),
    );
    expect(await intent.json()).toMatchObject({ amount: 1080, provider: "test" });

    const strangerCookie = await sessionCookieFor((await createTestUser())!.id);
    const peek = await run(() => getJob(args(getRequest(`/api/print-jobs/${orderId}`, strangerCookie), { id: String(orderId) })));
    expect(peek.status).toBe(404);

    const declined = await run(() =>
      confirmPayment(
        args(
          jsonRequest("/api/confirm-payment", { orderId, ...CARD, cardNumber: "4000000000000002" }, { cookie: s.customerCookie }),
        ),
      ),
    );
    expect([declined.status, ((await declined.json()) as { message: string }).message]).toEqual([400, "Your card was declined."]);
    const paid = await run(() =>
      confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId, ...CARD }, { cookie: s.customerCookie }))),
    );
    expect(await paid.json()).toEqual({ orderId, status: "confirmed" });

    const byCustomer = await run(() =>
      respond(
        args(jsonRequest(`/api/print-jobs/${orderId}/respond`, { action: "accept" }, { cookie: s.customerCookie }), {
          id: String(orderId),
        }),
      ),
    );
    expect(byCustomer.status).toBe(403);
    const accepted = await run(() =>
      respond(
        args(jsonRequest(`/api/print-jobs/${orderId}/respond`, { action: "accept" }, { cookie: s.ownerCookie }), {
          id: String(orderId),
        }),
      ),
    );
    expect(((await accepted.json()) as { status: string }).status).toBe("accepted");
    const twice = await run(() =>
      respond(
        args(jsonRequest(`/api/print-jobs/${orderId}/respond`, { action: "accept" }, { cookie: s.ownerCookie }), {
          id: String(orderId),
        }),
      ),
    );
    expect(twice.status).toBe(409);

    for (const status of ["printing", "completed", "ready_for_shipping"]) {
      const r = await run(() =>
        setStatus(
          args(jsonRequest(`/api/print-jobs/${orderId}/status`, { status }, { cookie: s.ownerCookie, method: "PUT" }), {
            id: String(orderId),
          }),
        ),
      );
      expect(r.status).toBe(200);
    }
    const view = await run(() =>
      getJob(args(getRequest(`/api/print-jobs/${orderId}`, s.customerCookie), { id: String(orderId) })),
    );
    expect(await view.json()).toMatchObject({ id: orderId, status: "ready_for_shipping", totalCostCents: 1080 });

    const othersList = await run(() =>
      userJobs(args(getRequest(`/api/users/${s.owner.id}/jobs`, s.customerCookie), { id: String(s.owner.id) })),
    );
    expect(othersList.status).toBe(403);
  });

  test("calculate-shipping: origin is the printer's ZIP, a bad ZIP is 400", async () => {
    const s = await setup();
    const bad = await run(() =>
      calculateShipping(
        args(jsonRequest("/api/calculate-shipping", { printerId: s.printer.id, zipTo: "12ab" }, { cookie: s.customerCookie })),
      ),
    );
    expect(bad.status).toBe(400);
    const ok = await run(() =>
      calculateShipping(
        args(
          jsonRequest(
            "/api/calculate-shipping",
            { printerId: s.printer.id, zipTo: "10001", zipFrom: "99999", draftId: s.draft.id },
            { cookie: s.customerCookie },
          ),
        ),
      ),
    );
    const body = (await ok.json()) as { options: { service: string }[]; defaultOption: { service: string }; estimated: boolean };
    expect(body.estimated).toBe(true);
    expect(body.defaultOption.service).toBe("usps_ground_advantage");
  });
});

describe("order page", () => {
  test("another user's order is 404; a shipping step without a tracking number is refused with a toast", async () => {
    const s = await setup();
    const db = await getDb();
    await db
      .update(printJobs)
      .set({ status: "ready_for_shipping", deliveryMethod: "shipping", printerId: s.printer.id, deliveryZip: "10001" })
      .where(eq(printJobs.id, s.draft.id));
    const strangerCookie = await sessionCookieFor((await createTestUser())!.id);
    const hidden = await run(() =>
      orderPage(args(getRequest(`/order/${s.draft.id}`, strangerCookie), { id: String(s.draft.id) })),
    );
    expect(hidden.status).toBe(404);
    const refused = await run(() =>
      orderPageAction(
        args(formRequest(`/order/${s.draft.id}`, { intent: "mark_shipped", trackingNumber: " " }, { cookie: s.ownerCookie }), {
          id: String(s.draft.id),
        }),
      ),
    );
    expect(refused.status).toBe(302);
    expect((await db.select().from(printJobs).where(eq(printJobs.id, s.draft.id)))[0]!.status).toBe("ready_for_shipping");
    await run(() =>
      orderPageAction(
        args(
          formRequest(
            `/order/${s.draft.id}`,
            { intent: "mark_shipped", trackingNumber: "9400 1000 0000 0000 0000 00" },
            { cookie: s.ownerCookie },
          ),
          {
            id: String(s.draft.id),
          },
        ),
      ),
    );
    const [shipped] = await db.select().from(printJobs).where(eq(printJobs.id, s.draft.id));
    expect([shipped!.status, shipped!.trackingNumber]).toEqual(["shipped", "9400 1000 0000 0000 0000 00"]);
  });
});

describe("an offline printer", () => {
  test("is refused by the order service, the API and the submit page alike, however its id arrives", async () => {
    const s = await setup();
    const db = await getDb();
    await db.update(printers).set({ isAvailable: false }).where(eq(printers.id, s.printer.id));
    const order = { printerId: s.printer.id, draftId: s.draft.id, filamentColor: "Red", deliveryMethod: "pickup" as const };
    const MESSAGE = "This printer is not taking orders right now. Please choose another.";

    await expect(placeOrder({ customerId: s.customer.id, ...order })).rejects.toMatchObject({
      code: "conflict",
      message: MESSAGE,
    });

    const api = await run(() => submitOrder(args(jsonRequest("/api/submit-order", order, { cookie: s.customerCookie }))));
    expect([api.status, ((await api.json()) as { message: string }).message]).toEqual([409, MESSAGE]);

    const page = await run(() =>
      submitPrintAction(
        args(
          formRequest(
            `/submit-print?printerId=${s.printer.id}&draftId=${s.draft.id}`,
            { ...order, printerId: String(s.printer.id), draftId: String(s.draft.id) },
            { cookie: s.customerCookie },
          ),
        ),
      ),
    );
    expect(page.status).toBe(409);
    expect(JSON.stringify(await page.json())).toContain(MESSAGE);
    const [draft] = await db.select().from(printJobs).where(eq(printJobs.id, s.draft.id));
    expect(draft!.status).toBe("draft");

    await db.update(printers).set({ isAvailable: true }).where(eq(printers.id, s.printer.id));
    const placed = await run(() => submitOrder(args(jsonRequest("/api/submit-order", order, { cookie: s.customerCookie }))));
    expect(placed.status).toBe(201);
  });
});
