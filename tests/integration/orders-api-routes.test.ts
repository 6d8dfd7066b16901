// The order API routes through real Requests on a real database: who may call each (a visitor
// 401, a wrong role 403, someone unrelated 404), what each answers, Connect and payouts on both
// providers, the Stripe webhook route itself, and the no-JavaScript hosted Checkout path.
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { payments, printJobs, users } from "../../db/schema";
import { action as checkoutAction } from "../../app/routes/checkout";
import { action as createConnectAccount } from "../../app/routes/api.create-connect-account";
import { action as cancelOrder } from "../../app/routes/api.orders.$id.cancel";
import { action as updateJob } from "../../app/routes/api.print-jobs.$id";
import { action as cancelJob } from "../../app/routes/api.print-jobs.$id.cancel";
import { loader as downloadDesign } from "../../app/routes/api.print-jobs.$id.download";
import { loader as printerJobs } from "../../app/routes/api.printers.$id.jobs";
import { action as transferPayment } from "../../app/routes/api.transfer-payment";
import { loader as ownerJobs } from "../../app/routes/api.users.$id.printer-jobs";
import { action as stripeWebhook } from "../../app/routes/api.webhooks.stripe";
import { loader as orderConfirmation } from "../../app/routes/order-confirmation";
import { action as trackingAction, loader as trackingPage } from "../../app/routes/printer-tracking";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { getStorage } from "../../app/services/storage.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { completeCheckoutSessionForTests, finishConnectOnboardingForTests } from "../mocks/stripe";
import { createOwnerWithPrinter, placeTestOrder } from "../setup/orders";
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

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;
WRITE_LIMITS.order.limit = 10_000;

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };
const WEBHOOK_SECRET = "whsec_routes_secret";

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
});
afterAll(() => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
});

async function jobStatus(id: number) {
  const db = await getDb();
  const [row] = await db.select({ status: printJobs.status }).from(printJobs).where(eq(printJobs.id, id));
  return row!.status;
}

async function paymentStatuses(jobId: number) {
  const db = await getDb();
  return (await db.select().from(payments).where(eq(payments.jobId, jobId))).map((p) => p.status);
}

/** An owner with a printer, the customer of a placed order, and someone unrelated, each signed in. */
async function placed(options: { paid?: boolean; steps?: Parameters<typeof transitionJob>[0]["action"][] } = {}) {
  const { owner, printer, customer, jobId } = await placeTestOrder();
  const stranger = (await createTestUser())!;
  const otherOwner = (await createOwnerWithPrinter()).owner;
  if (options.paid || options.steps) await payWithTestCard(customer.id, jobId, CARD);
  for (const action of options.steps ?? []) await transitionJob({ jobId, by: { userId: owner.id }, action });
  return {
    owner,
    printer,
    customer,
    jobId,
    id: String(jobId),
    ownerCookie: await sessionCookieFor(owner.id),
    customerCookie: await sessionCookieFor(customer.id),
    strangerCookie: await sessionCookieFor(stranger.id),
    otherOwnerCookie: await sessionCookieFor(otherOwner.id),
  };
}

async function answer(response: Promise<Response>) {
  const r = await response;
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a file download
  }
  return { status: r.status, body: body as Record<string, unknown> & unknown[] };
}

const PICKED_UP = ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const;

describe("PUT /api/print-jobs/{id}", () => {
  test("the owner's quick steps; the customer 403, a stranger 404, a visitor 401", async () => {
    const s = await placed({ steps: ["accept"] });
    const put = (body: unknown, cookie?: string, method = "PUT") =>
      answer(run(() => updateJob(args(jsonRequest(`/api/print-jobs/${s.id}`, body, { cookie, method }), { id: s.id }))));
    expect((await put({ status: "printing" })).status).toBe(401);
    expect((await put({ status: "printing" }, s.customerCookie)).status).toBe(403);
    expect((await put({ status: "printing" }, s.strangerCookie)).status).toBe(404);
    expect((await put({ status: "shipped" }, s.ownerCookie)).status).toBe(400);
    expect((await put({ status: "printing" }, s.ownerCookie, "POST")).status).toBe(405);
    expect(await jobStatus(s.jobId)).toBe("accepted");
    const printing = await put({ status: "printing" }, s.ownerCookie);
    expect([printing.status, printing.body.status]).toEqual([200, "printing"]);
    expect((await put({ status: "printing" }, s.ownerCookie)).status).toBe(409);
    const done = await put({ status: "completed" }, s.ownerCookie);
    expect([done.status, done.body.status]).toEqual([200, "completed"]);
  });
});

