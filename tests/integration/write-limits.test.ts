// Every write is counted per user (per address for the contact form) by the one limiter, WRITE_LIMITS: past a
// kind's limit the page or API call answers 429 with Retry-After and writes nothing.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { contactMessages, printerReviews, printJobs, users } from "../../db/schema";
import { isAppError } from "~/domain/app-error";
import { limitWrite, WRITE_LIMITS, type WriteKind } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";
import { CLIENT_IP_HEADER } from "~/utils/rate-limit.server";
import { action as confirmPayment } from "~/routes/api.confirm-payment";
import { action as submitOrder } from "~/routes/api.submit-order";
import { action as submitPrintPage } from "~/routes/submit-print";
import { action as contactAction } from "~/routes/contact";
import { action as reviewAction } from "~/routes/jobs.$id.review";
import { action as patchUser } from "~/routes/api.users.$id";
import { action as profileAction } from "~/routes/profile";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };

/** Lowers a kind's limit for one test; put back afterwards. */
const saved = new Map<WriteKind, number>();
function lowerLimit(kind: WriteKind, limit: number) {
  if (!saved.has(kind)) saved.set(kind, WRITE_LIMITS[kind].limit);
  WRITE_LIMITS[kind].limit = limit;
}
afterEach(() => {
  for (const [kind, limit] of saved) WRITE_LIMITS[kind].limit = limit;
  saved.clear();
});

function expectRefused(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

async function placeVia(cookie: string, printerId: number, draftId: number) {
  const body = { printerId, draftId, filamentColor: "Red", deliveryMethod: "pickup" };
  return run(() => submitOrder(args(jsonRequest("/api/submit-order", body, { cookie }))));
}

describe("limitWrite", () => {
  test("allows a kind's limit of writes per user, then refuses with the time to wait", async () => {
    const now = Date.UTC(2026, 0, 1);
    const { limit, windowMs } = WRITE_LIMITS.comment;
    for (let i = 0; i < limit; i++) await limitWrite(1, "comment", now);
    const refused = await limitWrite(1, "comment", now).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    expect(isAppError(refused) && refused.retryAfterSeconds).toBe(windowMs / 1000);
    // another user and another kind are counted apart; the window passing frees the user again
    await expect(limitWrite(2, "comment", now)).resolves.toBeUndefined();
    await expect(limitWrite(1, "like", now)).resolves.toBeUndefined();
    await expect(limitWrite(1, "comment", now + windowMs + 1)).resolves.toBeUndefined();
  });

  test("counts a visitor's address apart from any user id", async () => {
    const now = Date.UTC(2026, 0, 2);
    lowerLimit("contact", 1);
    await limitWrite({ address: "7" }, "contact", now);
    await expect(limitWrite(7, "contact", now)).resolves.toBeUndefined();
    expect(await limitWrite({ address: "7" }, "contact", now).catch((e: unknown) => isAppError(e) && e.code)).toBe(
      "rate_limited",
    );
  });
});

describe("orders", () => {
  test("POST /api/submit-order answers 429 with Retry-After past WRITE_LIMITS.order, and the draft stays a draft", async () => {
    lowerLimit("order", 2);
    const { printer } = await createOwnerWithPrinter();
    const customer = await createTestUser();
    const cookie = await sessionCookieFor(customer.id);
    const drafts = [await createDraft(customer.id), await createDraft(customer.id), await createDraft(customer.id)];
    expect((await placeVia(cookie, printer.id, drafts[0]!.id)).status).toBe(201);
    expect((await placeVia(cookie, printer.id, drafts[1]!.id)).status).toBe(201);
    const refused = await placeVia(cookie, printer.id, drafts[2]!.id);
    expectRefused(refused);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^You have placed many orders in a short time\./);
    const db = await getDb();
    const [third] = await db.select().from(printJobs).where(eq(printJobs.id, drafts[2]!.id));
    expect(third!.status).toBe("draft");
    // another customer is not affected
    const other = await createTestUser();
    const otherDraft = await createDraft(other.id);
    expect((await placeVia(await sessionCookieFor(other.id), printer.id, otherDraft.id)).status).toBe(201);
  });

  test("the Submit Print Job page answers 429 with Retry-After past WRITE_LIMITS.order, and the draft stays a draft", async () => {
    lowerLimit("order", 1);
    const { printer } = await createOwnerWithPrinter();
    const customer = await createTestUser();
    const cookie = await sessionCookieFor(customer.id);
    const drafts = [await createDraft(customer.id), await createDraft(customer.id)];
    const submit = (draftId: number) =>
      run(() =>
        submitPrintPage(
          args(
            formRequest(
              `/submit-print?printerId=${printer.id}&draftId=${draftId}`,
              { printerId: String(printer.id), draftId: String(draftId), filamentColor: "Red", deliveryMethod: "pickup" },
              { cookie },
            ),
          ),
        ),
      );
    expect((await submit(drafts[0]!.id)).status).toBe(302);
    const refused = await submit(drafts[1]!.id);
    expectRefused(refused);
    expect(((await refused.json()) as { result: { error: Record<string, string[]> } }).result.error[""]?.[0]).toMatch(
      /^You have placed many orders in a short time\./,
    );
    const db = await getDb();
    const [second] = await db.select().from(printJobs).where(eq(printJobs.id, drafts[1]!.id));
    expect(second!.status).toBe("draft");
  });
});

