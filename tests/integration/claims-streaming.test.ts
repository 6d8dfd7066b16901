// Claim bodies are bounded by what they may cost: the order is checked before a byte of the body is read, and
// photos stream to scratch files as they arrive, never whole in memory (decisions 016 and 030).
import { readFileSync, statSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { action as claimApi } from "../../app/routes/api.print-jobs.$id.claims";
import { action as claimPage } from "../../app/routes/order.$id_.claim";
import { ScratchBudget, scratchConfig } from "../../app/services/storage/scratch.server";
import { createOwnerWithPrinter, paidOrderAt, TO_PICKED_UP } from "../setup/orders";
import { args, createTestUser, run, sessionCookieFor } from "../setup/requests";
import { storedFiles } from "../fixtures/designs/helpers";
import { testUploadsDir } from "../setup/uploads";

const MIB = 1024 * 1024;
const BOUNDARY = "----claim-boundary";
const PNG = readFileSync("public/icons/icon-192.png");
/** the photos' padding, one buffer for all (the client's own bytes are not what is measured) */
const ZEROS = new Uint8Array(256 * 1024);
const uploads = testUploadsDir();
const incoming = () => storedFiles(uploads).filter((path) => path.includes(".incoming"));

let ownerId: number;
let printerId: number;
beforeAll(async () => {
  const { owner, printer } = await createOwnerWithPrinter();
  ownerId = owner.id;
  printerId = printer.id;
});

/** A picked-up order and its customer's session cookie. */
async function pickedUp(steps: readonly (typeof TO_PICKED_UP)[number][] = TO_PICKED_UP) {
  const jobId = await paidOrderAt({ id: ownerId }, printerId, "bracket.stl", steps);
  const { printJobs } = await import("../../db/schema");
  const { getDb } = await import("../../app/utils/db.server");
  const { eq } = await import("drizzle-orm");
  const [job] = await (await getDb()).select().from(printJobs).where(eq(printJobs.id, jobId));
  return { jobId, cookie: await sessionCookieFor(job!.customerId) };
}

/**
 * A claim post whose body is written by hand: the fields, then a photo of `photoBytes` (a real PNG, padded), then
 * held open until `finish` is called (true: the rest of the form, false: the connection breaks). `pulled` counts
 * the chunks the server has read.
 */
function claimPost(url: string, cookie: string, photoBytes: number) {
  const encoder = new TextEncoder();
  const part = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = encoder.encode(
    part("intent", "open") +
      part("reason", "arrived_broken") +
      part("description", "The bracket snapped in two.") +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="crack.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  let finish: (complete: boolean) => void = () => {};
  const finished = new Promise<boolean>((resolve) => (finish = resolve));
  const state = { pulled: 0, sent: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.pulled++;
        if (state.sent === 0) {
          controller.enqueue(head);
          controller.enqueue(new Uint8Array(PNG));
          state.sent = PNG.byteLength;
        } else if (state.sent < photoBytes) {
          const size = Math.min(256 * 1024, photoBytes - state.sent);
          controller.enqueue(ZEROS.subarray(0, size));
          state.sent += size;
        } else if (await finished) {
          controller.enqueue(encoder.encode(`\r\n--${BOUNDARY}--\r\n`));
          controller.close();
        } else {
          controller.error(new Error("connection reset"));
        }
      },
      // nothing is pulled until the server reads
    },
    { highWaterMark: 0 },
  );
  const request = new Request(new URL(url, "http://localhost:3000"), {
    method: "POST",
    body,
    headers: { cookie, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    duplex: "half",
  } as RequestInit);
  return { request, state, finish };
}

describe("the order is checked before a byte of the claim body is read", () => {
  it("refuses another user (404), the printer's owner (403) and a closed window (409) without reading the body", async () => {
    const order = await pickedUp();
    const stranger = await sessionCookieFor((await createTestUser())!.id);
    const owner = await sessionCookieFor(ownerId);
    const notYet = await pickedUp(["accept"]);
    const cases = [
      { jobId: order.jobId, cookie: stranger, status: 404 },
      { jobId: order.jobId, cookie: owner, status: 403 },
      { jobId: notYet.jobId, cookie: notYet.cookie, status: 409 },
    ];
    for (const { jobId, cookie, status } of cases) {
      const post = claimPost(`/api/print-jobs/${jobId}/claims`, cookie, 5 * MIB);
      const answer = await run(() => claimApi(args(post.request, { id: String(jobId) })));
      expect(answer.status).toBe(status);
      expect(post.state.pulled).toBe(0);
    }
    // the page's stranger answers 404 the same way
    const post = claimPost(`/order/${order.jobId}/claim`, stranger, 5 * MIB);
    const thrown = await run(() => claimPage(args(post.request, { id: String(order.jobId) }))).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(404);
    expect(post.state.pulled).toBe(0);
  });

  it("opens a claim from streamed photos and leaves no scratch file", async () => {
    const order = await pickedUp();
    const post = claimPost(`/api/print-jobs/${order.jobId}/claims`, order.cookie, PNG.byteLength);
    post.finish(true);
    const answer = await run(() => claimApi(args(post.request, { id: String(order.jobId) })));
    expect(answer.status).toBe(201);
    expect(incoming()).toEqual([]);
  });
});

describe("held claim bodies", () => {
  it("100 held claim bodies add at most 100 MB of memory: their photos are in scratch files as they arrive", async () => {
    // the budget is not what this measures: room for all of them
    const saved = globalThis.__printnearScratchBudget;
    globalThis.__printnearScratchBudget = new ScratchBudget({ ...scratchConfig(), budgetBytes: 8 * 1024 * MIB, minFreeBytes: 0 });
    const order = await pickedUp();
    const photo = 2 * MIB;
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakBuffers = before.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 10);
    const posts = Array.from({ length: 100 }, () => claimPost(`/order/${order.jobId}/claim`, order.cookie, photo));
    const answers = posts.map((post) => run(() => claimPage(args(post.request, { id: String(order.jobId) }))));
    try {
      // every body has sent its photo and is held open: the bytes are on disk, one scratch file each
      await expect.poll(() => posts.every((post) => post.state.sent >= photo), { timeout: 60_000 }).toBe(true);
      await expect
        .poll(() => incoming().reduce((sum, path) => sum + statSync(path).size, 0), { timeout: 60_000 })
        .toBe(100 * photo);
      const added = { rss: peakRss - before.rss, buffers: peakBuffers - before.arrayBuffers };
      console.log(
        `100 held claim bodies, ${(100 * photo) / MIB} MB of photos: RSS +${Math.round(added.rss / MIB)} MB, buffers +${Math.round(added.buffers / MIB)} MB`,
      );
      // held in memory, the photos alone would be 200 MB
      expect(added.rss).toBeLessThan(100 * MIB);
      expect(added.buffers).toBeLessThan(100 * MIB);
    } finally {
      clearInterval(sampler);
      // the connections break: every body is refused and its scratch file removed
      for (const post of posts) post.finish(false);
      const statuses = (await Promise.all(answers)).map((answer) => answer.status);
      expect(new Set(statuses)).toEqual(new Set([400]));
      globalThis.__printnearScratchBudget = saved;
    }
    expect(incoming()).toEqual([]);
  }, 120_000);
});
