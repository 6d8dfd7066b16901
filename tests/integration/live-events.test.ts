import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { isAppError } from "~/domain/app-error";
import { sendJobMessage } from "~/services/conversations.server";
import { LiveHub, MAX_STREAMS_PER_USER, type LiveEvent } from "~/services/live-events.server";
import { notify } from "~/utils/notifications.server";
import { loader as events } from "~/routes/events";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, getRequest, run, sessionCookieFor } from "../setup/requests";

process.env.LIVE_POLL_MS = "50";

let customerId: number;
let ownerId: number;
let strangerId: number;
let jobId: number;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  customerId = (await createTestUser()).id;
  ownerId = (await createTestUser()).id;
  strangerId = (await createTestUser()).id;
  const printer = await createTestPrinter(ownerId);
  jobId = (await createTestJob(customerId, printer.id, "accepted")).id;
});

afterEach(() => {
  for (const off of cleanups.splice(0)) off();
});

async function listen(hub: LiveHub, userId: number) {
  const heard: LiveEvent[] = [];
  cleanups.push(await hub.subscribe(userId, (event) => heard.push(event)));
  return heard;
}

async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe("live events", () => {
  test("hubs learn of a new message from the database and tell both parties only", async () => {
    // two hubs stand for two server processes: neither is told about the write, both poll
    const machineA = new LiveHub();
    const machineB = new LiveHub();
    const ownerOnB = await listen(machineB, ownerId);
    const customerOnA = await listen(machineA, customerId);
    const strangerOnB = await listen(machineB, strangerId);
    const sent = await sendJobMessage({ jobId, senderId: customerId, content: "Hello from A" });
    expect(await until(() => ownerOnB.some((e) => e.kind === "message" && e.id === sent.id))).toBe(true);
    expect(await until(() => customerOnA.some((e) => e.kind === "message" && e.id === sent.id))).toBe(true);
    // the owner also gets the "New Message" notification
    expect(await until(() => ownerOnB.some((e) => e.kind === "notification"))).toBe(true);
    expect(strangerOnB).toEqual([]);
  });

  test("a notification reaches only its user", async () => {
    const hub = new LiveHub();
    const owner = await listen(hub, ownerId);
    const stranger = await listen(hub, strangerId);
    await notify(strangerId, "Order Accepted", "Your order was accepted.", "/dashboard");
    expect(await until(() => stranger.some((e) => e.kind === "notification"))).toBe(true);
    expect(owner.filter((e) => e.kind === "notification")).toEqual([]);
  });

  test("a user holds a bounded number of streams per process", async () => {
    const hub = new LiveHub();
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) await listen(hub, ownerId);
    const refused = await hub.subscribe(ownerId, () => {}).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    // closing one frees a place
    cleanups.pop()?.();
    await expect(listen(hub, ownerId)).resolves.toEqual([]);
  });

  test("/events needs a session and answers an event stream", async () => {
    expect((await run(() => events(args(getRequest("/events"))))).status).toBe(401);
    const controller = new AbortController();
    const cookie = await sessionCookieFor(customerId);
    const request = new Request("http://localhost:3000/events", { headers: { cookie }, signal: controller.signal });
    const response = await run(() => events(args(request)));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: ready");
    controller.abort();
  });
});
