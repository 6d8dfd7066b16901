// On an embedded replica, a row written through another machine arrives with the next sync. The reads by id that
// must not miss it (a session, a draft's preview, an order's download, a library model's picture) sync once when
// they find nothing; the live poller syncs every tick; a resumed job syncs before it reads its items. Here the
// "replica" is the test database with the row held back until the replica's sync (a fake of libSQL's) brings it.
import { eq, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { categories, libraryModels, printJobs, sessions } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { loader as previewLoader } from "../../app/routes/drafts.$id.preview[.]png";
import { loader as modelImageLoader } from "../../app/routes/models.library.$id.image";
import { designFileResponse } from "../../app/routes/orders.server";
import { LiveHub } from "../../app/services/live-events.server";
import { enqueueTask } from "../../app/services/jobs/enqueue.server";
import { registerTaskHandler, runDueTasks } from "../../app/services/jobs/runner.server";
import { getStorage, newStorageKey } from "../../app/services/storage.server";
import { getDb } from "../../app/utils/db.server";
import { getSessionUser } from "../../app/utils/session.server";
import { createTestJob, createTestPrinter } from "../setup/jobs";
import { args, createTestUser, getRequest, run, sessionCookieFor } from "../setup/requests";
import { ReplicaSync } from "../../app/utils/replica.server";

/** Writes the primary holds that this replica has not synced yet. */
const notYetSynced: Array<() => Promise<unknown>> = [];
let syncs = 0;

beforeAll(async () => {
  globalThis.__printnearReplicaSync = new ReplicaSync(async () => {
    syncs += 1;
    for (const arrive of notYetSynced.splice(0)) await arrive();
  });
  const db = await getDb();
  await db.insert(categories).values(CATEGORIES);
});
afterEach(() => {
  notYetSynced.length = 0;
});
afterAll(() => {
  globalThis.__printnearReplicaSync = undefined;
});

/** Takes a row out of the replica; the next sync brings it back. */
async function onlyOnPrimary<T extends SQLiteTable>(table: T, where: SQL) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(table as SQLiteTable)
    .where(where);
  await db.delete(table).where(where);
  notYetSynced.push(() => db.insert(table).values(rows as never));
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe("reads by id on a replica", () => {
  it("a session started through another machine: found after one sync", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await onlyOnPrimary(sessions, eq(sessions.userId, user.id));
    const before = syncs;
    expect((await getSessionUser(getRequest("/dashboard", cookie)))?.id).toBe(user.id);
    expect(syncs).toBe(before + 1);
    // a hit reads the replica alone
    expect((await getSessionUser(getRequest("/dashboard", cookie)))?.id).toBe(user.id);
    expect(syncs).toBe(before + 1);
  });

  it("a draft saved through another machine: its preview is served here", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const previewKey = newStorageKey("previews", "png");
    await getStorage().set(previewKey, new File([PNG], "preview.png", { type: "image/png" }));
    const db = await getDb();
    const [draft] = await db
      .insert(printJobs)
      .values({ customerId: user.id, status: "draft", fileName: "cube.stl", previewKey })
      .returning();
    await onlyOnPrimary(printJobs, eq(printJobs.id, draft.id));
    const res = await run(() =>
      previewLoader(args(getRequest(`/drafts/${draft.id}/preview.png`, cookie), { id: String(draft.id) })),
    );
    expect(res.status).toBe(200);
  });

  it("an order paid through another machine: its printer owner downloads the design here", async () => {
    const customer = await createTestUser();
    const owner = await createTestUser({ userType: "printer_owner" });
    const printer = await createTestPrinter(owner.id);
    const fileKey = newStorageKey("designs", "stl");
    await getStorage().set(fileKey, new File(["solid cube\nendsolid cube\n"], "cube.stl"));
    // the replica still holds the order as placed, unpaid, which its owner does not see yet
    const job = await createTestJob(customer.id, printer.id, "submitted");
    const db = await getDb();
    await db.update(printJobs).set({ fileKey }).where(eq(printJobs.id, job.id));
    notYetSynced.push(() =>
      db.update(printJobs).set({ status: "confirmed", confirmedAt: new Date() }).where(eq(printJobs.id, job.id)),
    );
    const res = await designFileResponse(owner.id, job.id);
    expect(await res.text()).toBe("solid cube\nendsolid cube\n");
  });

  it("a library model uploaded through another machine: its picture is served here", async () => {
    const creator = await createTestUser();
    const imageKey = newStorageKey("model-images", "png");
    await getStorage().set(imageKey, new File([PNG], "image.png", { type: "image/png" }));
    const db = await getDb();
    const [model] = await db
      .insert(libraryModels)
      .values({ creatorId: creator.id, name: "Replica Hook", description: "A hook.", categoryId: 1, imageKey })
      .returning();
    await onlyOnPrimary(libraryModels, eq(libraryModels.id, model.id));
    const res = await run(() =>
      modelImageLoader(args(getRequest(`/models/library/${model.id}/image`), { id: String(model.id) })),
    );
    expect(res.status).toBe(200);
  });
});

describe("work that follows other machines' writes on a replica", () => {
  it("the live poller syncs on every tick while a stream is open", async () => {
    process.env.LIVE_POLL_MS = "50";
    const hub = new LiveHub();
    const before = syncs;
    const close = await hub.subscribe({ userId: (await createTestUser()).id, address: "198.51.100.20" }, () => {});
    await expect.poll(() => syncs - before, { timeout: 3000 }).toBeGreaterThanOrEqual(3);
    close();
  });

  it("a resumed task syncs before its handler reads the items recorded by its last worker", async () => {
    let syncsSeenByHandler = -1;
    registerTaskHandler("test:replica-resume", async () => {
      syncsSeenByHandler = syncs;
    });
    const { id } = await enqueueTask("test:replica-resume", null);
    // its first worker died: the task is due again with one attempt counted
    const db = await getDb();
    await db.run(
      `UPDATE background_tasks SET status = 'running', attempts = 1, locked_by = 'dead', lease_expires_at = 0 WHERE id = ${id}`,
    );
    const before = syncs;
    await runDueTasks({ types: ["test:replica-resume"] });
    expect(syncsSeenByHandler).toBe(before + 1);
  });
});
