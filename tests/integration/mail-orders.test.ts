// The mail a marketplace sends about orders, read from a real SMTP server: the customer's receipt
// when their card is authorised, the owner told of a new review, and order e-mails worded for the
// delivery method (local delivery is not "shipped"), with shipping services by name.
import { eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { users } from "../../db/schema";
import "../../app/services/mail/mail-task.server";
import { runDueTasks } from "../../app/services/jobs/index.server";
import { action as confirmPayment } from "../../app/routes/api.confirm-payment";
import { action as respond } from "../../app/routes/api.print-jobs.$id.respond";
import { action as setStatus } from "../../app/routes/api.print-jobs.$id.status";
import { action as submitOrder } from "../../app/routes/api.submit-order";
import { action as reviewAction } from "../../app/routes/jobs.$id.review";
import { loader as orderPage } from "../../app/routes/order.$id";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";
import { testSmtpServer } from "../setup/smtp";

const smtp = testSmtpServer();
const received = smtp.received;
const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };
const LOVELAND = {
  name: "Casey Customer",
  line1: "1 Main St",
  city: "Loveland",
  state: "CO",
  zip: "80537",
  phone: "970-555-0100",
};
const NEW_YORK = { name: "Casey Customer", line1: "350 Fifth Avenue", city: "New York", state: "NY", zip: "10001" };

beforeAll(async () => {
  WRITE_LIMITS.jobStatus.limit = 10_000;
  process.env.PUBLIC_URL = "https://printnear.example";
  process.env.SMTP_URL = await smtp.start();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await smtp.stop();
});
beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});
afterEach(() => {
  received.length = 0;
});

const deliver = () => runDueTasks({ types: ["mail.send"] });
const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

/** A customer's order placed and paid through the JSON API; the mail of placing it is delivered and cleared. */
async function paidOrder(delivery: Record<string, unknown>) {
  const { owner, printer } = await createOwnerWithPrinter();
  const customer = (await createTestUser({ firstName: "Casey" }))!;
  const draft = await createDraft(customer.id);
  const customerCookie = await sessionCookieFor(customer.id);
  const ownerCookie = await sessionCookieFor(owner.id);
  const order = { printerId: printer.id, draftId: draft.id, filamentColor: "Red", ...delivery };
  const placed = await run(() => submitOrder(args(jsonRequest("/api/submit-order", order, { cookie: customerCookie }))));
  expect(placed.status).toBe(201);
  const { orderId } = (await placed.json()) as { orderId: number };
  const paid = await run(() =>
    confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId, ...CARD }, { cookie: customerCookie }))),
  );
  expect(paid.status).toBe(200);
  return { owner, printer, customer, orderId, customerCookie, ownerCookie };
}
type Paid = Awaited<ReturnType<typeof paidOrder>>;

async function ownerMoves(o: Paid, statuses: string[], extra: Record<string, unknown> = {}) {
  const accepted = await run(() =>
    respond(
      args(jsonRequest(`/api/print-jobs/${o.orderId}/respond`, { action: "accept" }, { cookie: o.ownerCookie }), {
        id: String(o.orderId),
      }),
    ),
  );
  expect(accepted.status).toBe(200);
  for (const status of statuses) {
    const res = await run(() =>
      setStatus(
        args(jsonRequest(`/api/print-jobs/${o.orderId}/status`, { status, ...extra }, { cookie: o.ownerCookie, method: "PUT" }), {
          id: String(o.orderId),
        }),
      ),
    );
    expect(res.status).toBe(200);
  }
}

describe("the customer's receipt", () => {
  test("arrives when the card is authorised: item, copies, delivery, address, total and when it is charged", async () => {
    const o = await paidOrder({ deliveryMethod: "shipping", deliveryAddress: NEW_YORK });
    await deliver();
    const receipts = received.filter((m) => to(m) === o.customer.email);
    expect(receipts).toHaveLength(1);
    const mail = receipts[0]!;
    expect(mail.subject).toBe(`Your Printnear Receipt: order #${o.orderId}`);
    const text = mail.text!;
    expect(text).toContain("Hi Casey,");
    expect(text).toContain("Item: bracket.stl (PLA, Red)");
    expect(text).toContain("Copies: 1");
    expect(text).toMatch(/Delivery: USPS Shipping \(Ground Advantage\): \$\d+\.\d\d/);
    expect(text).toContain("Ship to: Casey Customer, 350 Fifth Avenue, New York, NY 10001");
    expect(text).toMatch(/Total: \$\d+\.\d\d/);
    expect(text).toContain("it is charged when the printer accepts the order");
    expect(text).toContain(`https://printnear.example/order/${o.orderId}`);
    expect(mail.html).toContain("<li>Copies: 1</li>");
    // the owner hears of the new request, never of the customer's receipt
    expect(received.filter((m) => to(m) === o.owner.email).map((m) => m.subject)).toEqual(["New Order Request | Printnear"]);
  });

  test("is sent even when the customer turned order e-mails off", async () => {
    const { printer } = await createOwnerWithPrinter();
    const customer = (await createTestUser())!;
    await (
      await getDb()
    )
      .update(users)
      .set({ emailOff: ["order_request", "order_update", "payout", "message"] })
      .where(eq(users.id, customer.id));
    const cookie = await sessionCookieFor(customer.id);
    const draft = await createDraft(customer.id);
    const placed = await run(() =>
      submitOrder(
        args(jsonRequest("/api/submit-order", { printerId: printer.id, draftId: draft.id, filamentColor: "Red" }, { cookie })),
      ),
    );
    const { orderId } = (await placed.json()) as { orderId: number };
    await run(() => confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId, ...CARD }, { cookie }))));
    await deliver();
    const mine = received.filter((m) => to(m) === customer.email);
    expect(mine.map((m) => m.subject)).toEqual([`Your Printnear Receipt: order #${orderId}`]);
    expect(mine[0]!.text).toContain("Delivery: Local Pickup: free");
  });
});

