// Admin area: the admin check on every page and call, catalogue import without duplicates, and
// weight caching against the msw-mocked catalogue (real STL/OBJ bytes, analysed in worker threads).
import { count, eq, isNotNull } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { catalogueModels, printJobs } from "../../db/schema";
import "../../app/services/jobs/handlers.server";
import { cancelTask, enqueueTask, getTask, runDueTasks } from "../../app/services/jobs/index.server";
import { getDb } from "../../app/utils/db.server";
import * as adminIndex from "../../app/routes/admin._index";
import * as adminImport from "../../app/routes/admin.import";
import * as adminOrders from "../../app/routes/admin.orders._index";
import * as adminOrder from "../../app/routes/admin.orders.$id";
import * as adminNewsletter from "../../app/routes/admin.newsletter";
import * as adminJobs from "../../app/routes/admin.jobs._index";
import * as adminJob from "../../app/routes/admin.jobs.$id";
import * as apiJob from "../../app/routes/api.admin.jobs.$id";
import * as campaignsApi from "../../app/routes/api.admin.newsletter.campaigns";
import * as importPopular from "../../app/routes/api.thingiverse.import-popular";
import * as importCategory from "../../app/routes/api.thingiverse.import-category";
import * as calculateWeights from "../../app/routes/api.thingiverse.calculate-weights";
import * as bulkCache from "../../app/routes/api.thingiverse.bulk-cache";
import { startMockServer } from "../mocks/index";
import { args, createTestUser, formRequest, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

process.env.MOCKS = "true";
process.env.THINGIVERSE_TOKEN = "mock-token";
const mocks = startMockServer();
afterAll(() => mocks.close());

const PAGES = [
  ["/admin", adminIndex.loader],
  ["/admin/import", adminImport.loader],
  ["/admin/jobs", adminJobs.loader],
  ["/admin/orders", adminOrders.loader],
  ["/admin/newsletter", adminNewsletter.loader],
] as const;
const API_CALLS = [
  ["/api/thingiverse/import-popular", importPopular.action, { count: 5 }],
  ["/api/thingiverse/import-category", importCategory.action, { category: "vase", count: 5 }],
  ["/api/thingiverse/calculate-weights", calculateWeights.action, { count: 5, page: 1 }],
  ["/api/thingiverse/bulk-cache", bulkCache.action, { total: 100, startPage: 1 }],
] as const;

async function catalogueCount() {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(catalogueModels);
  return row.n;
}

describe("admin check", () => {
  test("visitors go to sign in, non-admins get Access Denied and go home", async () => {
    const member = await createTestUser();
    const cookie = await sessionCookieFor(member.id);
    for (const [path, loader] of PAGES) {
      const visitor = await run(() => loader(args(getRequest(path)) as never));
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toContain(`/auth?redirectTo=${encodeURIComponent(path)}`);
      const denied = await run(() => loader(args(getRequest(path, cookie)) as never));
      expect(denied.status).toBe(302);
      expect(denied.headers.get("location")).toBe("/");
      expect(denied.headers.get("set-cookie")).toContain("pn_toast");
    }
    const post = await run(() =>
      adminImport.action(args(formRequest("/admin/import", { intent: "popular", count: "5" }, { cookie })) as never),
    );
    expect(post.headers.get("location")).toBe("/");
  });

  test("the API answers 401 to visitors and 403 to non-admins, and starts nothing", async () => {
    const member = await createTestUser();
    const cookie = await sessionCookieFor(member.id);
    for (const [path, action, body] of API_CALLS) {
      expect((await run(() => action(args(jsonRequest(path, body)) as never))).status).toBe(401);
      const denied = await run(() => action(args(jsonRequest(path, body, { cookie })) as never));
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({ message: "Admin access required" });
    }
    expect(await runDueTasks()).toEqual([]);
  });

  test("the admin reads (a job, the campaigns) answer 401 to visitors and 403 to non-admins", async () => {
    const member = await createTestUser();
    const cookie = await sessionCookieFor(member.id);
    const admin = await createTestUser({ isAdmin: true });
    const adminCookie = await sessionCookieFor(admin.id);
    const job = await enqueueTask("catalogue.import-popular", { count: 1 }, { runAt: Date.now() + 3_600_000 });
    const reads = [
      [`/api/admin/jobs/${job.id}`, apiJob.loader, { id: String(job.id) }],
      ["/api/admin/newsletter/campaigns", campaignsApi.loader, {}],
    ] as const;
    for (const [path, loader, params] of reads) {
      const visitor = await run(() => loader(args(getRequest(path), params) as never));
      expect(visitor.status).toBe(401);
      const denied = await run(() => loader(args(getRequest(path, cookie), params) as never));
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({ message: "Admin access required" });
      expect((await run(() => loader(args(getRequest(path, adminCookie), params) as never))).status).toBe(200);
    }
    await cancelTask(job.id);
  });
});

describe("orders", () => {
  test("the admin lists and filters every customer's orders and opens any one read-only", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const customer = await createTestUser();
    const db = await getDb();
    const [job] = await db
      .insert(printJobs)
      .values({ customerId: customer.id, fileName: "bracket.stl", status: "confirmed", amountDueCents: 1234 })
      .returning();
    await db.insert(printJobs).values({ customerId: customer.id, fileName: "draft.stl", status: "draft" });
    const list = (await (
      await run(() => adminOrders.loader(args(getRequest("/admin/orders?status=confirmed", cookie)) as never))
    ).json()) as {
      orders: { id: number; fileName: string }[];
    };
    expect(list.orders.map((o) => o.fileName)).toEqual(["bracket.stl"]);
    const all = (await (
      await run(() => adminOrders.loader(args(getRequest(`/admin/orders?q=${customer.email}`, cookie)) as never))
    ).json()) as {
      orders: { fileName: string }[];
    };
    expect(all.orders.map((o) => o.fileName)).toEqual(["bracket.stl"]); // drafts are not orders
    const one = await run(() =>
      adminOrder.loader(args(getRequest(`/admin/orders/${job.id}`, cookie), { id: String(job.id) }) as never),
    );
    expect(await one.json()).toMatchObject({ job: { id: job.id, amountDueCents: 1234 }, customerEmail: customer.email });
  });
});

