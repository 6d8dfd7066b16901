// notify() puts a notification in the bell and queues an e-mail for its kind; a real SMTP server
// started here reads what arrives. Message e-mails: one per conversation per 15 minutes.
import { eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { users } from "../../db/schema";
import "../../app/services/mail/mail-task.server";
import { runDueTasks } from "../../app/services/jobs/index.server";
import { sendJobMessage } from "~/services/conversations.server";
import { inferKind, listNotifications, notify } from "~/services/notifications.server";
import { WRITE_LIMITS } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { createTestUser } from "../setup/requests";
import { testSmtpServer } from "../setup/smtp";

const smtp = testSmtpServer();
const received = smtp.received;

beforeAll(async () => {
  WRITE_LIMITS.message.limit = 1000;
  process.env.PUBLIC_URL = "https://printnear.example";
  process.env.SMTP_URL = await smtp.start();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  await smtp.stop();
});

afterEach(() => {
  received.length = 0;
});

const deliver = () => runDueTasks({ types: ["mail.send"] });
const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

describe("notify and e-mail", () => {
  test("an order event lands in the bell and arrives by e-mail with text and HTML parts and both links", async () => {
    const customer = await createTestUser({ firstName: "Nora" });
    await notify(customer.id, "Order Shipped", "gear.stl is on its way. Tracking number 9400 1000 0000.", "/order/42");
    const [bell] = await listNotifications(customer.id, 1);
    expect(bell).toMatchObject({ title: "Order Shipped", link: "/order/42", isRead: false });
    expect(received).toHaveLength(0); // queued, not sent inside the caller's request
    await deliver();
    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(to(mail)).toBe(customer.email);
    expect(mail.subject).toBe("Order Shipped | Printnear");
    expect(mail.text).toContain("Hi Nora,");
    expect(mail.text).toContain("Tracking number 9400 1000 0000");
    expect(mail.text).toContain("https://printnear.example/order/42");
    expect(mail.text).toContain("https://printnear.example/profile#email-settings");
    expect(mail.html).toContain('href="https://printnear.example/order/42"');
    expect(mail.html).toContain('href="https://printnear.example/profile#email-settings"');
  });

  test("text typed by users is escaped in the HTML part", async () => {
    const user = await createTestUser({ firstName: "<b>Eve</b>" });
    await notify(user.id, "New Message", "<script>alert(1)</script>", "/messages?jobId=1");
    await deliver();
    expect(received[0].html).not.toContain("<script>");
    expect(received[0].html).toContain("&lt;script&gt;");
  });

  test("names with line breaks (stored before names were checked) stay on their line: the e-mail gets no lines of theirs", async () => {
    const customer = await createTestUser({ firstName: "Nora\r\n\r\nYour account is locked: sign in at https://evil.example" });
    const owner = await createTestUser({
      firstName: "Owen",
      lastName: "Smith\n\nPrintnear Support: reply to https://evil.example",
    });
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer.id, "accepted", "part.stl");
    await sendJobMessage({ jobId: job.id, senderId: owner.id, content: "hello" });
    await deliver();
    const lines = received[0].text!.split(/\r?\n/);
    expect(lines.filter((line) => line.includes("evil.example"))).toEqual([
      "Hi Nora Your account is locked: sign in at https://evil.example,",
      "Owen Smith Printnear Support: reply to https://evil.example wrote about part.stl.",
    ]);
  });

  test("a kind turned off on /profile still reaches the bell but sends no e-mail", async () => {
    const owner = await createTestUser();
    const db = await getDb();
    await db
      .update(users)
      .set({ emailOff: ["payout"] })
      .where(eq(users.id, owner.id));
    await notify(owner.id, "Payout Sent", "$12.40 is on its way to your bank.", "/printer-tracking");
    await notify(owner.id, "New Order Request", "A customer wants bracket.stl printed.", "/printer-dashboard");
    await deliver();
    expect(received.map((m) => m.subject)).toEqual(["New Order Request | Printnear"]);
    expect((await listNotifications(owner.id)).map((n) => n.title).sort()).toEqual(["New Order Request", "Payout Sent"]);
  });

  test("message e-mails: at most one per conversation per 15 minutes, every message in the bell", async () => {
    const customer = await createTestUser();
    const owner = await createTestUser({ firstName: "Owen" });
    const printer = await createTestPrinter(owner.id);
    const first = await createTestJob(customer.id, printer.id, "accepted", "first.stl");
    const second = await createTestJob(customer.id, printer.id, "accepted", "second.stl");
    for (const text of ["one", "two", "three"]) await sendJobMessage({ jobId: first.id, senderId: customer.id, content: text });
    await sendJobMessage({ jobId: second.id, senderId: customer.id, content: "other job" });
    await deliver();
    expect(received.map(to)).toEqual([owner.email, owner.email]);
    expect(received.map((m) => m.text).some((t) => t?.includes(`/messages?jobId=${first.id}`))).toBe(true);
    expect(received.map((m) => m.text).some((t) => t?.includes(`/messages?jobId=${second.id}`))).toBe(true);
    // the e-mail never carries the message itself, only that there is one
    expect(received.map((m) => m.text).join("\n")).not.toContain("three");
    expect((await listNotifications(owner.id)).filter((n) => n.title === "New Message")).toHaveLength(4);
  });

  test("the kind comes from the caller, or from the link and title", () => {
    expect(inferKind("New Message", "/messages?jobId=3")).toBe("message");
    expect(inferKind("Payout Sent", "/printer-tracking")).toBe("payout");
    expect(inferKind("New Order Request", "/printer-dashboard")).toBe("order_request");
    expect(inferKind("Order Accepted", "/order/3")).toBe("order_update");
  });
});

describe("/notifications page", () => {
  test("lists the user's own notifications, newest first; mark all as read clears the count", async () => {
    const { loader, action } = await import("~/routes/notifications");
    const { args, getRequest, formRequest, run, sessionCookieFor } = await import("../setup/requests");
    const user = await createTestUser();
    const other = await createTestUser();
    await notify(user.id, "Order Accepted", "Your order was accepted.", "/order/1");
    await notify(user.id, "Order Printing", "Your order is printing.", "/order/1");
    await notify(other.id, "Someone else's", "Not for you.");
    const cookie = await sessionCookieFor(user.id);
    const page = (await (await run(() => loader(args(getRequest("/notifications", cookie))))).json()) as {
      unread: number;
      notifications: Array<{ title: string }>;
    };
    expect(page.unread).toBe(2);
    expect(page.notifications.map((n) => n.title)).toEqual(["Order Printing", "Order Accepted"]);
    const marked = await run(() => action(args(formRequest("/notifications", { intent: "mark-all-read" }, { cookie }))));
    expect(marked.status).toBe(302);
    const after = (await (await run(() => loader(args(getRequest("/notifications", cookie))))).json()) as { unread: number };
    expect(after.unread).toBe(0);
  });
});
