// Every order event and every new message tells the right party: a bell notification of the
// right kind and a queued e-mail to that party alone; a kind turned off sends no e-mail.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { notifications, payments, users } from "../../db/schema";
import type { NotificationKind } from "../../app/domain/notification-kinds";
import type { JobAction } from "../../app/domain/job-lifecycle";
import type { JobStatus } from "../../app/domain/job-status";
import type { DeliveryMethod } from "../../app/domain/pricing";
import { listJobMessages, sendJobMessage } from "../../app/services/conversations.server";
import { requestPayout } from "../../app/services/orders/payouts.server";
import { transitionJob } from "../../app/services/orders/transitions.server";
import { WRITE_LIMITS } from "../../app/services/write-limits.server";
import { getClient, getDb } from "../../app/utils/db.server";
import { createDraft, createOwnerWithPrinter } from "../setup/orders";
import { createTestUser } from "../setup/requests";

beforeAll(() => {
  WRITE_LIMITS.jobStatus.limit = 10_000;
  WRITE_LIMITS.payment.limit = 10_000;
  WRITE_LIMITS.message.limit = 10_000;
});

type Party = "customer" | "owner";
interface Row {
  event: string;
  from: JobStatus;
  delivery?: DeliveryMethod;
  /** a transition by this party, or the owner's payout, or a message sent by the customer */
  run: { action: JobAction; by: Party; trackingNumber?: string } | "payout" | "message";
  to: Party;
  title: string;
  kind: NotificationKind;
  /** words the notice (bell and e-mail) must carry */
  says?: string[];
  /** the other party's mail: a receipt is not a notification (decision 037) */
  otherMail?: (jobId: number) => string[];
}

const EVENTS: Row[] = [
  {
    event: "new request",
    from: "submitted",
    run: { action: "pay", by: "customer" },
    to: "owner",
    title: "New Order Request",
    kind: "order_request",
    otherMail: (jobId) => [`Your Printnear Receipt: order #${jobId}`],
  },
  {
    event: "accepted",
    from: "confirmed",
    run: { action: "accept", by: "owner" },
    to: "customer",
    title: "Order Accepted",
    kind: "order_update",
  },
  {
    event: "rejected",
    from: "confirmed",
    run: { action: "reject", by: "owner" },
    to: "customer",
    title: "Order Rejected",
    kind: "order_update",
  },
  {
    event: "printing",
    from: "accepted",
    run: { action: "start_printing", by: "owner" },
    to: "customer",
    title: "Printing Started",
    kind: "order_update",
  },
  {
    event: "completed",
    from: "printing",
    run: { action: "complete", by: "owner" },
    to: "customer",
    title: "Print Complete",
    kind: "order_update",
  },
  {
    event: "ready",
    from: "completed",
    run: { action: "ready_for_pickup", by: "owner" },
    to: "customer",
    title: "Ready for Pickup",
    kind: "order_update",
  },
  {
    event: "picked up",
    from: "ready_for_pickup",
    run: { action: "mark_picked_up", by: "owner" },
    to: "customer",
    title: "Order Picked Up",
    kind: "order_update",
    says: ["rate this printer"],
  },
  {
    event: "shipped with tracking",
    from: "ready_for_shipping",
    delivery: "shipping",
    run: { action: "mark_shipped", by: "owner", trackingNumber: "9400 1118 9922 3344" },
    to: "customer",
    title: "Order Shipped",
    kind: "order_update",
    says: ["Tracking number: 9400 1118 9922 3344", "rate this printer"],
  },
  {
    event: "cancelled by the customer",
    from: "confirmed",
    run: { action: "cancel", by: "customer" },
    to: "owner",
    title: "Order Cancelled",
    kind: "order_request",
  },
  {
    event: "cancelled by the printer",
    from: "accepted",
    run: { action: "cancel", by: "owner" },
    to: "customer",
    title: "Order Cancelled",
    kind: "order_update",
  },
  { event: "payout", from: "picked_up", run: "payout", to: "owner", title: "Payout Sent", kind: "payout", says: ["$4.80"] },
  { event: "new message", from: "accepted", run: "message", to: "owner", title: "New Message", kind: "message" },
];

async function jobIn(status: JobStatus, delivery: DeliveryMethod = "pickup") {
  const { owner, printer } = await createOwnerWithPrinter();
  const customer = (await createTestUser())!;
  const job = await createDraft(customer.id, {
    printerId: printer.id,
    status,
    filamentColor: "Red",
    deliveryMethod: delivery,
    printerProfitCents: 480,
    submittedAt: new Date(),
  });
  return { owner, customer, jobId: job.id };
}

async function bellOf(userId: number) {
  const db = await getDb();
  return db.select().from(notifications).where(eq(notifications.userId, userId));
}

