// Catalogue jobs against the msw-mocked site: a transient failure is not a model's final
// outcome, a listing page with malformed hits does not end the listing, a resumed job skips
// the listing pages an earlier attempt finished, and a finished job's counts add up.
import { http, HttpResponse } from "msw";
import { describe, expect, test, vi } from "vitest";
import { CATALOGUE_TASKS } from "../../app/domain/background-jobs";
import "../../app/services/jobs/handlers.server";
import { cancelTask, getTask, runDueTasks } from "../../app/services/jobs/index.server";
import { getJobSummary, listJobFailures } from "../../app/services/admin/jobs.server";
import { resetCatalogueBudgets } from "../../app/services/catalogue/index.server";
import { startPopularImport, startWeightCaching } from "../../app/services/catalogue/import.server";
import { getClient } from "../../app/utils/db.server";
import { THINGIVERSE_API, THINGIVERSE_CDN, thingiverseFixtures } from "../mocks/thingiverse";
import { server } from "../setup/msw";

process.env.MOCKS = "true";
process.env.THINGIVERSE_TOKEN = "mock-token";

async function items(taskId: number) {
  const client = await getClient();
  const result = await client.execute({
    sql: "SELECT item_key, outcome FROM background_task_items WHERE task_id = ?",
    args: [taskId],
  });
  return result.rows.map((r) => ({ key: String(r.item_key), outcome: String(r.outcome) }));
}

async function makeDue(taskId: number) {
  const client = await getClient();
  await client.execute({ sql: "UPDATE background_tasks SET run_at = 0 WHERE id = ?", args: [taskId] });
}

/** A search listing of `size` synthetic models (ids from 8_000_001), pages of 100, with malformed hits where told. */
function syntheticListing(size: number, malformedAt: number[] = []) {
  const pages: number[] = [];
  const handler = http.get(`${THINGIVERSE_API}/search/`, ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get("page"));
    const perPage = Number(url.searchParams.get("per_page"));
    pages.push(page);
    const hits = [];
    for (let i = (page - 1) * perPage; i < Math.min(size, page * perPage); i++) {
      const id = 8_000_001 + i;
      const model = {
        ...thingiverseFixtures.things[0],
        id,
        name: `Synthetic ${i}`,
        public_url: `https://www.thingiverse.com/thing:${id}`,
      };
      hits.push(malformedAt.includes(i) ? { id: "not-a-number", name: 42 } : model);
    }
    return HttpResponse.json({ total: size, hits });
  });
  return { handler, pages };
}

describe("weight caching: transient failures", () => {
  test("a file host that answers 503 fails the attempt instead of recording the models as failed; the retry weighs them", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    server.use(
      http.get(`${THINGIVERSE_API}/files/:fileId/download`, () => new HttpResponse(null, { status: 503 })),
      http.get(`${THINGIVERSE_CDN}/assets/*`, () => new HttpResponse(null, { status: 503 })),
    );
    const job = await startWeightCaching({ count: 3, page: 1 });
    expect(await runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights] })).toEqual(["queued"]);
    expect(await items(job.id)).toEqual([]); // nothing recorded as a final outcome
    expect((await getTask(job.id))!.lastError).toMatch(/could not be downloaded/);

    server.resetHandlers(); // the host is back
    await makeDue(job.id);
    expect(await runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights] })).toEqual(["done"]);
    const outcomes = await items(job.id);
    expect(outcomes).toHaveLength(3);
    expect(outcomes.filter((i) => i.outcome === "calculated").length).toBeGreaterThan(0);
    expect(outcomes.every((i) => i.outcome !== "failed")).toBe(true);
    // each weighed model keeps its file's size beside its weight, for the printers that can hold it
    const client = await getClient();
    const { rows } = await client.execute(
      "SELECT size_x_mm, size_y_mm, size_z_mm FROM catalogue_models WHERE estimated_weight_grams IS NOT NULL",
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) for (const v of [r.size_x_mm, r.size_y_mm, r.size_z_mm]) expect(Number(v)).toBeGreaterThan(0);
  });
});

describe("weight caching: a host that keeps failing", () => {
  test("on the job's last attempt the models it can't reach are recorded as failed and the job finishes", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    server.use(
      http.get(`${THINGIVERSE_API}/files/:fileId/download`, () => new HttpResponse(null, { status: 503 })),
      http.get(`${THINGIVERSE_CDN}/assets/*`, () => new HttpResponse(null, { status: 503 })),
    );
    const client = await getClient();
    // an earlier test weighed these models: forget their weights so this job must download them
    await client.execute("UPDATE catalogue_models SET estimated_weight_grams = NULL, weight_computed_at = NULL");
    const job = await startWeightCaching({ count: 3, page: 1 });
    const { rows } = await client.execute({ sql: "SELECT max_attempts FROM background_tasks WHERE id = ?", args: [job.id] });
    const maxAttempts = Number(rows[0]!.max_attempts);
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      expect(await runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights] })).toEqual(["queued"]);
      await makeDue(job.id);
    }
    expect(await runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights] })).toEqual(["done"]);
    const outcomes = await items(job.id);
    expect(outcomes).toHaveLength(3);
    expect(outcomes.every((i) => i.outcome === "failed")).toBe(true);
    expect((await getTask(job.id))!.result).toMatchObject({
      stats: { failed: outcomes.filter((i) => i.outcome === "failed").length },
    });
  });
});

