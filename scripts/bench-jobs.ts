// Benchmark: a weight-caching job over 500 mocked catalogue models with real STL files (spheres,
// cups, tori and boxes of varied sizes), run by the job runner with the analysis worker threads.
//   npm run bench:jobs
// The catalogue answers through msw, shaped like Thingiverse's search, files and CDN answers; the
// jobs' catalogue budget is lifted for the run. Prints models per second beside the stated rate.
import { mkdirSync, rmSync } from "node:fs";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { cup, merge, sphere, box, torus, toBinaryStl } from "../app/domain/mesh/generate";
import filesFixture from "../tests/fixtures/thingiverse/files.json";
import thingsFixture from "../tests/fixtures/thingiverse/things.json";

const MODELS = 500;
const STATED_MODELS_PER_SECOND = 1; // document 000: about 1 model per second (100 models about 2 minutes)
const DB_FILE = "tests/.tmp/bench-jobs.db";

mkdirSync("tests/.tmp", { recursive: true });
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_FILE}${suffix}`, { force: true });
process.env.DATABASE_URL = `file:${DB_FILE}`;
process.env.THINGIVERSE_TOKEN = "bench-token";
process.env.CATALOGUE_JOB_BUDGET = "100000";
process.env.CATALOGUE_SITE_LIMIT = "100000";

const API = "https://api.thingiverse.com";
const CDN = "https://cdn.thingiverse.com";
const template = thingsFixture[0] as unknown as Record<string, unknown>;
const fileTemplate = (filesFixture as unknown as Record<string, Record<string, unknown>[]>)[String(template.id)][0];
const ids = Array.from({ length: MODELS }, (_, i) => 9_100_001 + i);

// real meshes: four shapes, sizes varying with the id, so every file is different
function stlFor(id: number): Uint8Array {
  const k = id % 4;
  const s = 10 + (id % 23);
  const mesh =
    k === 0
      ? sphere(s, 24, 48)
      : k === 1
        ? cup(s, 2, s * 1.5, 2, 48)
        : k === 2
          ? torus(s, s / 4, 48, 24)
          : merge({ mesh: box(s, s, s) }, { mesh: box(s / 2, s / 2, s), at: [s * 1.5, 0, 0] });
  return toBinaryStl(mesh);
}

const hit = (id: number) => ({
  id,
  name: `Bench model ${id}`,
  url: `${API}/things/${id}`,
  public_url: `https://www.thingiverse.com/thing:${id}`,
  created_at: template.added,
  thumbnail: template.thumbnail,
  preview_image: template.thumbnail,
  creator: template.creator,
  is_private: false,
  is_purchased: false,
  is_published: true,
  is_featured: false,
  comment_count: 0,
  collect_count: 0,
  make_count: 0,
  like_count: MODELS - (id - ids[0]),
  tags: [],
  is_nsfw: false,
});

const mocks = setupServer(
  http.get(`${API}/search/`, ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get("page") || 1);
    const perPage = Number(url.searchParams.get("per_page") || 20);
    return HttpResponse.json({ total: MODELS, hits: ids.slice((page - 1) * perPage, page * perPage).map(hit) });
  }),
  http.get(`${API}/search`, ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get("page") || 1);
    const perPage = Number(url.searchParams.get("per_page") || 20);
    return HttpResponse.json({ total: MODELS, hits: ids.slice((page - 1) * perPage, page * perPage).map(hit) });
  }),
  http.get(`${API}/things/:id/files`, ({ params }) => {
    const id = Number(params.id);
    const size = stlFor(id).byteLength;
    return HttpResponse.json([
      {
        ...fileTemplate,
        id: id * 10,
        name: `bench_${id}.stl`,
        size,
        url: `${API}/files/${id * 10}`,
        download_url: `${API}/files/${id * 10}/download`,
        direct_url: `${CDN}/assets/bench/${id}.stl`,
      },
    ]);
  }),
  http.get(`${CDN}/assets/bench/:file`, ({ params }) => {
    const body = stlFor(Number(String(params.file).replace(".stl", "")));
    return new HttpResponse(body, {
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(body.byteLength) },
    });
  }),
);
mocks.listen({ onUnhandledRequest: "error" });

const { migrateDatabase } = await import("../db/migrate");
(await migrateDatabase()).close();
await import("../app/services/jobs/handlers.server");
const { startWeightCaching } = await import("../app/services/catalogue/import.server");
const { getTask, runDueTasks } = await import("../app/services/jobs/index.server");
const { getAnalysisPool } = await import("../app/services/designs/analysis-pool.server");

const { id } = await startWeightCaching({ count: MODELS, page: 1 });
const started = performance.now();
await runDueTasks({ workerId: "bench" });
const seconds = (performance.now() - started) / 1000;
const task = await getTask(id);
const stats = (task?.result as { stats?: Record<string, number> } | null)?.stats ?? {};
const rate = (stats.calculated ?? 0) / seconds;

console.log(`Weight caching over ${MODELS} mocked catalogue models (real STL files, analysed in worker threads)`);
console.log(`  job ${id}: ${task?.status}; calculated ${stats.calculated}, cached ${stats.cached}, failed ${stats.failed}`);
console.log(`  time: ${seconds.toFixed(1)} s`);
console.log(
  `  rate: ${rate.toFixed(1)} models per second (stated: about ${STATED_MODELS_PER_SECOND} model per second; ${(rate / STATED_MODELS_PER_SECOND).toFixed(1)}x)`,
);

await getAnalysisPool().close();
mocks.close();
process.exit(task?.status === "done" && stats.calculated === MODELS ? 0 : 1);
