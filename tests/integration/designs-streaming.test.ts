// Upload capacity: a design is written to disk as it arrives (never whole in memory), analysed from there, and
// many small uploads at once all get through one worker.
import { readFileSync, statSync } from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_DESIGN_BYTES } from "../../app/domain/design-settings";
import { action as saveDraftAction } from "../../app/routes/api.save-draft";
import { AnalysisPool, type AnalysisJob } from "../../app/services/designs/analysis-pool.server";
import { readDesignForm } from "../../app/routes/upload/design-form.server";
import { args, createTestUser, run, sessionCookieFor, streamedMultipart } from "../setup/requests";
import { fileOf, multipartRequest, storedFiles } from "../fixtures/designs/helpers";
import { testUploadsDir } from "../setup/uploads";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const MIB = 1024 * 1024;

const uploads = testUploadsDir();
let cookie: string;
beforeAll(async () => {
  cookie = await sessionCookieFor((await createTestUser()).id);
});

/** The upload API's multipart post, its file generated as it is read. */
function streamedUpload(fileBytes: number, settingsAfter: Record<string, string> = {}): Request {
  return streamedMultipart("http://localhost:3000/api/save-draft", "file", fileBytes, settingsAfter);
}

describe("streaming uploads to disk", () => {
  it("takes ten concurrent 49 MB uploads without holding their bytes in memory", async () => {
    const size = 49 * MIB;
    global.gc?.();
    const before = process.memoryUsage();
    let peakBuffers = before.arrayBuffers;
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
      peakRss = Math.max(peakRss, now.rss);
    }, 10);
    const forms = await Promise.all(Array.from({ length: 10 }, () => readDesignForm(streamedUpload(size, { material: "PETG" }))));
    clearInterval(sampler);
    try {
      for (const form of forms) {
        expect(form.error).toBeNull();
        expect(form.fields.get("material")).toBe("PETG");
        expect(form.file).toMatchObject({ size, name: "big.stl" });
        expect(statSync(form.file!.path).size).toBe(size);
      }
      // 490 MB went through; holding the files would take at least that much
      expect(peakBuffers - before.arrayBuffers).toBeLessThan(64 * MIB);
      expect(peakRss - before.rss).toBeLessThan(200 * MIB);
    } finally {
      await Promise.all(forms.map((f) => f.discard()));
    }
    for (const form of forms) expect(() => statSync(form.file!.path)).toThrow();
  });

  it("cuts a file at 50 MB as it streams, keeps the settings sent after it, and leaves nothing on disk", async () => {
    const before = storedFiles(uploads).length;
    const form = await readDesignForm(streamedUpload(MAX_DESIGN_BYTES + 1, { material: "TPU", infill: "30" }));
    expect(form.error).toMatchObject({ code: "too_large", message: "File size exceeds 50MB limit", field: "file" });
    expect(form.file).toBeNull();
    expect(Object.fromEntries(form.fields)).toEqual({ material: "TPU", infill: "30" });
    expect(storedFiles(uploads).length).toBe(before);
  });

  it("hands the analysis the stored file's path, never its bytes, and removes the incoming copy", async () => {
    const runs = vi.spyOn(AnalysisPool.prototype, "run");
    try {
      const res = await run(() =>
        saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie }))),
      );
      expect(res.status).toBe(201);
      const job = runs.mock.calls[0][0] as AnalysisJob;
      expect(job.bytes).toBeUndefined();
      expect(job.size).toBe(readFileSync(CUBE_STL).byteLength);
      expect(job.owner).toMatch(/^\d+$/);
      expect(storedFiles(uploads).filter((path) => path.includes(".incoming"))).toEqual([]);
    } finally {
      runs.mockRestore();
    }
  });
});

/** The same request with its body's length declared. */
async function declaredLength(request: Request): Promise<Request> {
  const body = new Uint8Array(await request.arrayBuffer());
  const headers = { "content-type": request.headers.get("content-type")!, "content-length": String(body.byteLength), cookie };
  return new Request(request.url, { method: request.method, headers, body });
}

describe("capacity", () => {
  it("answers all of 30 simultaneous tiny uploads with one worker and a small queue", async () => {
    const saved = globalThis.__printnearAnalysisPool;
    const small = new AnalysisPool({ size: 1, maxWaitingBytes: 1 * MIB });
    globalThis.__printnearAnalysisPool = small;
    try {
      // each declares its length, as a browser's form post does: the scratch budget reserves that, not 50 MB
      const requests = await Promise.all(
        Array.from({ length: 30 }, () =>
          declaredLength(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie })),
        ),
      );
      const answers = await Promise.all(requests.map((request) => run(() => saveDraftAction(args(request)))));
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
    } finally {
      globalThis.__printnearAnalysisPool = saved;
      await small.close();
    }
  });
});