describe("cancel", () => {
  test("a job waiting for catalogue budget stops within about a second of being cancelled", async () => {
    process.env.CATALOGUE_JOB_BUDGET = "1"; // the listing takes the one slot; the first file list waits
    try {
      const job = await startWeightCaching({ count: 3, page: 2 }); // models not weighed yet
      const running = runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights], leaseMs: 300 });
      await expect.poll(async () => (await getTask(job.id))?.progress?.processed, { timeout: 5_000 }).toBe(0);
      const asked = Date.now();
      await cancelTask(job.id);
      expect(await running).toEqual(["cancelled"]);
      expect(Date.now() - asked).toBeLessThan(3_000); // not the budget's 5-minute window
    } finally {
      delete process.env.CATALOGUE_JOB_BUDGET;
      resetCatalogueBudgets();
    }
  });
});

describe("listing", () => {
  test("a page with malformed hits dropped does not end the listing", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const listing = syntheticListing(130, [5]);
    server.use(listing.handler);
    const job = await startPopularImport({ count: 130 });
    const ran = await runDueTasks({ types: [CATALOGUE_TASKS.importPopular] });
    expect([ran, (await getTask(job.id))!.lastError]).toEqual([["done"], null]);
    expect(listing.pages).toEqual([1, 2]);
    const task = (await getTask(job.id))!;
    expect((task.result as { stats: { total: number } }).stats.total).toBe(129);
  });

  test("each finished page is saved as the checkpoint; a resumed job lists only the pages left", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const first = syntheticListing(150);
    server.use(first.handler);
    const job = await startPopularImport({ count: 150 });
    await runDueTasks({ types: [CATALOGUE_TASKS.importPopular] });
    const client = await getClient();
    const saved = await client.execute({ sql: "SELECT checkpoint FROM background_tasks WHERE id = ?", args: [job.id] });
    expect(JSON.parse(String(saved.rows[0].checkpoint))).toEqual({ nextPage: 3 });

    // an attempt that finished page 1 and died: the next one starts at page 2
    server.resetHandlers();
    const again = syntheticListing(150);
    server.use(again.handler);
    const resumed = await startPopularImport({ count: 150 });
    await client.execute({
      sql: `UPDATE background_tasks SET checkpoint = '{"nextPage":2}' WHERE id = ?`,
      args: [resumed.id],
    });
    await runDueTasks({ types: [CATALOGUE_TASKS.importPopular] });
    expect(again.pages).toEqual([2]);
  });
});

describe("a finished job's counts", () => {
  /** The job as its admin page shows it: its bar, its counts, its failed items. */
  async function finished(jobId: number) {
    const job = (await getJobSummary(jobId))!;
    const counts = Object.values(job.progress!.counts).reduce((sum, n) => sum + n, 0);
    return { job, counts, failures: await listJobFailures(job) };
  }

  test("weight caching asked for more models than the catalogue lists: a full bar, counts that add up, the failed model named with its reason", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const started = await startWeightCaching({ count: 100, page: 1 });
    expect(await runDueTasks({ types: [CATALOGUE_TASKS.calculateWeights] })).toEqual(["done"]);
    const { job, counts, failures } = await finished(started.id);
    expect(job.status).toBe("done");
    expect(job.progress).toMatchObject({ processed: 9, total: 9 });
    expect(job.percent).toBe(100);
    expect(counts).toBe(9);
    expect(job.result?.stats).toMatchObject({ total: 9, failed: 1 });
    expect(failures).toEqual([
      {
        key: "6201006",
        name: "Planetary Gearbox Concept (WIP)",
        href: "/models/thingiverse/6201006",
        reason: "The model has no STL, OBJ or 3MF file to weigh.",
      },
    ]);
  });

  test("an import asked for more models than the catalogue lists ends at 100% with what it found", async () => {
    const started = await startPopularImport({ count: 12 });
    expect(await runDueTasks({ types: [CATALOGUE_TASKS.importPopular] })).toEqual(["done"]);
    const { job, counts, failures } = await finished(started.id);
    expect(job.progress).toMatchObject({ processed: 9, total: 9 });
    expect(job.percent).toBe(100);
    expect(counts).toBe(9);
    expect(job.result?.stats).toMatchObject({ total: 9 });
    expect(failures).toEqual([]);
  });
});