describe("catalogue import", () => {
  test("imports answer at once with the job, run in the background, and never duplicate a model", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const before = await catalogueCount();
    const started = await run(() =>
      importPopular.action(args(jsonRequest("/api/thingiverse/import-popular", { count: 5 }, { cookie })) as never),
    );
    expect(started.status).toBe(202);
    const { job } = (await started.json()) as { job: { id: number; status: string } };
    expect(job.status).toBe("queued");
    expect(await catalogueCount()).toBe(before); // nothing happened during the request
    expect(await runDueTasks()).toEqual(["done"]);
    expect(await catalogueCount()).toBe(before + 5);
    const first = await getTask(job.id);
    expect(first!.result).toMatchObject({ stats: { total: 5, imported: 5, updated: 0 } });

    // the same models and more: the five are refreshed, not duplicated
    const again = await run(() =>
      importPopular.action(args(jsonRequest("/api/thingiverse/import-popular", { count: 9 }, { cookie })) as never),
    );
    const second = ((await again.json()) as { job: { id: number } }).job.id;
    await runDueTasks();
    expect(await catalogueCount()).toBe(before + 9);
    expect((await getTask(second))!.result).toMatchObject({ stats: { total: 9, imported: 4, updated: 5 } });

    const status = await run(() =>
      apiJob.loader(args(getRequest(`/api/admin/jobs/${second}`, cookie), { id: String(second) }) as never),
    );
    const body = (await status.json()) as { message: string; stats: Record<string, number>; job: { percent: number } };
    expect(body.job.percent).toBe(100);
    expect(body.message).toMatch(/^Import Successful: Imported 4 new models/);
    expect(body.stats).toMatchObject({ imported: 4, updated: 5 });
  });

  test("out-of-range input is refused with the documented messages", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const blank = await run(() =>
      importCategory.action(
        args(jsonRequest("/api/thingiverse/import-category", { category: "  ", count: 5 }, { cookie })) as never,
      ),
    );
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({ message: "Please enter a category name" });
    const tooMany = await run(() =>
      importPopular.action(args(jsonRequest("/api/thingiverse/import-popular", { count: 201 }, { cookie })) as never),
    );
    expect(tooMany.status).toBe(400);
    const page = await run(() =>
      adminImport.action(
        args(formRequest("/admin/import", { intent: "category", category: "", count: "20" }, { cookie })) as never,
      ),
    );
    expect(page.status).toBe(400);
    expect((await page.json()).result.error).toEqual({ category: ["Please enter a category name"] });
  });
});