describe("order e-mails follow the delivery method", () => {
  test("local delivery is readied for delivery and delivered, never shipped or on its way", async () => {
    const o = await paidOrder({ deliveryMethod: "delivery", deliveryAddress: LOVELAND });
    await ownerMoves(o, ["printing", "completed", "ready_for_shipping", "shipped"]);
    const page = (await (
      await run(() => orderPage(args(getRequest(`/order/${o.orderId}`, o.customerCookie), { id: String(o.orderId) })))
    ).json()) as { order: { statusLabel: string }; timeline: { label: string }[] };
    expect(page.order.statusLabel).toBe("Delivered");
    expect(page.timeline.map((s) => s.label)).toContain("Delivered");
    await deliver();
    const mails = received.filter((m) => to(m) === o.customer.email);
    const subjects = mails.map((m) => m.subject);
    expect(subjects).toContain("Ready for Delivery | Printnear");
    expect(subjects).toContain("Order Delivered | Printnear");
    for (const mail of mails) {
      expect(mail.subject).not.toMatch(/ship/i);
      expect(mail.text).not.toMatch(/on its way|shipped/i);
    }
  });

  test("a shipped order names its service, not the raw code", async () => {
    const o = await paidOrder({ deliveryMethod: "shipping", deliveryAddress: NEW_YORK, shippingService: "usps_priority" });
    await ownerMoves(o, ["printing", "completed", "ready_for_shipping"]);
    const page = (await (
      await run(() => orderPage(args(getRequest(`/order/${o.orderId}`, o.ownerCookie), { id: String(o.orderId) })))
    ).json()) as { order: { statusLabel: string; shippingService: string } };
    expect([page.order.statusLabel, page.order.shippingService]).toEqual(["Ready to ship", "Priority Mail"]);
    const shipped = await run(() =>
      setStatus(
        args(
          jsonRequest(
            `/api/print-jobs/${o.orderId}/status`,
            { status: "shipped", trackingNumber: "9400 1000" },
            { cookie: o.ownerCookie, method: "PUT" },
          ),
          { id: String(o.orderId) },
        ),
      ),
    );
    expect(shipped.status).toBe(200);
    await deliver();
    const mail = received.find((m) => to(m) === o.customer.email && m.subject === "Order Shipped | Printnear")!;
    expect(mail.text).toContain("is on its way by USPS Priority Mail. Tracking number: 9400 1000.");
    expect(mail.text).not.toContain("usps_priority");
  });
});

describe("the owner is told of a new review", () => {
  test("a first review e-mails the owner (without its text); an edit does not", async () => {
    const o = await paidOrder({ deliveryMethod: "pickup" });
    await ownerMoves(o, ["printing", "completed", "ready_for_pickup", "picked_up"]);
    await deliver();
    received.length = 0;
    const review = (rating: string) =>
      run(() =>
        reviewAction(
          args(formRequest(`/jobs/${o.orderId}/review`, { rating, review: "Secret praise" }, { cookie: o.customerCookie }), {
            id: String(o.orderId),
          }),
        ),
      );
    expect((await review("5")).status).toBe(302);
    await deliver();
    expect(received.map((m) => [to(m), m.subject])).toEqual([[o.owner.email, "New Review | Printnear"]]);
    expect(received[0]!.text).toContain(`rated ${o.printer.name} 5 stars for the order of bracket.stl`);
    expect(received[0]!.text).not.toContain("Secret praise");
    received.length = 0;
    expect((await review("4")).status).toBe(302);
    await deliver();
    expect(received).toHaveLength(0);
  });
});
