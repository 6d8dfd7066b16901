// An order that was never paid is not its printer owner's business: no page, API answer, count,
// conversation, live event or notification of theirs shows it, and the customer can't write to them
// until it is paid. What one user receives from people they have no paid order with is capped too.
import { inArray } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { messages } from "../../db/schema";
import { JOB_STATUSES, reachedOwner } from "~/domain/job-status";
import { MESSAGE_AFTER_PAYMENT } from "~/domain/messages";
import { loader as rootLoader } from "~/root";
import { action as confirmPayment } from "~/routes/api.confirm-payment";
import { action as updateJob, loader as jobApi } from "~/routes/api.print-jobs.$id";
import { action as cancelJob } from "~/routes/api.print-jobs.$id.cancel";
import { loader as downloadApi } from "~/routes/api.print-jobs.$id.download";
import { action as postJobMessage, loader as jobMessagesApi } from "~/routes/api.print-jobs.$id.messages";
import { action as respondApi } from "~/routes/api.print-jobs.$id.respond";
import { action as postMessage } from "~/routes/api.print-jobs.message";
import { loader as printerJobsApi } from "~/routes/api.printers.$id.jobs";
import { action as submitOrder } from "~/routes/api.submit-order";
import { action as transferPayment } from "~/routes/api.transfer-payment";
import { loader as conversationsApi } from "~/routes/api.users.$id.conversations";
import { loader as notificationsApi } from "~/routes/api.users.$id.notifications";
import { loader as ownerJobsApi } from "~/routes/api.users.$id.printer-jobs";
import { action as messagesPageAction, loader as messagesPage } from "~/routes/messages";
import { action as orderPageAction, loader as orderPage } from "~/routes/order.$id";
import { loader as dashboardPage } from "~/routes/printer-dashboard";
import { reachedOwnerSql } from "~/services/orders/jobs.server";
import { LiveHub, type LiveEvent } from "~/services/live-events.server";
import { RECEIVE_LIMITS, WRITE_LIMITS, type ReceiveKind, type WriteKind } from "~/services/write-limits.server";
import { getClient, getDb } from "~/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Casey" };
const PHISHING = "Your payout is on hold, confirm your bank details at https://printnear-payouts.example/login";

/** Lowers a limit for one test; put back afterwards. */
const restore: (() => void)[] = [];
function lowerWrite(kind: WriteKind, limit: number) {
  const before = WRITE_LIMITS[kind].limit;
  WRITE_LIMITS[kind].limit = limit;
  restore.push(() => (WRITE_LIMITS[kind].limit = before));
}
function lowerReceive(kind: ReceiveKind, limit: number) {
  const before = RECEIVE_LIMITS[kind].limit;
  RECEIVE_LIMITS[kind].limit = limit;
  restore.push(() => (RECEIVE_LIMITS[kind].limit = before));
}
afterEach(() => {
  for (const undo of restore.splice(0).reverse()) undo();
});

async function signedIn(overrides: Parameters<typeof createTestUser>[0] = {}) {
  const user = (await createTestUser(overrides))!;
  return { ...user, cookie: await sessionCookieFor(user.id) };
}

/** A printer owner with a stocked printer, signed in. */
async function signedInOwner(options: { grams?: number } = {}) {
  const { owner, printer } = await createOwnerWithPrinter(options);
  return { owner: { ...owner, cookie: await sessionCookieFor(owner.id) }, printer };
}

/** A new draft of the customer's placed at the printer through POST /api/submit-order (unpaid). */
async function placeVia(customer: { id: number; cookie: string }, printerId: number) {
  const draft = await createDraft(customer.id);
  const order = { printerId, draftId: draft.id, filamentColor: "Red", deliveryMethod: "pickup" };
  const placed = await run(() => submitOrder(args(jsonRequest("/api/submit-order", order, customer))));
  expect(placed.status).toBe(201);
  return draft.id;
}

/** The customer's order at the printer, put in a status directly, with the times it would carry. */
function orderIn(customerId: number, printerId: number, status: "submitted" | "rejected" | "accepted", paid: boolean) {
  const now = new Date();
  return createDraft(customerId, {
    printerId,
    status,
    filamentColor: "Red",
    submittedAt: now,
    confirmedAt: paid ? now : null,
    acceptedAt: status === "accepted" ? now : null,
    rejectedAt: status === "rejected" ? now : null,
  });
}