/** The queued mail.send tasks addressed to this e-mail address. */
async function queuedMailTo(email: string) {
  const client = await getClient();
  const { rows } = await client.execute({
    sql: "SELECT payload FROM background_tasks WHERE kind = 'mail.send' AND status = 'queued'",
    args: [],
  });
  return rows
    .map((r) => JSON.parse(String(r.payload)) as { to: string; subject: string; text: string })
    .filter((m) => m.to === email);
}

async function runEvent(row: Row, parties: { owner: { id: number }; customer: { id: number }; jobId: number }) {
  const { owner, customer, jobId } = parties;
  if (row.run === "payout") {
    const db = await getDb();
    await db
      .update(users)
      .set({ stripeAccountId: `acct_test_${owner.id}` })
      .where(eq(users.id, owner.id));
    // an owner is paid only for an order whose customer was charged
    await db
      .insert(payments)
      .values({ jobId, provider: "test", providerPaymentId: `test_pi_paid_${jobId}`, amountCents: 580, status: "captured" });
    await requestPayout(owner, jobId);
  } else if (row.run === "message") {
    await sendJobMessage({ jobId, senderId: customer.id, content: "Can you print it in red?" });
  } else {
    const by = row.run.by === "owner" ? owner : customer;
    await transitionJob({ jobId, by: { userId: by.id }, action: row.run.action, trackingNumber: row.run.trackingNumber });
  }
}

describe("every order event and new message notifies the right party", () => {
  test.each(EVENTS)("$event → $to: bell and a queued $kind e-mail", async (row) => {
    const parties = await jobIn(row.from, row.delivery);
    await runEvent(row, parties);
    const recipient = row.to === "owner" ? parties.owner : parties.customer;
    const other = row.to === "owner" ? parties.customer : parties.owner;

    const bell = await bellOf(recipient.id);
    expect(bell.map((n) => [n.title, n.kind])).toEqual([[row.title, row.kind]]);
    expect(await bellOf(other.id)).toEqual([]);

    const mail = await queuedMailTo(recipient.email);
    expect(mail.map((m) => m.subject)).toEqual([`${row.title} | Printnear`]);
    expect((await queuedMailTo(other.email)).map((m) => m.subject)).toEqual(row.otherMail?.(parties.jobId) ?? []);
    for (const words of row.says ?? []) {
      expect(bell[0]!.message.toLowerCase()).toContain(words.toLowerCase());
      expect(mail[0]!.text.toLowerCase()).toContain(words.toLowerCase());
    }
  });
});

describe("e-mail settings per kind", () => {
  test("an owner who turned off order requests gets no e-mail when a customer cancels, only the bell", async () => {
    const { owner, customer, jobId } = await jobIn("confirmed");
    const db = await getDb();
    await db
      .update(users)
      .set({ emailOff: ["order_request"] })
      .where(eq(users.id, owner.id));
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect((await bellOf(owner.id)).map((n) => n.title)).toEqual(["Order Cancelled"]);
    expect(await queuedMailTo(owner.email)).toEqual([]);
  });

  test("turning off order updates leaves an owner's cancellation e-mail on", async () => {
    const { owner, customer, jobId } = await jobIn("confirmed");
    const db = await getDb();
    await db
      .update(users)
      .set({ emailOff: ["order_update"] })
      .where(eq(users.id, owner.id));
    await transitionJob({ jobId, by: { userId: customer.id }, action: "cancel" });
    expect((await queuedMailTo(owner.email)).map((m) => m.subject)).toEqual(["Order Cancelled | Printnear"]);
  });
});

describe("message e-mails", () => {
  test("one e-mail per conversation per window, and a new one once the reader has caught up", async () => {
    const { owner, customer, jobId } = await jobIn("accepted");
    await sendJobMessage({ jobId, senderId: customer.id, content: "First question" });
    await sendJobMessage({ jobId, senderId: customer.id, content: "Second question" });
    // the window is open: the second message rang the bell but sent no second e-mail
    expect(await queuedMailTo(owner.email)).toHaveLength(1);
    expect(await bellOf(owner.id)).toHaveLength(2);

    // the owner reads the thread; what the customer writes afterwards is news again
    await listJobMessages(jobId, owner.id, { markRead: true });
    await sendJobMessage({ jobId, senderId: customer.id, content: "Third question" });
    expect(await queuedMailTo(owner.email)).toHaveLength(2);
    // the customer opening the thread is no news for the owner: the owner's window stays open
    await listJobMessages(jobId, customer.id, { markRead: true });
    await sendJobMessage({ jobId, senderId: customer.id, content: "Fourth" });
    expect(await queuedMailTo(owner.email)).toHaveLength(2);
  });
});
