// A bucket that is down, silent or stalling (a small server on loopback, tests/setup/bucket.ts): every request
// gives up within the storage's limits as AppError "unavailable", the routes answer 503 with Retry-After, an
// upload leaves no draft behind, and a download whose body stalls is cut. The limits are short here; the
// default ones are held to the 10 s answer by the same sum the short ones are measured against.
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { printJobs } from "../../db/schema";
import { isAppError, type AppError } from "../../app/domain/app-error";
import { action as uploadAction } from "../../app/routes/upload/route";
import { loader as fileLoader } from "../../app/routes/drafts.$id.file";
import { BUCKET_LIMITS, createBucketStorage, STORAGE_UNAVAILABLE } from "../../app/services/storage/bucket.server";
import { worstAnswerMs, type SilenceLimits } from "../../app/utils/limited-fetch.server";
import { getDb } from "../../app/utils/db.server";
import { startFaultyBucket, STALLED_BYTES, type BucketFault, type FaultyBucket } from "../setup/bucket";
import { createTestJob } from "../setup/jobs";
import { args, createTestUser, getRequest, run, sessionCookieFor } from "../setup/requests";
import { fileOf, multipartRequest } from "../fixtures/designs/helpers";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const SHORT: SilenceLimits = { answerMs: 300, stallMs: 400, attempts: 2, retryPauseMs: 50 };
/** Time a loaded machine may add to a limit. */
const SLACK_MS = 700;

let userId: number;
let cookie: string;
let draftId: number;
const buckets: FaultyBucket[] = [];

beforeAll(async () => {
  userId = (await createTestUser()).id;
  cookie = await sessionCookieFor(userId);
  const db = await getDb();
  draftId = (await createTestJob(userId, null, "draft")).id;
  await db.update(printJobs).set({ fileKey: "designs/2026/01/stored.stl" }).where(eq(printJobs.id, draftId));
});

afterEach(async () => {
  globalThis.__printnearStorage = undefined;
  for (const bucket of buckets.splice(0)) await bucket.close();
});

/** A faulty bucket, which the app's storage now uses with the short limits. */
async function appStorageOn(fault: BucketFault) {
  const bucket = await startFaultyBucket(fault);
  buckets.push(bucket);
  const storage = createBucketStorage(bucket.config, SHORT);
  globalThis.__printnearStorage = storage;
  return { bucket, storage };
}

/** What a call threw, and how long it took to throw it. */
async function failure(call: () => unknown): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => null,
      (thrown: unknown) => thrown,
    );
  return { error, ms: performance.now() - start };
}

function expectUnavailable(error: unknown) {
  expect(isAppError(error)).toBe(true);
  const appError = error as AppError;
  expect([appError.code, appError.message, appError.retryAfterSeconds]).toEqual(["unavailable", STORAGE_UNAVAILABLE, 60]);
}

async function expect503(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("60");
  expect(await response.json()).toEqual({ message: STORAGE_UNAVAILABLE });
}

describe("a bucket that is down", () => {
  it("by default, a request gives up on a silent bucket within 10 s, with time to spare for the rest of the answer", () => {
    expect(worstAnswerMs(BUCKET_LIMITS)).toBeLessThanOrEqual(9_000);
    expect(BUCKET_LIMITS.attempts).toBeLessThanOrEqual(2);
  });

  it("is refused at once as unavailable, for every kind of request", async () => {
    const { storage } = await appStorageOn("gone");
    const calls = [
      () => storage.get("designs/a.stl"),
      () => storage.set("designs/a.stl", new File(["solid"], "a.stl")),
      () => storage.has("designs/a.stl"),
      () => storage.remove("designs/a.stl"),
      () => storage.list({ prefix: "designs/" }),
    ];
    for (const call of calls) {
      const { error, ms } = await failure(call);
      expectUnavailable(error);
      expect(ms).toBeLessThan(worstAnswerMs(SHORT) + SLACK_MS);
    }
  });

  it("that takes requests and never answers is given up after two tries of the answer limit each", async () => {
    const { bucket, storage } = await appStorageOn("silent");
    const read = await failure(() => storage.get("designs/a.stl"));
    expectUnavailable(read.error);
    expect(read.ms).toBeGreaterThanOrEqual(SHORT.attempts * SHORT.answerMs - 50);
    expect(read.ms).toBeLessThan(worstAnswerMs(SHORT) + SLACK_MS);
    expect(bucket.requests()).toBe(2);
    // a file sent to it: the whole body goes out, then the silence counts
    const write = await failure(() => storage.set("designs/b.stl", new File([new Uint8Array(200_000)], "b.stl")));
    expectUnavailable(write.error);
    expect(write.ms).toBeLessThan(worstAnswerMs(SHORT) + SLACK_MS);
    const listed = await failure(() => storage.has("designs/a.stl"));
    expectUnavailable(listed.error);
  });

  it("makes a download answer 503 with Retry-After and a clear message", async () => {
    await appStorageOn("silent");
    await expect503(await run(() => fileLoader(args(getRequest(`/drafts/${draftId}/file`, cookie), { id: String(draftId) }))));
    await appStorageOn("gone");
    await expect503(await run(() => fileLoader(args(getRequest(`/drafts/${draftId}/file`, cookie), { id: String(draftId) }))));
  });

  it("makes an upload answer 503 with Retry-After and leaves no draft", async () => {
    await appStorageOn("silent");
    const db = await getDb();
    const before = await db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.customerId, userId));
    const request = multipartRequest(
      "/upload",
      [
        ["file", fileOf(CUBE_STL, "cube.stl")],
        ["material", "PLA"],
        ["intent", "save"],
      ],
      { cookie },
    );
    const res = await run(() => uploadAction(args(request)));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(JSON.stringify(await res.json())).toContain(STORAGE_UNAVAILABLE);
    const after = await db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.customerId, userId));
    expect(after).toEqual(before);
  });
});

describe("a bucket that stalls in the middle of a download", () => {
  it("cuts the download once it has sent nothing for the stall limit", async () => {
    await appStorageOn("stalls");
    const res = await run(() => fileLoader(args(getRequest(`/drafts/${draftId}/file`, cookie), { id: String(draftId) })));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(STALLED_BYTES * 4));
    const reader = res.body!.getReader();
    let received = 0;
    let lastByteAt = performance.now();
    const cut = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        received += value.byteLength;
        lastByteAt = performance.now();
      }
    })().catch((error: unknown) => error);
    const silentMs = performance.now() - lastByteAt;
    expect(received).toBe(STALLED_BYTES);
    expectUnavailable(cut);
    expect(silentMs).toBeGreaterThanOrEqual(SHORT.stallMs - 50);
    expect(silentMs).toBeLessThan(SHORT.stallMs + SLACK_MS);
  });
});