async function body(response: Response) {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown> & unknown[];
  } catch {
    return text as unknown as Record<string, unknown> & unknown[];
  }
}

/** The queued e-mails to this address. */
async function mailTo(email: string) {
  const client = await getClient();
  const { rows } = await client.execute("SELECT payload FROM background_tasks WHERE kind = 'mail.send'");
  return rows.map((r) => JSON.parse(String(r.payload)) as { to: string; subject: string }).filter((m) => m.to === email);
}

/** Everything the owner's pages and API calls show of their orders, messages and notifications. */
async function ownerSees(owner: { id: number; cookie: string }, printerId: number) {
  const get = (loader: (a: ReturnType<typeof args>) => Promise<unknown>, url: string, params: Record<string, string> = {}) =>
    run(() => loader(args(getRequest(url, owner.cookie), params))).then(body);
  const dashboard = (await get(dashboardPage, "/printer-dashboard")) as unknown as {
    orders: { stats: { pending: number; totalJobs: number }; requests: unknown[] };
  };
  const root = (await get(rootLoader, "/")) as unknown as {
    user: { unreadNotifications: number; unreadMessages: number };
  };
  const messagesList = (await get(messagesPage, "/messages")) as unknown as { conversations: unknown[] };
  return {
    requests: dashboard.orders.requests.length,
    pending: dashboard.orders.stats.pending,
    totalJobs: dashboard.orders.stats.totalJobs,
    ownerJobs: (await get(ownerJobsApi, `/api/users/${owner.id}/printer-jobs`, { id: String(owner.id) })).length,
    printerJobs: (await get(printerJobsApi, `/api/printers/${printerId}/jobs`, { id: String(printerId) })).length,
    conversationsApi: (await get(conversationsApi, `/api/users/${owner.id}/conversations`, { id: String(owner.id) })).length,
    conversationsPage: messagesList.conversations.length,
    notifications: (await get(notificationsApi, `/api/users/${owner.id}/notifications`, { id: String(owner.id) })).length,
    unreadNotifications: root.user.unreadNotifications,
    unreadMessages: root.user.unreadMessages,
  };
}

/** What the owner gets asking for one order by every address that names it. */
async function ownerAsksFor(owner: { cookie: string }, jobId: number) {
  const id = String(jobId);
  const api = await run(() => jobApi(args(getRequest(`/api/print-jobs/${id}`, owner.cookie), { id })));
  const page = await run(() => orderPage(args(getRequest(`/order/${id}`, owner.cookie), { id })));
  const thread = await run(() => messagesPage(args(getRequest(`/messages?jobId=${id}`, owner.cookie))));
  const threadApi = await run(() => jobMessagesApi(args(getRequest(`/api/print-jobs/${id}/messages`, owner.cookie), { id })));
  const download = await run(() => downloadApi(args(getRequest(`/api/print-jobs/${id}/download`, owner.cookie), { id })));
  const accept = await run(() =>
    respondApi(args(jsonRequest(`/api/print-jobs/${id}/respond`, { action: "accept" }, { cookie: owner.cookie }), { id })),
  );
  const printing = await run(() =>
    updateJob(
      args(jsonRequest(`/api/print-jobs/${id}`, { status: "printing" }, { cookie: owner.cookie, method: "PUT" }), { id }),
    ),
  );
  const cancel = await run(() =>
    cancelJob(args(jsonRequest(`/api/print-jobs/${id}/cancel`, {}, { cookie: owner.cookie, method: "PUT" }), { id })),
  );
  const reply = await run(() =>
    postJobMessage(args(jsonRequest(`/api/print-jobs/${id}/messages`, { message: "Hello?" }, { cookie: owner.cookie }), { id })),
  );
  return {
    statuses: [api, page, thread, threadApi, download, accept, printing, cancel, reply].map((r) => r.status),
    apiText: await api.text(),
  };
}