describe("cancelling through the API", () => {
  test("PUT /api/print-jobs/{id}/cancel: the customer cancels a placed order once; others can't", async () => {
    const s = await placed();
    const cancel = (cookie?: string) =>
      answer(
        run(() => cancelJob(args(jsonRequest(`/api/print-jobs/${s.id}/cancel`, {}, { cookie, method: "PUT" }), { id: s.id }))),
      );
    expect((await cancel()).status).toBe(401);
    expect((await cancel(s.strangerCookie)).status).toBe(404);
    expect((await cancel(s.otherOwnerCookie)).status).toBe(404);
    // an unpaid order never reached its printer's owner: for them it doesn't exist
    expect((await cancel(s.ownerCookie)).status).toBe(404);
    const ok = await cancel(s.customerCookie);
    expect([ok.status, ok.body.status]).toEqual([200, "cancelled"]);
    expect((await cancel(s.customerCookie)).status).toBe(409);
    expect(await jobStatus(s.jobId)).toBe("cancelled");
  });

  test("POST /api/orders/{id}/cancel: a paid, unaccepted order is cancelled and its hold released", async () => {
    const s = await placed({ paid: true });
    const cancel = (cookie?: string, method = "POST") =>
      answer(run(() => cancelOrder(args(jsonRequest(`/api/orders/${s.id}/cancel`, {}, { cookie, method }), { id: s.id }))));
    expect((await cancel()).status).toBe(401);
    expect((await cancel(s.strangerCookie)).status).toBe(404);
    expect((await cancel(s.customerCookie, "PUT")).status).toBe(405);
    // the owner may cancel only after accepting
    expect((await cancel(s.ownerCookie)).status).toBe(409);
    const ok = await cancel(s.customerCookie);
    expect([ok.status, ok.body.status]).toEqual([200, "cancelled"]);
    expect(await paymentStatuses(s.jobId)).toEqual(["released"]);
    expect((await cancel(s.customerCookie)).status).toBe(409);
  });
});

describe("GET /api/print-jobs/{id}/download", () => {
  test("the printer's owner gets the file; the customer 403; a stranger 404; a visitor 401", async () => {
    const s = await placed({ paid: true });
    const key = `designs/test/${s.jobId}.stl`;
    await getStorage().set(key, new File(["solid bracket\nendsolid bracket\n"], "bracket.stl"));
    const db = await getDb();
    await db.update(printJobs).set({ fileKey: key }).where(eq(printJobs.id, s.jobId));
    const get = (cookie?: string) =>
      run(() => downloadDesign(args(getRequest(`/api/print-jobs/${s.id}/download`, cookie), { id: s.id })));
    expect((await get()).status).toBe(401);
    expect((await get(s.customerCookie)).status).toBe(403);
    expect((await get(s.strangerCookie)).status).toBe(404);
    expect((await get(s.otherOwnerCookie)).status).toBe(404);
    const file = await get(s.ownerCookie);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="bracket.stl"');
    expect(await file.text()).toBe("solid bracket\nendsolid bracket\n");
  });
});

describe("owners' job lists", () => {
  test("GET /api/users/{id}/printer-jobs: the owner's own only", async () => {
    const s = await placed({ paid: true });
    const list = (userId: number, cookie?: string) =>
      answer(run(() => ownerJobs(args(getRequest(`/api/users/${userId}/printer-jobs`, cookie), { id: String(userId) }))));
    expect((await list(s.owner.id)).status).toBe(401);
    expect((await list(s.owner.id, s.customerCookie)).status).toBe(403);
    expect((await list(s.owner.id, s.otherOwnerCookie)).status).toBe(403);
    const own = await list(s.owner.id, s.ownerCookie);
    expect(own.status).toBe(200);
    expect((own.body as { id: number; status: string }[]).map((j) => [j.id, j.status])).toEqual([[s.jobId, "confirmed"]]);
  });

  test("GET /api/printers/{id}/jobs: the printer's owner only; an unknown printer 404", async () => {
    const s = await placed({ paid: true });
    const list = (printerId: number, cookie?: string) =>
      answer(run(() => printerJobs(args(getRequest(`/api/printers/${printerId}/jobs`, cookie), { id: String(printerId) }))));
    expect((await list(s.printer.id)).status).toBe(401);
    expect((await list(s.printer.id, s.customerCookie)).status).toBe(403);
    expect((await list(s.printer.id, s.otherOwnerCookie)).status).toBe(403);
    expect((await list(999_999, s.ownerCookie)).status).toBe(404);
    const own = await list(s.printer.id, s.ownerCookie);
    expect(own.status).toBe(200);
    expect((own.body as { id: number; totalCostCents: number }[]).map((j) => [j.id, j.totalCostCents])).toEqual([[s.jobId, 580]]);
  });
});

