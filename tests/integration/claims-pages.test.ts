// The claim forms as plain posts (no JavaScript): /order/{id}/claim with its intents, /admin/claims,
// and the refunded amounts the order page, the dashboard, /printer-tracking and the admin overview show.
import { beforeEach, describe, expect, test } from "vitest";
import { loader as adminOverview } from "../../app/routes/admin._index";
import { action as adminClaimsAction, loader as adminClaimsPage } from "../../app/routes/admin.claims";
import { loader as dashboardPage } from "../../app/routes/dashboard";
import { loader as orderPage } from "../../app/routes/order.$id";
import { action as claimAction } from "../../app/routes/order.$id_.claim";
import { loader as trackingPage } from "../../app/routes/printer-tracking";
import { sweepClaims } from "../../app/services/orders/claims-sweep.server";
import { OWNER_ANSWER_MS } from "../../app/domain/claims";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { ONE_PIXEL_PNG } from "../fixtures/images";
import { placeTestOrder } from "../setup/orders";
import { args, createTestUser, flashedToast, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };
const PNG = ONE_PIXEL_PNG;

async function pickedUpOrder() {
  const order = await placeTestOrder();
  await payWithTestCard(order.customer.id, order.jobId, CARD);
  for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
    await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
  }
  return {
    ...order,
    customerCookie: await sessionCookieFor(order.customer.id),
    ownerCookie: await sessionCookieFor(order.owner.id),
  };
}

const post = (jobId: number, cookie: string, fields: Record<string, string | Blob>) =>
  run(() => claimAction(args(formRequest(`/order/${jobId}/claim`, fields, { cookie }), { id: String(jobId) })));
const page = async (jobId: number, cookie: string) =>
  (await (await run(() => orderPage(args(getRequest(`/order/${jobId}`, cookie), { id: String(jobId) })))).json()) as {
    claim: { claim: { id: number; status: string } | null; canReport: boolean; refundedCents: number };
    timeline: Array<{ label: string }>;
  };

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe("claim forms without JavaScript", () => {
  test("report with a photo, a refused answer keeps its form, a partial refund accepted shows everywhere", async () => {
    const o = await pickedUpOrder();
    expect((await page(o.jobId, o.customerCookie)).claim.canReport).toBe(true);

    const blank = await post(o.jobId, o.customerCookie, { intent: "open-claim", reason: "arrived_broken", description: " " });
    expect(blank.status).toBe(400);
    const refused = (await blank.json()) as { intent: string; result: { error: Record<string, string[]> } };
    expect([refused.intent, refused.result.error.description]).toEqual(["open-claim", ["Describe the problem"]]);

    const reported = await post(o.jobId, o.customerCookie, {
      intent: "open-claim",
      reason: "arrived_broken",
      description: "Snapped in two",
      photos: new File([PNG], "crack.png", { type: "image/png" }),
    });
    expect([reported.status, reported.headers.get("location")]).toEqual([302, `/order/${o.jobId}#claim`]);
    expect((await flashedToast(reported))?.title).toBe("Problem Reported");
    const claimId = (await page(o.jobId, o.ownerCookie)).claim.claim!.id;

    const over = await post(o.jobId, o.ownerCookie, {
      intent: "respond-claim",
      claimId: String(claimId),
      action: "refund_partial",
      amount: "9.00",
      message: "Sorry",
    });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { result: { error: Record<string, string[]> } }).result.error.amount).toEqual([
      "A refund can be at most $5.80.",
    ]);
    const answered = await post(o.jobId, o.ownerCookie, {
      intent: "respond-claim",
      claimId: String(claimId),
      action: "refund_partial",
      amount: "2.00",
      message: "Sorry",
    });
    expect(answered.status).toBe(302);
    // the owner can't accept for the customer: a toast, nothing changes
    const wrong = await post(o.jobId, o.ownerCookie, { intent: "accept-claim", claimId: String(claimId) });
    expect((await flashedToast(wrong))?.variant).toBe("destructive");
    const accepted = await post(o.jobId, o.customerCookie, { intent: "accept-claim", claimId: String(claimId) });
    expect((await flashedToast(accepted))?.title).toBe("Answer Accepted");

    const after = await page(o.jobId, o.customerCookie);
    expect([after.claim.claim!.status, after.claim.refundedCents]).toEqual(["resolved", 200]);
    expect(after.timeline.map((t) => t.label)).toEqual(
      expect.arrayContaining(["Problem reported", "Claim answered", "Claim answer accepted"]),
    );

    const dashboard = (await (
      await run(() => dashboardPage(args(getRequest("/dashboard?tab=completed", o.customerCookie))))
    ).json()) as {
      stats: { totalSpentCents: number };
      jobs: Array<{ id: number; refundedCents: number }>;
    };
    expect(dashboard.stats.totalSpentCents).toBe(380);
    const tracking = (await (
      await run(() => trackingPage(args(getRequest("/printer-tracking?tab=payouts", o.ownerCookie))))
    ).json()) as {
      stats: { earningsCents: number; refundedCents: number };
      rows: Array<{ earnings: string; refunded: string | null }>;
    };
    expect([tracking.stats.earningsCents, tracking.stats.refundedCents]).toEqual([280, 200]);
    expect(tracking.rows.map((r) => [r.earnings, r.refunded])).toEqual([["$2.80", "$2.00"]]);
  });

  test("/admin/claims lists an unanswered claim after 3 days and decides it; the overview shows the refund", async () => {
    const o = await pickedUpOrder();
    await post(o.jobId, o.customerCookie, { intent: "open-claim", reason: "not_received", description: "Nothing came" });
    const claimId = (await page(o.jobId, o.customerCookie)).claim.claim!.id;
    await sweepClaims(Date.now() + OWNER_ANSWER_MS + 1000);
    const admin = (await createTestUser({ isAdmin: true }))!;
    const adminCookie = await sessionCookieFor(admin.id);
    const listed = (await (await run(() => adminClaimsPage(args(getRequest("/admin/claims", adminCookie))))).json()) as {
      claims: Array<{ claim: { id: number }; refundableCents: number }>;
    };
    expect(listed.claims.find((c) => c.claim.id === claimId)?.refundableCents).toBe(580);
    const decide = (fields: Record<string, string>) =>
      run(() =>
        adminClaimsAction(
          args(formRequest("/admin/claims", { intent: "decide", claimId: String(claimId), ...fields }, { cookie: adminCookie })),
        ),
      );
    const bad = await decide({ refund: "abc", note: "x" });
    expect(bad.status).toBe(400);
    // the page finds the refused claim's form by the claimId the post carried
    expect(((await bad.json()) as { result: { initialValue: Record<string, unknown> } }).result.initialValue.claimId).toBe(
      String(claimId),
    );
    const done = await decide({ refund: "5.80", note: "Refunded in full" });
    expect((await flashedToast(done))?.title).toBe("Claim Decided");
    expect((await page(o.jobId, o.customerCookie)).claim.refundedCents).toBe(580);
    const overview = (await (await run(() => adminOverview(args(getRequest("/admin", adminCookie))))).json()) as {
      money: { refundedCents: number };
    };
    expect(overview.money.refundedCents).toBeGreaterThanOrEqual(580);
    // a customer is sent away
    const denied = await run(() => adminClaimsPage(args(getRequest("/admin/claims", o.customerCookie))));
    expect(denied.status).toBe(302);
  });
});