/** The customer's four ways to write to the owner about an order: two API calls and two pages. */
async function customerWrites(customer: { cookie: string }, jobId: number, text: string) {
  const id = String(jobId);
  const viaJob = await run(() =>
    postJobMessage(args(jsonRequest(`/api/print-jobs/${id}/messages`, { message: text }, { cookie: customer.cookie }), { id })),
  );
  const viaMessage = await run(() =>
    postMessage(args(jsonRequest("/api/print-jobs/message", { jobId, message: text }, { cookie: customer.cookie }))),
  );
  const viaOrderPage = await run(() =>
    orderPageAction(
      args(formRequest(`/order/${id}`, { intent: "send-message", message: text }, { cookie: customer.cookie }), { id }),
    ),
  );
  const viaMessagesPage = await run(() =>
    messagesPageAction(
      args(
        formRequest(`/messages?jobId=${id}`, { intent: "send-message", jobId: id, message: text }, { cookie: customer.cookie }),
      ),
    ),
  );
  return [viaJob, viaMessage, viaOrderPage, viaMessagesPage];
}

const NOTHING = {
  requests: 0,
  pending: 0,
  totalJobs: 0,
  ownerJobs: 0,
  printerJobs: 0,
  conversationsApi: 0,
  conversationsPage: 0,
  notifications: 0,
  unreadNotifications: 0,
  unreadMessages: 0,
};

