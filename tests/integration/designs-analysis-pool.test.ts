// The analysis pool: the engine in worker threads gives what it gives on this thread, errors keep their
// code across the boundary, a full queue answers busy, a job past its time limit is stopped, and the
// request thread stays free meanwhile.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MeshError } from "../../app/domain/mesh";
import { sphere, toBinaryStl } from "../../app/domain/mesh/generate";
import {
  analyzeInThread,
  AnalysisBusyError,
  AnalysisPool,
  AnalysisTimeoutError,
  getAnalysisPool,
  type AnalysisJob,
} from "../../app/services/designs/analysis-pool.server";
import { AppError } from "../../app/domain/app-error";
import { analyzeDesign } from "../../app/services/designs/analysis.server";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const FIXTURES: Array<[string, string]> = [
  [CUBE_STL, "cube.stl"],
  ["tests/fixtures/models/3mfc_dodeca_chain_loop.3mf", "dodeca.3mf"],
  ["tests/fixtures/designs/block-40x30x10.obj", "block.obj"],
];
const PREVIEW = { width: 480, height: 360 };
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
/** about 640,000 triangles (a sphere of 400 rings): a few hundred milliseconds of engine time */
const BIG_STL = toBinaryStl(sphere(40, 400, 800));

const pools: AnalysisPool[] = [];
function pool(options: ConstructorParameters<typeof AnalysisPool>[0] = {}) {
  const created = new AnalysisPool(options);
  pools.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe("the analysis pool", () => {
  it("returns what the engine returns on this thread, preview included, and leaves the caller's bytes intact", async () => {
    const workers = pool({ size: 2 });
    for (const [path, name] of FIXTURES) {
      const job: AnalysisJob = {
        bytes: bytesOf(path),
        fileName: name,
        options: { material: "PETG", infill: 30, layerHeight: 0.12, supports: "yes" },
        preview: PREVIEW,
      };
      const [off, here] = await Promise.all([workers.run(job), analyzeInThread(job)]);
      expect(off.analysis).toEqual(here.analysis);
      expect(off.preview).not.toBeNull();
      expect(Buffer.from(off.preview!).equals(Buffer.from(here.preview!))).toBe(true);
      // the pool transfers a copy: the caller still stores these bytes afterwards
      expect(job.bytes).toEqual(bytesOf(path));
    }
    expect(workers.usesWorkers).toBe(true);
    expect(workers.stats).toMatchObject({ workers: 2, running: 0, waiting: 0, inThread: false });
  });

  it("skips the preview when none is asked for", async () => {
    const out = await pool({ size: 1 }).run({ bytes: bytesOf(CUBE_STL), fileName: "cube.stl" });
    expect(out.preview).toBeNull();
    expect(out.analysis.fileFormat).toBe("stl");
  });

  it("keeps MeshError's class, code and message across the thread boundary", async () => {
    const workers = pool({ size: 1 });
    const truncated = { bytes: bytesOf("tests/fixtures/designs/truncated.stl"), fileName: "truncated.stl" };
    const expected = await analyzeInThread(truncated).catch((error: unknown) => error as MeshError);
    expect(expected).toBeInstanceOf(MeshError);
    const error = await workers.run(truncated).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MeshError);
    expect(error).toMatchObject({ code: "truncated", message: (expected as MeshError).message });

    const badOption = await workers
      .run({ bytes: bytesOf(CUBE_STL), fileName: "cube.stl", options: { material: "Unobtainium" } })
      .catch((e: unknown) => e);
    expect(badOption).toBeInstanceOf(MeshError);
    expect(badOption).toMatchObject({ code: "bad-option", message: 'Unknown material "Unobtainium".' });
  });

  it("stops a job past its time limit, replaces the worker, and keeps working", async () => {
    // the time limit runs on a test clock: the big job's passes when the test says, the small job's never does
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const workers = pool({ size: 1, timeoutMs: 25 });
      const refused = workers.run({ bytes: BIG_STL, fileName: "big.stl" }).catch((e: unknown) => e);
      await vi.waitFor(() => expect(workers.stats.running).toBe(1), { interval: 1 });
      vi.advanceTimersByTime(25);
      const error = await refused;
      expect(error).toBeInstanceOf(AnalysisTimeoutError);
      expect((error as Error).message).toBe(
        "This file took longer than 0.025 seconds to analyse; please simplify it before uploading.",
      );
      expect(workers.stats.workers).toBe(1);

      const small = { bytes: bytesOf(CUBE_STL), fileName: "cube.stl" };
      expect((await workers.run(small)).analysis).toEqual((await analyzeInThread(small)).analysis);
      expect(workers.usesWorkers).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers busy once the queue is full, and finishes what it took", async () => {
    const workers = pool({ size: 1, maxWaiting: 1 });
    await workers.run({ bytes: bytesOf(CUBE_STL), fileName: "cube.stl" }); // started: the next job runs at once
    const job = { bytes: BIG_STL, fileName: "big.stl" };
    const first = workers.run(job);
    const second = workers.run(job);
    await expect(workers.run(job)).rejects.toThrow(AnalysisBusyError);
    await expect(workers.run(job)).rejects.toThrow("The analysis service is busy; please try again in a minute.");
    const [a, b] = await Promise.all([first, second]);
    expect(a.analysis.triangles).toBeGreaterThan(600_000);
    expect(b.analysis).toEqual(a.analysis);
  });

  it("leaves the request thread free while a big file is analysed", async () => {
    const workers = pool({ size: 1 });
    await workers.run({ bytes: bytesOf(CUBE_STL), fileName: "cube.stl" }); // started and warm
    let ticked = false;
    setTimeout(() => (ticked = true), 5);
    await workers.run({ bytes: BIG_STL, fileName: "big.stl", preview: PREVIEW });
    expect(ticked).toBe(true);
  });

  it("analyses on the calling thread, and says so once, when workers cannot start", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const broken = pool({ workerUrl: new URL("./no-such-worker.mjs", import.meta.url) });
      const job = { bytes: bytesOf(CUBE_STL), fileName: "cube.stl", preview: PREVIEW };
      const [a, b] = await Promise.all([broken.run(job), broken.run(job)]);
      expect(a.analysis).toEqual((await analyzeInThread(job)).analysis);
      expect(b.preview).not.toBeNull();
      await broken.run(job);
      expect(broken.usesWorkers).toBe(false);
      expect(log.mock.calls.filter(([message]) => String(message).includes("analysis workers cannot start"))).toHaveLength(1);
    } finally {
      log.mockRestore();
    }
  });
});

