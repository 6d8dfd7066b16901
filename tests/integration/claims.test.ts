// Claims through the JSON API (decision 040): a claim with a photo, the owner's answer, the customer's
// accept or escalation, the admins' decision, the 3-day sweep, the claim window, the payout hold,
// and who may do what (401/403/404).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { claims, messages, notifications, payouts, refunds, users } from "../../db/schema";
import { CLAIM_WINDOW_MS, OWNER_ANSWER_MS } from "../../app/domain/claims";
import { loader as orderLoader } from "../../app/routes/api.print-jobs.$id";
import { action as openClaimRoute, loader as listClaimsRoute } from "../../app/routes/api.print-jobs.$id.claims";
import { action as respondRoute } from "../../app/routes/api.claims.$id.respond";
import { action as acceptRoute } from "../../app/routes/api.claims.$id.accept";
import { action as escalateRoute } from "../../app/routes/api.claims.$id.escalate";
import { action as decideRoute } from "../../app/routes/api.admin.claims.$id.decide";
import { action as transferRoute } from "../../app/routes/api.transfer-payment";
import { loader as photoRoute } from "../../app/routes/claims.$id.photos.$index";
import { openClaim } from "../../app/services/orders/claims.server";
import { sweepClaims } from "../../app/services/orders/claims-sweep.server";
import { payWithTestCard } from "../../app/services/orders/payment-flows.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getDb } from "../../app/utils/db.server";
import { ONE_PIXEL_PNG } from "../fixtures/images";
import { placeTestOrder } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

WRITE_LIMITS.jobStatus.limit = 10_000;
WRITE_LIMITS.payment.limit = 10_000;
WRITE_LIMITS.admin.limit = 10_000;

const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", name: "Casey Customer" };
const PNG = ONE_PIXEL_PNG;