describe("payouts through the API", () => {
  const connect = (cookie?: string) =>
    answer(run(() => createConnectAccount(args(jsonRequest("/api/create-connect-account", {}, { cookie })))));
  const transfer = (jobId: number, cookie?: string) =>
    answer(run(() => transferPayment(args(jsonRequest("/api/transfer-payment", { jobId }, { cookie })))));

  test("test provider: connect is instant; one payout per picked-up job; roles answer 401 / 403 / 404", async () => {
    const s = await placed({ steps: [...PICKED_UP] });
    expect((await connect()).status).toBe(401);
    expect((await connect(s.customerCookie)).status).toBe(403);
    expect((await transfer(s.jobId)).status).toBe(401);
    // the job's customer knows the order but has no payout to ask for; another owner sees nothing
    expect((await transfer(s.jobId, s.customerCookie)).status).toBe(403);
    expect((await transfer(s.jobId, s.otherOwnerCookie)).status).toBe(404);
    expect((await transfer(s.jobId, s.strangerCookie)).status).toBe(404);
    expect((await transfer(999_999, s.ownerCookie)).status).toBe(404);
    const early = await transfer(s.jobId, s.ownerCookie);
    expect([early.status, early.body.message]).toEqual([400, "Connect a payout account first."]);
    const account = await connect(s.ownerCookie);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ ready: true, onboardingUrl: "http://localhost:3000/printer-tracking?tab=payouts" });
    const paid = await transfer(s.jobId, s.ownerCookie);
    expect([paid.status, paid.body.amountCents]).toEqual([200, 480]);
    expect((await transfer(s.jobId, s.ownerCookie)).status).toBe(409);
  });

  test("a customer is refused a payout account on the /printer-tracking form as by the API", async () => {
    const s = await placed();
    const viaPage = await run(() =>
      trackingAction(args(formRequest("/printer-tracking", { intent: "connect" }, { cookie: s.customerCookie }))),
    );
    expect(viaPage.headers.get("location")).toBe("/printer-tracking?tab=payouts");
    expect(await flashedToast(viaPage)).toMatchObject({
      title: "Connection Failed",
      description: "Only printer owners receive payouts.",
      variant: "destructive",
    });
    const viaApi = await connect(s.customerCookie);
    expect([viaApi.status, viaApi.body.message]).toEqual([403, "Only printer owners receive payouts."]);
    const db = await getDb();
    const [customer] = await db.select({ account: users.stripeAccountId }).from(users).where(eq(users.id, s.customer.id));
    expect(customer.account).toBeNull();
  });

  test("a job not yet picked up can't be paid out", async () => {
    const s = await placed({ steps: ["accept"] });
    await connect(s.ownerCookie);
    expect((await transfer(s.jobId, s.ownerCookie)).status).toBe(409);
  });

  test("Stripe: onboarding continues on the same account, the page says so, and payouts wait until it is ready", async () => {
    const s = await placed({ steps: [...PICKED_UP] });
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const first = await connect(s.ownerCookie);
    expect(first.status).toBe(200);
    expect(first.body.ready).toBe(false);
    expect(String(first.body.onboardingUrl)).toMatch(/^https:\/\/connect\.stripe\.com\//);
    const page = await run(() => trackingPage(args(getRequest("/printer-tracking?tab=payouts", s.ownerCookie))));
    expect(((await page.json()) as { payoutAccount: string }).payoutAccount).toBe("pending");
    const waiting = await transfer(s.jobId, s.ownerCookie);
    expect([waiting.status, waiting.body.message]).toEqual([400, "Finish setting up your Stripe account to receive payouts."]);
    const again = await connect(s.ownerCookie);
    expect(again.body.accountId).toBe(first.body.accountId);
    finishConnectOnboardingForTests(String(first.body.accountId));
    const ready = await run(() => trackingPage(args(getRequest("/printer-tracking?tab=payouts", s.ownerCookie))));
    expect(((await ready.json()) as { payoutAccount: string }).payoutAccount).toBe("ready");
    const paid = await transfer(s.jobId, s.ownerCookie);
    expect(paid.status).toBe(200);
    expect(String(paid.body.transferId)).toMatch(/^tr_/);
  });
});