describe("weight caching", () => {
  test("each model's file is downloaded and analysed once; cached models are skipped on the next run", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const started = await run(() =>
      calculateWeights.action(
        args(jsonRequest("/api/thingiverse/calculate-weights", { count: 9, page: 1 }, { cookie })) as never,
      ),
    );
    const id = ((await started.json()) as { job: { id: number } }).job.id;
    expect(await runDueTasks()).toEqual(["done"]);
    const task = await getTask(id);
    const stats = (task!.result as { stats: Record<string, number> }).stats;
    expect(stats.total).toBe(9);
    expect(stats.calculated + stats.cached + stats.failed).toBe(9);
    expect(stats.calculated).toBeGreaterThan(0);
    expect(task!.progress).toMatchObject({ processed: 9, total: 9 });

    const db = await getDb();
    const weighed = await db.select().from(catalogueModels).where(isNotNull(catalogueModels.estimatedWeightGrams));
    expect(weighed.length).toBe(stats.calculated + stats.cached);
    for (const model of weighed) {
      expect(model.estimatedWeightGrams!).toBeGreaterThan(0);
      expect(model.printTimeMinutes!).toBeGreaterThan(0);
    }
    // a 20 mm cube of PLA at the default settings: the engine's weight, not a placeholder
    const [cube] = weighed;
    expect(cube.estimatedWeightGrams).toBeLessThan((20 * 20 * 20 * 1.24) / 1000 + 0.01);

    const again = await run(() =>
      calculateWeights.action(
        args(jsonRequest("/api/thingiverse/calculate-weights", { count: 9, page: 1 }, { cookie })) as never,
      ),
    );
    const secondId = ((await again.json()) as { job: { id: number } }).job.id;
    await runDueTasks();
    const second = (await getTask(secondId))!.result as { stats: Record<string, number> };
    expect(second.stats.cached).toBe(stats.calculated + stats.cached);
    expect(second.stats.calculated).toBe(0);
    const [{ n }] = await db.select({ n: count() }).from(catalogueModels).where(eq(catalogueModels.source, "thingiverse"));
    expect(n).toBe(await catalogueCount());
  });

  test("the jobs pages show the job's progress and its documented outcome", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const cookie = await sessionCookieFor(admin.id);
    const page = await run(() =>
      adminImport.action(args(formRequest("/admin/import", { intent: "weights", count: "3", page: "1" }, { cookie })) as never),
    );
    expect(page.status).toBe(302);
    await runDueTasks();
    const list = (await (await run(() => adminJobs.loader(args(getRequest("/admin/jobs", cookie)) as never))).json()) as {
      jobs: { id: number; type: string; percent: number }[];
    };
    const job = list.jobs.find((j) => j.type === "catalogue.calculate-weights")!;
    expect(job.percent).toBe(100);
    const one = (await (
      await run(() => adminJob.loader(args(getRequest(`/admin/jobs/${job.id}`, cookie), { id: String(job.id) }) as never))
    ).json()) as {
      job: { finished: boolean; progress: { processed: number; total: number } };
    };
    expect(one.job.finished).toBe(true);
    expect(one.job.progress).toMatchObject({ processed: 3, total: 3 });
  });

  test("a job this browser started flashes its documented toast once, when the page sees it finished", async () => {
    const admin = await createTestUser({ isAdmin: true });
    const session = await sessionCookieFor(admin.id);
    const cookieOf = (response: Response, before: string) => {
      const watched = response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .find((c) => c.startsWith("pn_jobs_watched="));
      return watched ? `${session}; ${watched}` : before;
    };
    const started = await run(() =>
      adminImport.action(
        args(formRequest("/admin/import", { intent: "weights", count: "2", page: "1" }, { cookie: session })) as never,
      ),
    );
    let cookie = cookieOf(started, session);
    expect(cookie).toContain("pn_jobs_watched=");
    const read = async () => {
      const response = await run(() => adminImport.loader(args(getRequest("/admin/import", cookie)) as never));
      cookie = cookieOf(response, cookie);
      return ((await response.json()) as { jobToast: { title: string; description?: string } | null }).jobToast;
    };
    expect(await read()).toBeNull(); // still queued
    await runDueTasks();
    const toast = await read();
    expect(toast?.title).toBe("Weight Calculation Complete");
    expect(toast?.description).toMatch(/^Calculated: \d+, Cached: \d+, Failed: \d+$/);
    expect(await read()).toBeNull(); // shown once
    // a browser that never saw the job gets no toast for it
    const other = await run(() => adminImport.loader(args(getRequest("/admin/import", session)) as never));
    expect(((await other.json()) as { jobToast: unknown }).jobToast).toBeNull();
  });
});