async function answer(response: Promise<Response> | Response) {
  const r = await response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** A paid 580-cent pickup order, picked up, with session cookies for its customer and owner, and the owner's payout account. */
async function pickedUpOrder() {
  const order = await placeTestOrder();
  await payWithTestCard(order.customer.id, order.jobId, CARD);
  for (const action of ["accept", "start_printing", "complete", "ready_for_pickup", "mark_picked_up"] as const) {
    await transitionJob({ jobId: order.jobId, by: { userId: order.owner.id }, action });
  }
  const db = await getDb();
  await db
    .update(users)
    .set({ stripeAccountId: `acct_test_${order.owner.id}` })
    .where(eq(users.id, order.owner.id));
  return {
    ...order,
    customerCookie: await sessionCookieFor(order.customer.id),
    ownerCookie: await sessionCookieFor(order.owner.id),
  };
}

function postClaim(jobId: number, cookie: string | undefined, fields: Record<string, string | Blob> = {}) {
  const request = formRequest(
    `/api/print-jobs/${jobId}/claims`,
    { reason: "arrived_broken", description: "The bracket snapped in two.", ...fields },
    { cookie },
  );
  return run(() => openClaimRoute(args(request, { id: String(jobId) })));
}
const post = (route: typeof respondRoute, url: string, id: number, cookie: string | undefined, body: unknown = {}) =>
  run(() => route(args(jsonRequest(url, body, { cookie }), { id: String(id) })));
const payout = (jobId: number, cookie: string) =>
  run(() => transferRoute(args(jsonRequest("/api/transfer-payment", { jobId }, { cookie }))));

beforeEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

describe("claims API", () => {
  test("claim with a photo → partial refund offered → accepted: the refund is recorded and the payout is the remainder", async () => {
    const o = await pickedUpOrder();
    const opened = await answer(
      postClaim(o.jobId, o.customerCookie, { photos: new File([PNG], "crack.png", { type: "image/png" }) }),
    );
    expect(opened.status).toBe(201);
    const claimId = Number(opened.body.claimId);

    // the payout asked for while the claim is open waits for it
    expect(await answer(payout(o.jobId, o.ownerCookie))).toEqual({
      status: 202,
      body: {
        jobId: o.jobId,
        amountCents: 480,
        waiting: true,
        message: "The payout will be sent once the claim about this order is resolved.",
      },
    });
    const db = await getDb();
    expect(await db.select().from(payouts).where(eq(payouts.jobId, o.jobId))).toEqual([]);

    const listed = await answer(
      run(() => listClaimsRoute(args(getRequest(`/api/print-jobs/${o.jobId}/claims`, o.ownerCookie), { id: String(o.jobId) }))),
    );
    const [claim] = listed.body as unknown as Array<{ photos: string[]; status: string }>;
    expect([claim!.status, claim!.photos]).toEqual(["open", [`/claims/${claimId}/photos/0`]]);
    const photo = await run(() =>
      photoRoute(args(getRequest(claim!.photos[0]!, o.ownerCookie), { id: String(claimId), index: "0" })),
    );
    expect([photo.status, photo.headers.get("content-type")]).toEqual([200, "image/png"]);
    const stranger = await sessionCookieFor((await createTestUser())!.id);
    const hidden = await run(() =>
      photoRoute(args(getRequest(claim!.photos[0]!, stranger), { id: String(claimId), index: "0" })),
    );
    expect(hidden.status).toBe(404);

    // over what was captured is refused; the customer can't answer for the owner
    const tooMuch = await answer(
      post(respondRoute, "/r", claimId, o.ownerCookie, { action: "refund_partial", amountCents: 581, message: "Sorry" }),
    );
    expect(tooMuch).toEqual({ status: 400, body: { message: "A refund can be at most $5.80." } });
    const notTheirs = await post(respondRoute, "/r", claimId, o.customerCookie, { action: "decline", message: "No" });
    expect(notTheirs.status).toBe(403);
    const offered = await answer(
      post(respondRoute, "/r", claimId, o.ownerCookie, {
        action: "refund_partial",
        amountCents: 200,
        message: "Sorry about that",
      }),
    );
    expect(offered).toEqual({ status: 200, body: { claimId, status: "answered", offeredCents: 200 } });

    expect((await post(acceptRoute, "/a", claimId, o.ownerCookie)).status).toBe(403);
    expect(await answer(post(acceptRoute, "/a", claimId, o.customerCookie))).toEqual({
      status: 200,
      body: { claimId, status: "resolved", refundCents: 200 },
    });
    const order = await answer(
      run(() => orderLoader(args(getRequest(`/api/print-jobs/${o.jobId}`, o.customerCookie), { id: String(o.jobId) }))),
    );
    expect([order.body.refundedCents, order.body.claim]).toEqual([200, { id: claimId, status: "resolved", refundCents: 200 }]);
    // the waiting payout went out when the claim was resolved: 480 profit less the 200 refunded, once
    const [sent] = await db.select().from(payouts).where(eq(payouts.jobId, o.jobId));
    expect([sent!.amountCents, sent!.status]).toEqual([280, "paid"]);
    expect(await answer(payout(o.jobId, o.ownerCookie))).toEqual({
      status: 409,
      body: { message: "This order has already been paid out." },
    });

    const thread = await db.select().from(messages).where(eq(messages.jobId, o.jobId));
    expect(thread.map((m) => m.senderType)).toEqual(["customer", "printer", "customer"]);
    const told = await db.select().from(notifications).where(eq(notifications.userId, o.owner.id));
    expect(told.map((n) => n.title)).toEqual(
      expect.arrayContaining(["Problem Reported", "Claim Answered", "Claim Resolved", "Payout Sent"]),
    );
  });

  test("escalated after 3 days unanswered; 20 concurrent admin decisions refund once, in full, reversing the payout already sent", async () => {
    const o = await pickedUpOrder();
    // paid out before the claim
    expect((await payout(o.jobId, o.ownerCookie)).status).toBe(200);
    const { claimId } = (await openClaim({
      customerId: o.customer.id,
      jobId: o.jobId,
      reason: "not_received",
      description: "Never got it",
      photos: [],
    }))!;
    const db = await getDb();
    const [created] = await db.select().from(claims).where(eq(claims.id, claimId));
    expect((await sweepClaims(created!.createdAt.getTime() + OWNER_ANSWER_MS - 1)).escalated).not.toContain(claimId);
    expect((await sweepClaims(created!.createdAt.getTime() + OWNER_ANSWER_MS)).escalated).toContain(claimId);

    const admin = (await createTestUser({ isAdmin: true }))!;
    const adminCookie = await sessionCookieFor(admin.id);
    expect((await post(decideRoute, "/d", claimId, o.customerCookie, { refundCents: 580, note: "x" })).status).toBe(403);
    expect((await post(decideRoute, "/d", claimId, undefined, { refundCents: 580, note: "x" })).status).toBe(401);
    expect(await answer(post(decideRoute, "/d", claimId, adminCookie, { refundCents: 581, note: "Too much" }))).toEqual({
      status: 400,
      body: { message: "A refund can be at most $5.80." },
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(decideRoute, "/d", claimId, adminCookie, { refundCents: 580, note: "Refunded in full" }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(
      (await db.select().from(refunds).where(eq(refunds.jobId, o.jobId))).map((r) => [r.amountCents, r.reversedCents]),
    ).toEqual([[580, 480]]);
    const [paid] = await db.select().from(payouts).where(eq(payouts.jobId, o.jobId));
    expect([paid!.amountCents, paid!.reversedCents]).toEqual([480, 480]);
    const told = await db.select().from(notifications).where(eq(notifications.userId, o.customer.id));
    expect(told.find((n) => n.title === "Claim Decided")?.message).toContain(
      "Printnear support refunded $5.80: Refunded in full",
    );
  });

  test("the customer escalates a declined claim; an admin decides on no refund", async () => {
    const o = await pickedUpOrder();
    const { claimId } = (await openClaim({
      customerId: o.customer.id,
      jobId: o.jobId,
      reason: "poor_quality",
      description: "Layer lines",
      photos: [],
    }))!;
    expect((await post(escalateRoute, "/e", claimId, o.customerCookie)).status).toBe(409);
    await post(respondRoute, "/r", claimId, o.ownerCookie, { action: "decline", message: "Within tolerance" });
    expect(await answer(post(escalateRoute, "/e", claimId, o.customerCookie))).toEqual({
      status: 200,
      body: { claimId, status: "escalated" },
    });
    const adminCookie = await sessionCookieFor((await createTestUser({ isAdmin: true }))!.id);
    expect(
      await answer(post(decideRoute, "/d", claimId, adminCookie, { refundCents: 0, note: "The print matches the order" })),
    ).toEqual({
      status: 200,
      body: { claimId, status: "resolved", refundCents: 0 },
    });
    expect((await payout(o.jobId, o.ownerCookie)).status).toBe(200);
  });

  test("who may report what, and when: window, photos, one claim at a time", async () => {
    const o = await pickedUpOrder();
    expect((await postClaim(o.jobId, undefined)).status).toBe(401);
    expect((await postClaim(o.jobId, o.ownerCookie)).status).toBe(403);
    const stranger = await sessionCookieFor((await createTestUser())!.id);
    expect((await postClaim(o.jobId, stranger)).status).toBe(404);
    expect(
      await answer(postClaim(o.jobId, o.customerCookie, { photos: new File(["GIF89a"], "x.png", { type: "image/png" }) })),
    ).toEqual({
      status: 415,
      body: { message: "The photo must be a JPEG, PNG or WebP image" },
    });
    expect(await answer(postClaim(o.jobId, o.customerCookie, { reason: "melted" }))).toEqual({
      status: 400,
      body: { message: "Choose what went wrong" },
    });
    expect((await postClaim(o.jobId, o.customerCookie)).status).toBe(201);
    expect(await answer(postClaim(o.jobId, o.customerCookie))).toEqual({
      status: 409,
      body: { message: "A claim is already open for this order." },
    });

    const late = await pickedUpOrder();
    const job = await answer(
      run(() => orderLoader(args(getRequest(`/api/print-jobs/${late.jobId}`, late.customerCookie), { id: String(late.jobId) }))),
    );
    const after = new Date(String(job.body.pickedUpAt)).getTime() + CLAIM_WINDOW_MS + 1;
    const refused = await openClaim({
      customerId: late.customer.id,
      jobId: late.jobId,
      reason: "other",
      description: "Late",
      photos: [],
      now: after,
    }).catch((e: unknown) => e as Error);
    expect((refused as Error).message).toBe(
      "Problems can be reported within 7 days of pickup or delivery (14 days after shipping).",
    );
  });
});