describe("the server's analysis uses the pool", () => {
  it("analyses uploads in worker threads, and refuses a file past the time limit", async () => {
    const design = await analyzeDesign(bytesOf(CUBE_STL), "cube.stl", {
      material: "PLA",
      infill: 20,
      layerHeight: 0.2,
      supports: "auto",
    });
    expect(design.analysis.method).toBe("mesh");
    expect(design.preview).not.toBeNull();
    const shared = getAnalysisPool();
    expect(shared.usesWorkers).toBe(true);
    expect(shared.stats.workers).toBeGreaterThan(0);

    const noPreview = await analyzeDesign(
      bytesOf(CUBE_STL),
      "cube.stl",
      { material: "PLA", infill: 20, layerHeight: 0.2, supports: "auto" },
      { preview: false },
    );
    expect(noPreview.preview).toBeNull();
    expect(noPreview.analysis).toEqual(design.analysis);
  });

  it("turns a timeout into a refused file and a full pool into AnalysisBusyError", async () => {
    const settings = { material: "PLA", infill: 20, layerHeight: 0.2, supports: "auto" as const };
    const run = vi.spyOn(AnalysisPool.prototype, "run");
    try {
      run.mockRejectedValueOnce(new AnalysisTimeoutError(20_000));
      const refused = await analyzeDesign(bytesOf(CUBE_STL), "cube.stl", settings).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({
        code: "invalid",
        field: "file",
        message: "This file took longer than 20 seconds to analyse; please simplify it before uploading.",
      });

      run.mockRejectedValueOnce(new AnalysisBusyError());
      await expect(analyzeDesign(bytesOf(CUBE_STL), "cube.stl", settings)).rejects.toMatchObject({ code: "busy" });
    } finally {
      run.mockRestore();
    }
  });
});

describe("sharing the pool fairly", () => {
  const tiny = (owner: string) => ({ bytes: bytesOf(CUBE_STL), fileName: "cube.stl", owner });

  it("takes 30 simultaneous tiny uploads with one worker and a small queue: none is refused", async () => {
    // the queue is bounded by the work it holds (bytes), not by a count that 30 small files pass at once
    const workers = pool({ size: 1, maxWaitingBytes: 1024 * 1024 });
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, k) => workers.run(tiny(`user-${k % 3}`))));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(results).toHaveLength(30);
  });

  it("serves owners in turn: one user's flood does not hold back another's upload", async () => {
    const workers = pool({ size: 1 });
    await workers.run(tiny("warm-up"));
    const finished: string[] = [];
    const track = (label: string, job: AnalysisJob) => workers.run(job).then(() => finished.push(label));
    const flood = Array.from({ length: 5 }, (_, k) =>
      track(`flood-${k}`, { bytes: BIG_STL, fileName: "big.stl", owner: "flooder" }),
    );
    // the other customer's upload arrives after all five
    const other = track("other", tiny("other"));
    await Promise.all([...flood, other]);
    // round-robin: the flooder's first job was already running, the other customer's goes next after at most one more
    expect(finished.indexOf("other")).toBeLessThanOrEqual(2);
    expect(finished).toHaveLength(6);
  });

  it("refuses a flooder's extra work as busy, with Retry-After, while others are still taken", async () => {
    const size = BIG_STL.byteLength;
    const workers = pool({ size: 1, maxWaitingBytesPerOwner: 2 * size, maxWaitingBytes: 10 * size });
    await workers.run(tiny("warm-up"));
    const big = { bytes: BIG_STL, fileName: "big.stl", owner: "flooder" };
    const taken = [workers.run(big), workers.run(big), workers.run(big)]; // one running, two waiting
    const refused = await workers.run(big).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "busy", retryAfterSeconds: 60 });
    await expect(workers.run(tiny("someone-else"))).resolves.toMatchObject({ analysis: { fileFormat: "stl" } });
    await Promise.all(taken);
  });

  it("reads a stored file in the worker, so the request thread passes only its path", async () => {
    const workers = pool({ size: 1 });
    const path = CUBE_STL;
    const fromPath = await workers.run({ path, size: bytesOf(path).byteLength, fileName: "cube.stl" });
    expect(fromPath.analysis).toEqual((await analyzeInThread({ bytes: bytesOf(path), fileName: "cube.stl" })).analysis);
  });
});