describe("an unpaid order is not the owner's business", () => {
  test("five accounts place thirty unpaid orders on one printer and write to it: the owner sees and hears nothing until one is paid", async () => {
    const { owner, printer } = await signedInOwner({ grams: 100_000 });
    const orders: { customer: Awaited<ReturnType<typeof signedIn>>; jobId: number }[] = [];
    for (let c = 0; c < 5; c++) {
      const customer = await signedIn({ firstName: "Free", lastName: `Account${c}` });
      for (let o = 0; o < 6; o++) orders.push({ customer, jobId: await placeVia(customer, printer.id) });
    }
    expect(orders).toHaveLength(30);

    // 30 orders × 4 ways to write, 120 attempts, each carrying the phishing link: every one refused
    for (const { customer, jobId } of orders) {
      const answers = await customerWrites(customer, jobId, PHISHING);
      expect(answers.map((a) => a.status)).toEqual([409, 409, 409, 409]);
      expect(JSON.stringify(await body(answers[0]!))).toContain(MESSAGE_AFTER_PAYMENT);
    }
    const db = await getDb();
    expect(await db.select().from(messages)).toEqual([]);

    // nothing of them anywhere the owner looks, no bell, no e-mail
    expect(await ownerSees(owner, printer.id)).toEqual(NOTHING);
    expect(await mailTo(owner.email)).toEqual([]);
    for (const { jobId } of orders.slice(0, 3)) {
      const asked = await ownerAsksFor(owner, jobId);
      // the order page, its thread and every API call about it answer as if it didn't exist
      expect(asked.statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
      expect(asked.apiText).not.toContain("@example.test");
    }

    // the customer's order page says why there is no send box
    const first = orders[0]!;
    const customerPage = await run(() =>
      orderPage(args(getRequest(`/order/${first.jobId}`, first.customer.cookie), { id: String(first.jobId) })),
    );
    expect(((await customerPage.json()) as { canMessage: boolean }).canMessage).toBe(false);

    // paid: the owner gets the new order request, sees the order, and the customer can write
    const paid = await run(() =>
      confirmPayment(
        args(jsonRequest("/api/confirm-payment", { orderId: first.jobId, ...CARD }, { cookie: first.customer.cookie })),
      ),
    );
    expect(paid.status).toBe(200);
    const notices = (await body(
      await run(() =>
        notificationsApi(args(getRequest(`/api/users/${owner.id}/notifications`, owner.cookie), { id: String(owner.id) })),
      ),
    )) as unknown as { title: string; link: string }[];
    expect(notices.map((n) => [n.title, n.link])).toEqual([["New Order Request", `/order/${first.jobId}`]]);
    expect((await mailTo(owner.email)).map((m) => m.subject)).toEqual(["New Order Request | Printnear"]);
    const seen = await run(() =>
      jobApi(args(getRequest(`/api/print-jobs/${first.jobId}`, owner.cookie), { id: String(first.jobId) })),
    );
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as { customer: { email: string } }).customer.email).toBe(first.customer.email);
    expect(await ownerSees(owner, printer.id)).toMatchObject({
      requests: 1,
      pending: 1,
      totalJobs: 1,
      ownerJobs: 1,
      printerJobs: 1,
    });

    const sent = await run(() =>
      postMessage(
        args(jsonRequest("/api/print-jobs/message", { jobId: first.jobId, message: "Can you do it by Friday?" }, first.customer)),
      ),
    );
    expect(sent.status).toBe(201);
    expect(await ownerSees(owner, printer.id)).toMatchObject({ conversationsApi: 1, unreadMessages: 1, notifications: 2 });
    // the other 29 stay out of sight
    expect((await ownerAsksFor(owner, orders[1]!.jobId)).statuses[0]).toBe(404);
  });

  test("an order cancelled before payment never reaches the owner; one cancelled after payment tells them", async () => {
    const { owner, printer } = await signedInOwner();
    const customer = await signedIn();
    const cancel = (jobId: number) =>
      run(() =>
        cancelJob(
          args(jsonRequest(`/api/print-jobs/${jobId}/cancel`, {}, { cookie: customer.cookie, method: "PUT" }), {
            id: String(jobId),
          }),
        ),
      );
    const unpaid = await placeVia(customer, printer.id);
    expect((await cancel(unpaid)).status).toBe(200);
    expect(await ownerSees(owner, printer.id)).toEqual(NOTHING);
    expect((await ownerAsksFor(owner, unpaid)).statuses[0]).toBe(404);

    const paid = await placeVia(customer, printer.id);
    await run(() =>
      confirmPayment(args(jsonRequest("/api/confirm-payment", { orderId: paid, ...CARD }, { cookie: customer.cookie }))),
    );
    expect((await cancel(paid)).status).toBe(200);
    const notices = (await body(
      await run(() =>
        notificationsApi(args(getRequest(`/api/users/${owner.id}/notifications`, owner.cookie), { id: String(owner.id) })),
      ),
    )) as unknown as { title: string }[];
    expect(notices.map((n) => n.title).sort()).toEqual(["New Order Request", "Order Cancelled"]);
    expect((await ownerAsksFor(owner, paid)).statuses[0]).toBe(200);
  });

  test("a payout asked for an unpaid order answers 404, as every other address of it does", async () => {
    const { owner, printer } = await signedInOwner();
    const customer = await signedIn();
    const unpaid = await placeVia(customer, printer.id);
    const asked = await run(() =>
      transferPayment(args(jsonRequest("/api/transfer-payment", { jobId: unpaid }, { cookie: owner.cookie }))),
    );
    expect(asked.status).toBe(404);
  });

  test("messages stored on an unpaid order stay hidden from the owner: no unread count, no conversation, no live event", async () => {
    const { owner, printer } = await signedInOwner();
    const customer = await signedIn();
    const job = await orderIn(customer.id, printer.id, "submitted", false);
    const hub = new LiveHub();
    const heard: Record<"owner" | "customer", LiveEvent[]> = { owner: [], customer: [] };
    const offOwner = await hub.subscribe({ userId: owner.id, address: "198.51.100.1" }, (e) => heard.owner.push(e));
    const offCustomer = await hub.subscribe({ userId: customer.id, address: "198.51.100.2" }, (e) => heard.customer.push(e));
    try {
      const db = await getDb();
      await db.insert(messages).values({ jobId: job.id, senderId: customer.id, senderType: "customer", content: PHISHING });
      await hub.poll();
      expect(heard.customer.map((e) => e.kind)).toEqual(["message"]);
      expect(heard.owner).toEqual([]);
      expect(await ownerSees(owner, printer.id)).toEqual(NOTHING);
    } finally {
      offOwner();
      offCustomer();
    }
  });

  test("reachedOwner and its SQL form agree on every status, with and without a payment time", async () => {
    const customer = await createTestUser();
    const client = await getClient();
    for (const status of JOB_STATUSES) {
      for (const confirmedAt of [null, new Date()]) {
        const job = await createDraft(customer!.id, { status, confirmedAt });
        const { rows } = await client.execute({
          sql: `SELECT ${reachedOwnerSql("j")} AS reached FROM print_jobs j WHERE j.id = ?`,
          args: [job.id],
        });
        expect([status, confirmedAt !== null, Number(rows[0]!.reached) === 1]).toEqual([
          status,
          confirmedAt !== null,
          reachedOwner({ status, confirmedAt }),
        ]);
      }
    }
  });
});

