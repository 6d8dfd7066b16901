import { beforeAll, describe, expect, test } from "vitest";
import { isAppError } from "~/domain/app-error";
import { MESSAGE_MAX_LENGTH } from "~/domain/messages";
import { getJobConversation, listConversations, listJobMessages, sendJobMessage } from "~/services/conversations.server";
import { WRITE_LIMITS } from "~/services/write-limits.server";
import { countUnreadMessages, listNotifications } from "~/services/notifications.server";
import { loader as messagesApi, action as messagesApiPost } from "~/routes/api.print-jobs.$id.messages";
import { action as messageApiPost } from "~/routes/api.print-jobs.message";
import { loader as conversationsApi } from "~/routes/api.users.$id.conversations";
import { action as messagesPageAction, loader as messagesPage } from "~/routes/messages";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

let customer: { id: number; cookie: string };
let owner: { id: number; cookie: string };
let stranger: { id: number; cookie: string };
let jobId: number;
let printerId: number;

async function person(firstName: string) {
  const user = await createTestUser({ firstName, lastName: "Tester" });
  return { id: user.id, cookie: await sessionCookieFor(user.id) };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isAppError(error)).toBe(true);
  return isAppError(error) ? error : null;
}

beforeAll(async () => {
  WRITE_LIMITS.message.limit = 1000;
  customer = await person("Casey");
  owner = await person("Olive");
  stranger = await person("Sam");
  printerId = (await createTestPrinter(owner.id, { name: "Olive's MK4" })).id;
  jobId = (await createTestJob(customer.id, printerId, "confirmed", "gear.stl")).id;
});

describe("conversation rules", () => {
  test("only the job's customer and its printer's owner are parties", async () => {
    expect((await getJobConversation(jobId, customer.id))?.role).toBe("customer");
    expect((await getJobConversation(jobId, owner.id))?.role).toBe("printer");
    expect(await getJobConversation(jobId, stranger.id)).toBeNull();
    expect(await listJobMessages(jobId, stranger.id)).toBeNull();
    const refused = await failure(sendJobMessage({ jobId, senderId: stranger.id, content: "hi" }));
    expect(refused?.code).toBe("not_found");
  });

  test("a draft or a job without a printer has no conversation", async () => {
    const draft = await createTestJob(customer.id, printerId, "draft");
    const loose = await createTestJob(customer.id, null, "confirmed");
    expect(await getJobConversation(draft.id, customer.id)).toBeNull();
    expect(await getJobConversation(draft.id, owner.id)).toBeNull();
    expect(await getJobConversation(loose.id, customer.id)).toBeNull();
  });

  test("text is trimmed; blank, whitespace-only and over-long text is refused", async () => {
    const sent = await sendJobMessage({ jobId, senderId: customer.id, content: "  Can you print it in red?\n " });
    expect(sent.content).toBe("Can you print it in red?");
    expect(sent.senderType).toBe("customer");
    for (const content of ["", "   \n\t ", undefined, 42]) {
      expect((await failure(sendJobMessage({ jobId, senderId: customer.id, content })))?.code).toBe("invalid");
    }
    const long = "x".repeat(MESSAGE_MAX_LENGTH + 1);
    expect((await failure(sendJobMessage({ jobId, senderId: customer.id, content: long })))?.code).toBe("invalid");
    const exact = await sendJobMessage({ jobId, senderId: customer.id, content: "y".repeat(MESSAGE_MAX_LENGTH) });
    expect(exact.content).toHaveLength(MESSAGE_MAX_LENGTH);
  });

  test("unread counts move with messages and opening a thread marks them read", async () => {
    const job = await createTestJob(customer.id, printerId, "accepted", "hinge.stl");
    const before = await countUnreadMessages(owner.id);
    await sendJobMessage({ jobId: job.id, senderId: customer.id, content: "first" });
    await sendJobMessage({ jobId: job.id, senderId: customer.id, content: "second" });
    expect(await countUnreadMessages(owner.id)).toBe(before + 2);
    // the sender's own messages never count as unread for them
    const conversations = await listConversations(owner.id);
    const hinge = conversations.find((c) => c.jobId === job.id);
    expect(hinge).toMatchObject({ jobFileName: "hinge.stl", otherUserName: "Casey Tester", printerName: "Olive's MK4" });
    expect(hinge?.unreadCount).toBe(2);
    expect(hinge?.lastMessage).toBe("second");
    expect((await listConversations(customer.id)).find((c) => c.jobId === job.id)?.unreadCount).toBe(0);

    const thread = await listJobMessages(job.id, owner.id, { markRead: true });
    expect(thread?.map((m) => m.content)).toEqual(["first", "second"]);
    expect(await countUnreadMessages(owner.id)).toBe(before);
    expect((await listConversations(owner.id)).find((c) => c.jobId === job.id)?.unreadCount).toBe(0);

    // the owner's answer is unread for the customer, and it is a printer-side message
    const answer = await sendJobMessage({ jobId: job.id, senderId: owner.id, content: "Sure" });
    expect(answer.senderType).toBe("printer");
    expect((await listConversations(customer.id)).find((c) => c.jobId === job.id)).toMatchObject({
      unreadCount: 1,
      otherUserName: "Olive Tester",
      lastMessage: "Sure",
    });
  });

  test("a new message notifies the other party with a link to the thread", async () => {
    const job = await createTestJob(customer.id, printerId, "printing", "knob.stl");
    await sendJobMessage({ jobId: job.id, senderId: owner.id, content: "Started printing" });
    const [latest] = await listNotifications(customer.id, 1);
    expect(latest).toMatchObject({ title: "New Message", link: `/messages?jobId=${job.id}` });
  });

  test("sending is rate-limited per user", async () => {
    const limit = WRITE_LIMITS.message.limit;
    WRITE_LIMITS.message.limit = 0;
    try {
      expect((await failure(sendJobMessage({ jobId, senderId: owner.id, content: "hello" })))?.code).toBe("rate_limited");
    } finally {
      WRITE_LIMITS.message.limit = limit;
    }
  });
});

