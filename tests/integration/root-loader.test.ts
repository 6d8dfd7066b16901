// The root loader gives every signed-in page the user with the bell's five newest notifications and both
// badges' counts, read in two statements side by side (it runs on every request of a signed-in visitor).
import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { messages, printJobs, sessions } from "../../db/schema";
import { loader as rootLoader } from "../../app/root";
import {
  countUnreadMessages,
  countUnreadNotifications,
  listNotifications,
  notify,
  readHeader,
} from "../../app/services/notifications.server";
import { getDb, preparedQuery } from "../../app/utils/db.server";
import { withRequestScope } from "../../app/utils/request-scope.server";
import { getSessionUser } from "../../app/utils/session.server";
import { createTestJob, createTestPrinter } from "../setup/jobs";

/** Both badges' counts as the header's one statement gives them. */
async function countUnreadForHeader(userId: number) {
  const header = await readHeader(userId, 5);
  return { notifications: header.unreadNotifications, messages: header.unreadMessages };
}
import { args, createTestUser, getRequest, sessionCookieFor } from "../setup/requests";

async function rootData(cookie?: string) {
  const answer = (await rootLoader(args(getRequest("/", cookie)))) as unknown as { data: Record<string, unknown> };
  return answer.data as {
    user: null | { id: number; notifications: unknown[]; unreadNotifications: number; unreadMessages: number };
  };
}

describe("root loader", () => {
  it("counts each unread message once: the customer's, and the owner's only once the job was paid", async () => {
    const owner = await createTestUser();
    const customer = await createTestUser();
    const other = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const db = await getDb();
    const job = async (customerId: number, status: Parameters<typeof createTestJob>[2], confirmed: boolean) => {
      const row = (await createTestJob(customerId, printer!.id, status))!;
      if (confirmed) await db.update(printJobs).set({ confirmedAt: new Date() }).where(eq(printJobs.id, row.id));
      return row.id;
    };
    const paid = await job(customer.id, "accepted", true);
    const unpaid = await job(customer.id, "submitted", false);
    const droppedBeforePaying = await job(customer.id, "cancelled", false);
    const refusedAfterPaying = await job(customer.id, "rejected", true);
    // the owner's own order at their printer: one conversation seen from both sides, counted once
    const ownOrder = await job(owner.id, "printing", true);
    const unread = (jobId: number, senderId: number, senderType: "customer" | "printer") =>
      ({ jobId, senderId, senderType, content: "Any news?" }) as const;
    await db
      .insert(messages)
      .values([
        unread(paid, customer.id, "customer"),
        unread(unpaid, customer.id, "customer"),
        unread(droppedBeforePaying, customer.id, "customer"),
        unread(refusedAfterPaying, customer.id, "customer"),
        unread(ownOrder, other.id, "printer"),
        unread(paid, owner.id, "printer"),
        unread(unpaid, owner.id, "printer"),
      ]);
    expect(await countUnreadForHeader(owner.id)).toEqual({ notifications: 0, messages: 3 });
    expect(await countUnreadMessages(owner.id)).toBe(3);
    expect(await countUnreadForHeader(customer.id)).toEqual({ notifications: 0, messages: 2 });
    expect(await countUnreadMessages(other.id)).toBe(0);
  });

  it("counts both badges in one statement, as the two separate counts do", async () => {
    const customer = await createTestUser();
    const owner = await createTestUser();
    const printer = await createTestPrinter(owner.id);
    const job = await createTestJob(customer.id, printer!.id, "accepted");
    for (let i = 0; i < 7; i++) await notify(customer.id, `Update ${i}`, "Your order moved.", `/order/${job!.id}`);
    const db = await getDb();
    await db.insert(messages).values([
      { jobId: job!.id, senderId: owner.id, senderType: "printer", content: "Started" },
      { jobId: job!.id, senderId: owner.id, senderType: "printer", content: "Half way" },
      { jobId: job!.id, senderId: owner.id, senderType: "printer", content: "Seen", readAt: new Date() },
      { jobId: job!.id, senderId: customer.id, senderType: "customer", content: "Thanks" },
    ]);

    for (const user of [customer, owner]) {
      const both = await countUnreadForHeader(user.id);
      expect(both).toEqual({
        notifications: await countUnreadNotifications(user.id),
        messages: await countUnreadMessages(user.id),
      });
    }
    expect(await countUnreadForHeader(customer.id)).toEqual({ notifications: 7, messages: 2 });
    expect(await countUnreadForHeader(owner.id)).toEqual({ notifications: 0, messages: 1 });
    // and the bell's newest, as the list of notifications gives them, newest first
    const bell = (await readHeader(customer.id, 5)).notifications;
    expect(bell).toEqual(await listNotifications(customer.id, 5));
    expect(bell).toHaveLength(5);
    expect((await readHeader(owner.id, 5)).notifications).toEqual([]);

    const data = await rootData(await sessionCookieFor(customer.id));
    expect(data.user).toMatchObject({ id: customer.id, unreadNotifications: 7, unreadMessages: 2 });
    expect(data.user!.notifications).toHaveLength(5);
    expect((await rootData()).user).toBeNull();
  });
});