describe("what one user receives from people they have no paid order with is capped", () => {
  /** An owner and customers whose orders at the owner's printer were paid and then rejected: no paid order between them. */
  async function endedOrders(count: number) {
    const { owner, printer } = await signedInOwner();
    const parties: { customer: Awaited<ReturnType<typeof signedIn>>; jobId: number }[] = [];
    for (let i = 0; i < count; i++) {
      const customer = await signedIn();
      const job = await orderIn(customer.id, printer.id, "rejected", true);
      parties.push({ customer, jobId: job.id });
    }
    return { owner, printer, parties };
  }
  const write = (who: { cookie: string }, jobId: number, message: string) =>
    run(() =>
      postJobMessage(
        args(jsonRequest(`/api/print-jobs/${jobId}/messages`, { message }, { cookie: who.cookie }), { id: String(jobId) }),
      ),
    );
  const bell = async (user: { id: number; cookie: string }) =>
    (await body(
      await run(() =>
        notificationsApi(args(getRequest(`/api/users/${user.id}/notifications`, user.cookie), { id: String(user.id) })),
      ),
    )) as unknown as { title: string }[];

  test("past the recipient's caps the sender gets 429 with Retry-After and the owner is not told; a paying customer still gets through", async () => {
    lowerReceive("conversation", 2);
    lowerReceive("notification", 4);
    const { owner, printer, parties } = await endedOrders(3);
    const [a, b, c] = parties;
    expect((await write(a!.customer, a!.jobId, "Why was it rejected?")).status).toBe(201);
    expect((await write(b!.customer, b!.jobId, PHISHING)).status).toBe(201);
    // a third new conversation in the hour
    const third = await write(c!.customer, c!.jobId, PHISHING);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await third.json()) as { message: string }).message).toMatch(
      /^This person has been contacted by many people in a short time\./,
    );
    // going on in the two open conversations: notifications 3 and 4, then the cap
    expect((await write(a!.customer, a!.jobId, "Hello?")).status).toBe(201);
    expect((await write(b!.customer, b!.jobId, PHISHING)).status).toBe(201);
    const fifth = await write(a!.customer, a!.jobId, "Hello??");
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as { message: string }).message).toMatch(
      /^This person has received many messages in a short time\./,
    );
    // the pages refuse the same way, with the time to wait
    const viaPage = await run(() =>
      messagesPageAction(
        args(
          formRequest(
            `/messages?jobId=${b!.jobId}`,
            { intent: "send-message", jobId: String(b!.jobId), message: "again" },
            b!.customer,
          ),
        ),
      ),
    );
    const viaOrderPage = await run(() =>
      orderPageAction(
        args(formRequest(`/order/${b!.jobId}`, { intent: "send-message", message: "again" }, b!.customer), {
          id: String(b!.jobId),
        }),
      ),
    );
    for (const refused of [viaPage, viaOrderPage]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }

    expect((await bell(owner)).filter((n) => n.title === "New Message")).toHaveLength(4);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(messages)
        .where(inArray(messages.jobId, [a!.jobId, b!.jobId, c!.jobId])),
    ).toHaveLength(4);

    // a customer with a paid order is not counted against the cap
    const payer = await signedIn();
    const job = await orderIn(payer.id, printer.id, "accepted", true);
    expect((await write(payer, job.id, "Is it printing yet?")).status).toBe(201);
    expect((await bell(owner)).filter((n) => n.title === "New Message")).toHaveLength(5);
    // nor is the owner answering that customer
    expect((await write(owner, job.id, "Tonight.")).status).toBe(201);
  });

  test("one sender writing to many people with no paid order is capped too, owners included", async () => {
    lowerWrite("unsolicited", 2);
    const first = await endedOrders(1);
    const second = await endedOrders(1);
    const third = await endedOrders(1);
    const { customer, jobId } = first.parties[0]!;
    // the same customer's rejected orders at the two other printers
    const atSecond = await orderIn(customer.id, second.printer.id, "rejected", true);
    const atThird = await orderIn(customer.id, third.printer.id, "rejected", true);
    expect((await write(customer, jobId, "one")).status).toBe(201);
    expect((await write(customer, atSecond.id, "two")).status).toBe(201);
    const refused = await write(customer, atThird.id, "three");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^You have written many messages to people you have no paid order with in a short time\./,
    );
    expect(await bell(third.owner)).toEqual([]);

    // an owner writing to customers whose orders they rejected is counted the same way
    const { owner, parties } = await endedOrders(3);
    expect((await write(owner, parties[0]!.jobId, "Sorry, out of stock.")).status).toBe(201);
    expect((await write(owner, parties[1]!.jobId, "Sorry, out of stock.")).status).toBe(201);
    expect((await write(owner, parties[2]!.jobId, "Sorry, out of stock.")).status).toBe(429);
  });
});