describe("payments", () => {
  test("POST /api/confirm-payment answers 429 with Retry-After past WRITE_LIMITS.payment, and the order stays unpaid", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    const { printer } = await createOwnerWithPrinter();
    const customer = await createTestUser();
    const cookie = await sessionCookieFor(customer.id);
    const orders: number[] = [];
    for (let i = 0; i < 2; i++) {
      const placed = await placeVia(cookie, printer.id, (await createDraft(customer.id)).id);
      expect(placed.status).toBe(201);
      orders.push(((await placed.json()) as { orderId: number }).orderId);
    }
    const db = await getDb();
    const statusOf = async (id: number) => (await db.select().from(printJobs).where(eq(printJobs.id, id)))[0]!.status;
    const placedStatus = await statusOf(orders[1]!);
    lowerLimit("payment", 1);
    const pay = (orderId: number) =>
      run(() => confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId, ...CARD }, { cookie }))));
    expect((await pay(orders[0]!)).status).toBe(200);
    const refused = await pay(orders[1]!);
    expectRefused(refused);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^You have tried to pay many times/);
    expect(await statusOf(orders[0]!)).not.toBe(placedStatus);
    expect(await statusOf(orders[1]!)).toBe(placedStatus);
  });
});

describe("printer reviews", () => {
  test("the review page answers 429 with Retry-After past WRITE_LIMITS.review, and stores no review", async () => {
    lowerLimit("review", 1);
    const owner = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const customer = await createTestUser();
    const cookie = await sessionCookieFor(customer.id);
    const first = await createTestJob(customer.id, printer!.id, "picked_up");
    const second = await createTestJob(customer.id, printer!.id, "shipped");
    const review = (jobId: number) =>
      run(() =>
        reviewAction(
          args(formRequest(`/jobs/${jobId}/review`, { rating: "5", review: "Fine" }, { cookie }), { id: String(jobId) }),
        ),
      );
    expect((await review(first!.id)).status).toBe(302);
    const refused = await review(second!.id);
    expectRefused(refused);
    const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error[""]?.[0]).toMatch(/^You have written many reviews in a short time\./);
    const db = await getDb();
    expect(await db.select().from(printerReviews).where(eq(printerReviews.jobId, second!.id))).toEqual([]);
  });
});

describe("profile", () => {
  test("PATCH /api/users/{id} answers 429 with Retry-After past WRITE_LIMITS.profile, counted with /profile, and changes nothing", async () => {
    lowerLimit("profile", 2);
    const user = await createTestUser({ firstName: "Pat" });
    const cookie = await sessionCookieFor(user.id);
    const patch = (firstName: string) =>
      run(() =>
        patchUser(
          args(jsonRequest(`/api/users/${user.id}`, { firstName }, { cookie, method: "PATCH" }), { id: String(user.id) }),
        ),
      );
    const page = () =>
      run(() => profileAction(args(formRequest("/profile", { username: user.username, firstName: "Page" }, { cookie }))));
    expect((await patch("Robin")).status).toBe(200);
    expect((await page()).status).toBe(302);
    const refused = await patch("Sam");
    expectRefused(refused);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^You have changed your profile many times in a short time\./,
    );
    expect((await page()).status).toBe(429);
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row.firstName).toBe("Page");
  });
});

describe("contact", () => {
  test("the contact form is limited by WRITE_LIMITS.contact per address, with Retry-After", async () => {
    lowerLimit("contact", 2);
    const send = (ip: string) => {
      const request = formRequest("/contact", {
        name: "Flo",
        email: "flo@example.test",
        subject: "Hello",
        message: "A question about my order.",
      });
      request.headers.set(CLIENT_IP_HEADER, ip);
      return run(() => contactAction(args(request)));
    };
    expect((await send("10.9.0.1")).status).toBe(302);
    expect((await send("10.9.0.1")).status).toBe(302);
    const refused = await send("10.9.0.1");
    expectRefused(refused);
    expect(JSON.stringify(await refused.json())).toContain("You have sent many messages to support in a short time.");
    expect((await send("10.9.0.2")).status).toBe(302);
    const db = await getDb();
    expect(await db.select().from(contactMessages).where(eq(contactMessages.email, "flo@example.test"))).toHaveLength(3);
  });
});