describe("messages API", () => {
  test("GET lists a job's messages to its parties only (401 visitor, 404 stranger)", async () => {
    const url = `/api/print-jobs/${jobId}/messages`;
    expect((await run(() => messagesApi(args(getRequest(url), { id: String(jobId) })))).status).toBe(401);
    expect((await run(() => messagesApi(args(getRequest(url, stranger.cookie), { id: String(jobId) })))).status).toBe(404);
    const ok = await run(() => messagesApi(args(getRequest(url, owner.cookie), { id: String(jobId) })));
    expect(ok.status).toBe(200);
    const list = (await ok.json()) as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({
      senderType: "customer",
      message: "Can you print it in red?",
      content: "Can you print it in red?",
    });
    expect(list[0]).toHaveProperty("sender.firstName", "Casey");
    expect(list[0]).toHaveProperty("sentAt");
  });

  test("POST /api/print-jobs/{id}/messages and /api/print-jobs/message send; blank is 400, strangers 404", async () => {
    const id = String(jobId);
    const sent = await run(() =>
      messagesApiPost(args(jsonRequest(`/api/print-jobs/${id}/messages`, { message: " ok " }, { cookie: owner.cookie }), { id })),
    );
    expect(sent.status).toBe(201);
    expect(await sent.json()).toMatchObject({ content: "ok", senderId: owner.id, senderType: "printer" });
    const blank = await run(() =>
      messagesApiPost(args(jsonRequest(`/api/print-jobs/${id}/messages`, { message: "  " }, { cookie: owner.cookie }), { id })),
    );
    expect(blank.status).toBe(400);
    const other = await run(() =>
      messageApiPost(args(jsonRequest(`/api/print-jobs/message`, { jobId, message: "hi" }, { cookie: stranger.cookie }))),
    );
    expect(other.status).toBe(404);
    const viaBody = await run(() =>
      messageApiPost(args(jsonRequest(`/api/print-jobs/message`, { jobId, message: "thanks" }, { cookie: customer.cookie }))),
    );
    expect(viaBody.status).toBe(201);
    expect(await viaBody.json()).toMatchObject({ content: "thanks", senderType: "customer" });
  });

  test("GET /api/users/{id}/conversations answers one's own list with the documented fields", async () => {
    const own = await run(() =>
      conversationsApi(args(getRequest(`/api/users/${customer.id}/conversations`, customer.cookie), { id: String(customer.id) })),
    );
    expect(own.status).toBe(200);
    const list = (await own.json()) as Array<Record<string, unknown>>;
    expect(Object.keys(list[0]).sort()).toEqual(
      ["jobFileName", "jobId", "lastMessage", "lastMessageAt", "otherUserName", "printerName", "unreadCount"].sort(),
    );
    const others = await run(() =>
      conversationsApi(args(getRequest(`/api/users/${customer.id}/conversations`, owner.cookie), { id: String(customer.id) })),
    );
    expect(others.status).toBe(403);
  });
});