describe("POST /api/webhooks/stripe", () => {
  beforeEach(() => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  });

  function delivery(payload: string, signature: string | null) {
    return new Request("http://localhost:3000/api/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
    });
  }
  const post = (payload: string, signature: string | null) =>
    answer(run(() => stripeWebhook(args(delivery(payload, signature)))));

  test("no JavaScript: hosted Checkout → checkout.session.completed → the order is confirmed, once", async () => {
    const s = await placed();
    process.env.STRIPE_SECRET_KEY = "sk_test_mock";
    const toStripe = await run(() =>
      checkoutAction(args(formRequest(`/checkout?orderId=${s.id}`, { intent: "hosted" }, { cookie: s.customerCookie }))),
    );
    expect(toStripe.status).toBe(302);
    const location = toStripe.headers.get("location")!;
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = completeCheckoutSessionForTests(location.split("/").pop()!);
    expect(await jobStatus(s.jobId)).toBe("submitted");

    const payload = JSON.stringify({
      id: `evt_${String(session.id)}`,
      object: "event",
      type: "checkout.session.completed",
      data: { object: session },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const first = await post(payload, signature);
    expect([first.status, first.body]).toEqual([200, { received: true, duplicate: false }]);
    expect(await jobStatus(s.jobId)).toBe("confirmed");
    expect(await paymentStatuses(s.jobId)).toEqual(["authorized"]);

    // the customer cancels; a repeat of the event changes nothing
    await transitionJob({ jobId: s.jobId, by: { userId: s.customer.id }, action: "cancel" });
    const repeat = await post(payload, signature);
    expect([repeat.status, repeat.body]).toEqual([200, { received: true, duplicate: true }]);
    expect(await jobStatus(s.jobId)).toBe("cancelled");
    expect(await paymentStatuses(s.jobId)).toEqual(["released"]);
  });

  test("the return to /order-confirmation confirms from Stripe's word before the webhook", async () => {
    const s = await placed();
    const toStripe = await run(() =>
      checkoutAction(args(formRequest(`/checkout?orderId=${s.id}`, { intent: "hosted" }, { cookie: s.customerCookie }))),
    );
    const sessionId = toStripe.headers.get("location")!.split("/").pop()!;
    // the return URL before paying confirms nothing
    await run(() =>
      orderConfirmation(args(getRequest(`/order-confirmation?orderId=${s.id}&session_id=${sessionId}`, s.customerCookie))),
    );
    expect(await jobStatus(s.jobId)).toBe("submitted");
    completeCheckoutSessionForTests(sessionId);
    await run(() =>
      orderConfirmation(args(getRequest(`/order-confirmation?orderId=${s.id}&session_id=${sessionId}`, s.customerCookie))),
    );
    expect(await jobStatus(s.jobId)).toBe("confirmed");
  });

  test("a bad or missing signature is 400 and changes nothing", async () => {
    const s = await placed();
    const toStripe = await run(() =>
      checkoutAction(args(formRequest(`/checkout?orderId=${s.id}`, { intent: "hosted" }, { cookie: s.customerCookie }))),
    );
    const session = completeCheckoutSessionForTests(toStripe.headers.get("location")!.split("/").pop()!);
    const payload = JSON.stringify({
      id: `evt_forged_${String(session.id)}`,
      object: "event",
      type: "checkout.session.completed",
      data: { object: session },
    });
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    expect((await post(payload, wrongSecret)).status).toBe(400);
    expect((await post(payload, null)).status).toBe(400);
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await post(payload.replace("checkout.session.completed", "checkout.session.expired"), tampered)).status).toBe(400);
    expect(await jobStatus(s.jobId)).toBe("submitted");
    expect((await answer(run(() => stripeWebhook(args(new Request("http://localhost:3000/api/webhooks/stripe")))))).status).toBe(
      405,
    );
  });
});