describe("the session's user", () => {
  it("is looked up once per read-only request, though every loader gets its own copy of the Request", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    // Remix hands the root loader and the page loader different Request objects with the same headers
    const copies = () => [getRequest("/models", cookie), getRequest("/models", cookie)] as const;
    const db = await getDb();

    const [rootCopy, pageCopy] = copies();
    const seen = await withRequestScope(async () => {
      const first = await getSessionUser(rootCopy);
      // a second lookup would find no session now: the page loader must get the request's memo
      await db.delete(sessions).where(eq(sessions.userId, user.id));
      return [first?.id, (await getSessionUser(pageCopy))?.id];
    });
    expect(seen).toEqual([user.id, user.id]);

    // without a scope (writes, other requests) the lookup is made again and sees the session gone
    const [, later] = copies();
    expect(await getSessionUser(later)).toBeNull();
  });
});

describe("the queries every signed-in page runs", () => {
  it("are built once per database and answered with each call's values", async () => {
    const build = vi.fn((db: Awaited<ReturnType<typeof getDb>>) => db.select().from(sessions).prepare());
    const query = preparedQuery(build);
    const db = await getDb();
    expect(query(db)).toBe(query(db));
    expect(build).toHaveBeenCalledTimes(1);
  });

  it("find a session's user only while the session lasts, and each user's own bell", async () => {
    const [first, second] = [await createTestUser(), await createTestUser()];
    const cookie = await sessionCookieFor(first.id);
    await notify(second.id, "For the second", "Only theirs.", "/dashboard");
    expect((await getSessionUser(getRequest("/", cookie)))?.id).toBe(first.id);
    expect((await rootData(cookie)).user!.notifications).toEqual([]);
    expect((await rootData(await sessionCookieFor(second.id))).user!.notifications).toHaveLength(1);

    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, first.id));
    expect(await getSessionUser(getRequest("/", cookie))).toBeNull();
  });
});

describe("the session cookie's signature", () => {
  it("is checked once per signed value: a changed byte is checked again and refused, a gone session stays gone", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const hmac = vi.spyOn(crypto, "createHmac");
    expect((await getSessionUser(getRequest("/", cookie)))?.id).toBe(user.id);
    const checks = hmac.mock.calls.length;
    expect(checks).toBeGreaterThan(0);
    expect((await getSessionUser(getRequest("/models", cookie)))?.id).toBe(user.id);
    expect(hmac.mock.calls.length).toBe(checks);

    // the value is "pn_session=<id, encoded>.<signature>": one character of each part changed
    const [name, value] = cookie.split("=", 2) as [string, string];
    const dot = value.lastIndexOf(".");
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    for (const forged of [flip(value, value.length - 2), flip(value, 2), value.slice(0, dot)]) {
      expect(await getSessionUser(getRequest("/", `${name}=${forged}`)), forged).toBeNull();
    }
    expect(hmac.mock.calls.length).toBeGreaterThanOrEqual(checks + 3);
    hmac.mockRestore();

    // a valid value beside a forged one is remembered under the valid one's text, never the forged one's:
    // the value read is the one the cookie parser picks, as Remix reads it (the first; spaces around names trimmed)
    for (const [header, forged] of [
      [`${name} =${value}; ${name}=forged-1`, "forged-1"],
      [`\v${name}=forged-2; ${name}=${value}`, "forged-2"],
    ]) {
      expect((await getSessionUser(getRequest("/", header)))?.id, header).toBe(user.id);
      expect(await getSessionUser(getRequest("/", `${name}=${forged}`)), forged).toBeNull();
    }

    const db = await getDb();
    await db.delete(sessions).where(eq(sessions.userId, user.id));
    expect(await getSessionUser(getRequest("/", cookie))).toBeNull();
  });
});