describe("/messages page", () => {
  test("visitors go to sign-in; strangers and bad ids get 404", async () => {
    const visitor = await run(() => messagesPage(args(getRequest(`/messages?jobId=${jobId}`))));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/auth/);
    expect((await run(() => messagesPage(args(getRequest(`/messages?jobId=${jobId}`, stranger.cookie))))).status).toBe(404);
    expect((await run(() => messagesPage(args(getRequest(`/messages?jobId=abc`, customer.cookie))))).status).toBe(404);
    const post = await run(() =>
      messagesPageAction(
        args(
          formRequest(
            `/messages?jobId=${jobId}`,
            { intent: "send-message", jobId: String(jobId), message: "hi" },
            { cookie: stranger.cookie },
          ),
        ),
      ),
    );
    expect(post.status).toBe(404);
  });

  test("opening a thread lists conversations, shows the messages and marks them read", async () => {
    const job = await createTestJob(customer.id, printerId, "accepted", "lamp.stl");
    // an empty conversation still opens from ?jobId=
    const empty = (await (await run(() => messagesPage(args(getRequest(`/messages?jobId=${job.id}`, owner.cookie))))).json()) as {
      conversations: Array<{ jobId: number }>;
      open: { messages: unknown[] };
    };
    expect(empty.open.messages).toEqual([]);
    expect(empty.conversations[0].jobId).toBe(job.id);

    await sendJobMessage({ jobId: job.id, senderId: customer.id, content: "Is it ready?" });
    const before = await countUnreadMessages(owner.id);
    const page = await run(() => messagesPage(args(getRequest(`/messages?jobId=${job.id}`, owner.cookie))));
    const body = (await page.json()) as {
      conversations: Array<{ jobId: number; unreadCount: number }>;
      open: { jobFileName: string; otherUserName: string; messages: Array<{ content: string }> };
    };
    expect(body.open).toMatchObject({ jobFileName: "lamp.stl", otherUserName: "Casey Tester" });
    expect(body.open.messages.map((m) => m.content)).toEqual(["Is it ready?"]);
    expect(body.conversations.find((c) => c.jobId === job.id)?.unreadCount).toBe(0);
    expect(await countUnreadMessages(owner.id)).toBe(before - 1);
  });

  test("the send box posts: Message Sent and back to the thread; blank text keeps the page with Failed to Send Message", async () => {
    const sent = await run(() =>
      messagesPageAction(
        args(
          formRequest(
            `/messages?jobId=${jobId}`,
            { intent: "send-message", jobId: String(jobId), message: " On my way " },
            { cookie: owner.cookie },
          ),
        ),
      ),
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/messages?jobId=${jobId}`);
    expect(sent.headers.get("set-cookie")).toContain("pn_toast");
    const thread = await listJobMessages(jobId, owner.id);
    expect(thread?.at(-1)?.content).toBe("On my way");

    const blank = await run(() =>
      messagesPageAction(
        args(
          formRequest(
            `/messages?jobId=${jobId}`,
            { intent: "send-message", jobId: String(jobId), message: "   " },
            { cookie: owner.cookie },
          ),
        ),
      ),
    );
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({
      result: { error: { message: ["Write a message before sending."] }, initialValue: { message: "   " } },
    });
  });
});
