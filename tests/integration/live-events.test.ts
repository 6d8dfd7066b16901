import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { isAppError } from "~/domain/app-error";
import { sendJobMessage } from "~/services/conversations.server";
import {
  LiveHub,
  liveHub,
  MAX_STREAMS_PER_ADDRESS,
  MAX_STREAMS_PER_MACHINE,
  MAX_STREAMS_PER_USER,
  STREAM_LEASE_MS,
  type LiveEvent,
} from "~/services/live-events.server";
import { getClient, libsqlBinding } from "~/utils/db.server";
import { CLIENT_IP_HEADER } from "~/utils/rate-limit.server";
import { notify } from "~/services/notifications.server";
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

async function listen(hub: LiveHub, userId: number, address = "198.51.100.1") {
  const heard: LiveEvent[] = [];
  cleanups.push(await hub.subscribe({ userId, address }, (event) => heard.push(event)));
  return heard;
}

async function until(check: () => boolean | Promise<boolean>, ms = 3000) {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

async function leaseEnds(userId: number): Promise<number[]> {
  const client = await getClient();
  const rows = await client.execute({ sql: "SELECT expires_at FROM live_streams WHERE user_id = ?", args: [userId] });
  return rows.rows.map((row) => Number(row.expires_at));
}

const userStreamRows = async (userId: number) => (await leaseEnds(userId)).length;

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
    const refused = await hub.subscribe({ userId: ownerId, address: "198.51.100.1" }, () => {}).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    // closing one frees a place
    cleanups.pop()?.();
    await expect(listen(hub, ownerId)).resolves.toEqual([]);
  });

  test("a user's streams count across processes: past the cap a stream is refused on every one", async () => {
    // two hubs stand for two server processes on one database
    const machineA = new LiveHub();
    const machineB = new LiveHub();
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) await listen(i % 2 === 0 ? machineA : machineB, strangerId);
    for (const hub of [machineA, machineB]) {
      const refused = await hub.subscribe({ userId: strangerId, address: "198.51.100.7" }, () => {}).catch((e: unknown) => e);
      expect(isAppError(refused) && refused.code).toBe("rate_limited");
    }
    // a stream closed on A frees a place on B
    cleanups.shift()!();
    expect(await until(async () => (await userStreamRows(strangerId)) < MAX_STREAMS_PER_USER)).toBe(true);
    await expect(listen(machineB, strangerId)).resolves.toEqual([]);
  });

  test("a stream opened while another process holds the write lock waits to take its lease: the cap still holds", async () => {
    const userId = (await createTestUser()).id;
    const machineA = new LiveHub();
    const machineB = new LiveHub();
    for (let i = 0; i < MAX_STREAMS_PER_USER - 1; i++) await listen(machineA, userId);
    // another process's write holds the lock while B opens two streams for the last place
    const otherProcess = new (libsqlBinding())(process.env.DATABASE_URL!.slice("file:".length), { timeout: 0 });
    otherProcess.exec("BEGIN IMMEDIATE");
    const opening = [0, 1].map(() => listen(machineB, userId));
    setTimeout(() => otherProcess.exec("COMMIT"), 300);
    const outcomes = await Promise.allSettled(opening);
    otherProcess.close();
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((outcome) => outcome.status === "rejected")?.reason as unknown;
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    expect(await userStreamRows(userId)).toBe(MAX_STREAMS_PER_USER);
    expect(machineA.streamCount(userId) + machineB.streamCount(userId)).toBe(MAX_STREAMS_PER_USER);
  });

  test("the streams of a process that died stop counting once their lease runs out; open ones are renewed", async () => {
    let clock = Date.now();
    const dying = new LiveHub(undefined, () => clock);
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) await listen(dying, customerId);
    // half a lease later the hub has renewed its streams: they still count past their first lease's end
    clock += STREAM_LEASE_MS / 2;
    expect(await until(async () => (await leaseEnds(customerId)).every((end) => end === clock + STREAM_LEASE_MS))).toBe(true);
    const later = new LiveHub(undefined, () => clock + STREAM_LEASE_MS * 0.7);
    const refused = await later.subscribe({ userId: customerId, address: "198.51.100.8" }, () => {}).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("rate_limited");
    // the process stops renewing (it died): after its lease, its streams no longer count
    const afterDeath = new LiveHub(undefined, () => clock + STREAM_LEASE_MS + 1);
    await expect(listen(afterDeath, customerId)).resolves.toEqual([]);
  });

  test("a lease just taken is not renewed on the next tick, only a third of a lease later", async () => {
    const start = Date.now();
    let clock = start;
    const hub = new LiveHub(undefined, () => clock);
    const userId = (await createTestUser()).id;
    const heard = await listen(hub, userId);
    clock += 1000;
    // the second notification is heard a tick after the first: by then the first tick has done its renewal, if any
    for (const count of [1, 2]) {
      await notify(userId, "Order Accepted", "Your order was accepted.", "/dashboard");
      expect(await until(() => heard.length >= count)).toBe(true);
    }
    expect(await leaseEnds(userId)).toEqual([start + STREAM_LEASE_MS]);
    clock = start + STREAM_LEASE_MS / 3;
    expect(await until(async () => (await leaseEnds(userId))[0] === clock + STREAM_LEASE_MS)).toBe(true);
  });

  test("one address and the whole process hold a bounded number of streams", async () => {
    const hub = new LiveHub({ perUser: 6, perAddress: 2, perMachine: 3 });
    await listen(hub, customerId, "203.0.113.1");
    await listen(hub, ownerId, "203.0.113.1");
    // a third account from the same address is refused; another address still gets through
    const sameAddress = await hub.subscribe({ userId: strangerId, address: "203.0.113.1" }, () => {}).catch((e: unknown) => e);
    expect(isAppError(sameAddress) && sameAddress.code).toBe("rate_limited");
    await listen(hub, strangerId, "203.0.113.2");
    // the process is full: a new address is refused as busy
    const full = await hub.subscribe({ userId: strangerId, address: "203.0.113.3" }, () => {}).catch((e: unknown) => e);
    expect(isAppError(full) && full.code).toBe("busy");
    expect(hub.openStreams()).toBe(3);
    // closing a stream frees its place in its address and in the process, once
    const first = cleanups.shift()!;
    first();
    first();
    expect([hub.openStreams(), hub.openStreams("203.0.113.1")]).toEqual([2, 1]);
    await expect(listen(hub, strangerId, "203.0.113.1")).resolves.toEqual([]);
  });

  test("one client's network holds only its share of the process's places, over every address it has", async () => {
    const hub = new LiveHub({ perUser: 6, perAddress: 2, perMachine: 8 });
    const accounts = [3_000_001, 3_000_002, 3_000_003, 3_000_004];
    // two addresses of one IPv6 /64 fill its share; a third address of it is refused, another /64 is not
    await listen(hub, accounts[0], "2001:db8:5:7::1");
    await listen(hub, accounts[1], "2001:db8:5:7:ffff:1:2:3");
    const sameNetwork = await hub
      .subscribe({ userId: accounts[2], address: "2001:0db8:0005:0007::9" }, () => {})
      .catch((e: unknown) => e);
    expect(isAppError(sameNetwork) && sameNetwork.code).toBe("rate_limited");
    await listen(hub, accounts[2], "2001:db8:5:8::1");
    // an IPv4 client seen through an IPv4-mapped IPv6 address is the same client
    await listen(hub, accounts[3], "203.0.113.50");
    await listen(hub, accounts[0], "::ffff:203.0.113.50");
    const mapped = await hub.subscribe({ userId: accounts[1], address: "203.0.113.50" }, () => {}).catch((e: unknown) => e);
    expect(isAppError(mapped) && mapped.code).toBe("rate_limited");
    expect([hub.openStreams("2001:db8:5:7::42"), hub.openStreams("::ffff:203.0.113.50"), hub.openStreams()]).toEqual([2, 2, 5]);
  });

  test("/events past the address's or the machine's cap answers 429 or 503 with Retry-After", async () => {
    const hub = liveHub();
    const cookie = await sessionCookieFor(customerId);
    const eventsFrom = (address: string) =>
      run(() => events(args(new Request("http://localhost:3000/events", { headers: { cookie, [CLIENT_IP_HEADER]: address } }))));
    // other accounts behind one address fill its cap
    for (let i = 0; i < MAX_STREAMS_PER_ADDRESS; i++) await listen(hub, 1_000_000 + i, "203.0.113.9");
    const fromFullAddress = await eventsFrom("203.0.113.9");
    expect(fromFullAddress.status).toBe(429);
    expect(fromFullAddress.headers.get("retry-after")).toBe("60");
    // accounts from many addresses fill the machine
    for (let i = hub.openStreams(); i < MAX_STREAMS_PER_MACHINE; i++) await listen(hub, 2_000_000 + i, `10.0.0.${i % 100}`);
    const whenFull = await eventsFrom("203.0.113.10");
    expect(whenFull.status).toBe(503);
    expect(whenFull.headers.get("retry-after")).toBe("60");
    expect(hub.openStreams()).toBe(MAX_STREAMS_PER_MACHINE);
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
