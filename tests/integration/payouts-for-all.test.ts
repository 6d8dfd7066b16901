// "Request payout for all": one transfer per eligible order, the held ones listed with why, through
// the JSON API (who may call it, write limits) and the /printer-tracking form without JavaScript.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { payments, payouts } from "../../db/schema";
import { NOT_CAPTURED, NOT_DELIVERED } from "../../app/domain/payouts";
import { loader as payoutsApi, action as payoutsForAllApi } from "../../app/routes/api.payouts";
import { action as trackingAction, loader as trackingPage } from "../../app/routes/printer-tracking";
import { connectPayoutAccount } from "../../app/services/orders/payouts.server";
import { testProviderLedger } from "../../app/services/payments/test-provider.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { createOwnerWithPrinter, paidOrderAt, TO_PICKED_UP } from "../setup/orders";
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
const PAYMENT_LIMIT = WRITE_LIMITS.payment.limit;
afterEach(() => {
  WRITE_LIMITS.payment.limit = PAYMENT_LIMIT;
});

async function answer(response: Promise<Response>) {
  const r = await response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> & { message?: string } };
}
const overview = (cookie?: string) => answer(run(() => payoutsApi(args(getRequest("/api/payouts", cookie)))));
const payAll = (cookie?: string) => answer(run(() => payoutsForAllApi(args(jsonRequest("/api/payouts", {}, { cookie })))));

/** An owner with two delivered orders, one still on its way and one whose charge was never captured. */
async function ownerWithOrders() {
  const { owner, printer } = await createOwnerWithPrinter({ grams: 5000 });
  const first = await paidOrderAt(owner, printer.id, "first.stl");
  const second = await paidOrderAt(owner, printer.id, "second.stl");
  const onItsWay = await paidOrderAt(owner, printer.id, "on-its-way.stl", TO_PICKED_UP.slice(0, 4));
  const uncharged = await paidOrderAt(owner, printer.id, "uncharged.stl");
  const db = await getDb();
  await db.update(payments).set({ status: "authorized" }).where(eq(payments.jobId, uncharged));
  await connectPayoutAccount(owner, "http://localhost:3000");
  return { owner, cookie: await sessionCookieFor(owner.id), first, second, onItsWay, uncharged };
}

describe("Request payout for all", () => {
  test("the API: one transfer per eligible order, the held ones with why; 401, 403, 405; a second call sends nothing", async () => {
    const s = await ownerWithOrders();
    const customer = (await createTestUser())!;
    expect((await overview()).status).toBe(401);
    expect((await payAll()).status).toBe(401);
    const refused = await payAll(await sessionCookieFor(customer.id));
    expect([refused.status, refused.body.message]).toEqual([403, "Only printer owners receive payouts."]);
    const wrongMethod = await run(() =>
      payoutsForAllApi(args(jsonRequest("/api/payouts", {}, { cookie: s.cookie, method: "PUT" }))),
    );
    expect(wrongMethod.status).toBe(405);

    const before = await overview(s.cookie);
    expect(before.status).toBe(200);
    expect((before.body.eligible as { jobId: number }[]).map((l) => l.jobId)).toEqual([s.first, s.second]);
    const heldWhy = (body: Record<string, unknown>) =>
      (body.held as { jobId: number; holdReason: string }[]).map((l) => [l.jobId, l.holdReason]);
    expect(heldWhy(before.body)).toEqual([
      [s.onItsWay, NOT_DELIVERED],
      [s.uncharged, NOT_CAPTURED],
    ]);

    const transfers = testProviderLedger.transferRequests;
    const sent = await payAll(s.cookie);
    expect(sent.status).toBe(200);
    expect((sent.body.paid as { jobId: number; amountCents: number }[]).map((p) => p.jobId)).toEqual([s.first, s.second]);
    expect(heldWhy(sent.body)).toEqual(heldWhy(before.body));
    expect(sent.body.failed).toEqual([]);
    expect(testProviderLedger.transferRequests - transfers).toBe(2);
    const db = await getDb();
    const rows = await db.select().from(payouts).where(eq(payouts.ownerId, s.owner.id));
    expect(rows.map((r) => [r.jobId, r.status]).sort()).toEqual([
      [s.first, "paid"],
      [s.second, "paid"],
    ]);

    const again = await payAll(s.cookie);
    expect([again.status, again.body.paid]).toEqual([200, []]);
    expect(testProviderLedger.transferRequests - transfers).toBe(2);
  });

  test("the API counts a request for all as one payment write and answers 429 past the limit", async () => {
    const { owner, printer } = await createOwnerWithPrinter({ grams: 5000 });
    await paidOrderAt(owner, printer.id, "first.stl");
    await connectPayoutAccount(owner, "http://localhost:3000");
    const cookie = await sessionCookieFor(owner.id);
    // the connect above was one payment write; the request for all is the next
    WRITE_LIMITS.payment.limit = 2;
    expect((await payAll(cookie)).status).toBe(200);
    await paidOrderAt(owner, printer.id, "second.stl");
    const limited = await payAll(cookie);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/many times/);
  });

  test("the /printer-tracking form without JavaScript: a toast for what was sent, the held ones listed with why", async () => {
    const s = await ownerWithOrders();
    const page = async () =>
      (await (await run(() => trackingPage(args(getRequest("/printer-tracking?tab=payouts", s.cookie))))).json()) as {
        eligibleCount: number;
        held: { jobId: number; holdReason: string }[];
      };
    expect((await page()).eligibleCount).toBe(2);
    const posted = await run(() =>
      trackingAction(args(formRequest("/printer-tracking", { intent: "payout-all" }, { cookie: s.cookie }))),
    );
    expect(posted.headers.get("location")).toBe("/printer-tracking?tab=payouts");
    expect(await flashedToast(posted)).toMatchObject({
      title: "Payouts Requested",
      description: "2 payouts ($9.60) on the way. 2 on hold.",
    });
    const after = await page();
    expect(after.eligibleCount).toBe(0);
    expect(after.held.map((h) => [h.jobId, h.holdReason])).toEqual([
      [s.onItsWay, NOT_DELIVERED],
      [s.uncharged, NOT_CAPTURED],
    ]);
  });

  test("a payout the provider refused shows its reason on the order's row and is sent by the next request for all", async () => {
    const s = await ownerWithOrders();
    const db = await getDb();
    await db.insert(payouts).values({
      jobId: s.first,
      ownerId: s.owner.id,
      amountCents: 480,
      provider: "test",
      status: "failed",
      failureMessage: "Insufficient funds in Stripe account.",
    });
    const page = async () =>
      (await (await run(() => trackingPage(args(getRequest("/printer-tracking?tab=payouts", s.cookie))))).json()) as {
        eligibleCount: number;
        rows: { id: number; payoutRefusal: string | null }[];
      };
    const before = await page();
    expect(before.eligibleCount).toBe(2);
    expect(before.rows.find((r) => r.id === s.first)!.payoutRefusal).toBe("Insufficient funds in Stripe account.");
    const sent = await payAll(s.cookie);
    expect((sent.body.paid as { jobId: number }[]).map((p) => p.jobId)).toEqual([s.first, s.second]);
    expect((await page()).rows.find((r) => r.id === s.first)!.payoutRefusal).toBeNull();
  });
});
