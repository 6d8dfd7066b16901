// The library upload (/upload-model) keeps to the upload hardening: the form streams to disk (never whole in
// memory), the pool reads the model from its path in its uploader's own lane and renders the thumbnail, and a
// full pool answers 503 with Retry-After.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { categories, libraryModels } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { action as uploadAction } from "../../app/routes/upload-model";
import { AnalysisBusyError, AnalysisPool, type AnalysisJob } from "../../app/services/designs/analysis-pool.server";
import { LIBRARY_THUMBNAIL_SIZE } from "../../app/services/models/library-upload.server";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, formRequest, refusalMessages, run, sessionCookieFor, streamedMultipart } from "../setup/requests";
import { storedFiles } from "../fixtures/designs/helpers";
import { ONE_PIXEL_PNG } from "../fixtures/images";
import { testUploadsDir } from "../setup/uploads";

const CUBE_STL = readFileSync("tests/fixtures/models/trimesh_20mm-xyz-cube.stl");
const PNG = ONE_PIXEL_PNG;
const MIB = 1024 * 1024;
const FIELDS = {
  name: "Streamed Dragon",
  description: "A dragon that arrives in pieces.",
  categoryId: "1",
  difficulty: "beginner",
  license: "CC BY",
};

const uploads = testUploadsDir();
let userId: number;
let cookie: string;
beforeAll(async () => {
  await (await getDb()).insert(categories).values(CATEGORIES);
  userId = (await createTestUser()).id;
  cookie = await sessionCookieFor(userId);
});

const incoming = () => storedFiles(uploads).filter((path) => path.includes(".incoming"));

/** A /upload-model post, its model file generated as it is read. */
function streamedUpload(fileBytes: number, fieldsAfter: Record<string, string>): Request {
  return streamedMultipart("http://localhost:3000/upload-model", "modelFile", fileBytes, fieldsAfter, { cookie });
}

describe("/upload-model streams to disk", () => {
  it("takes four concurrent 49 MB uploads without holding their bytes in memory, and keeps no incoming file", async () => {
    const size = 49 * MIB;
    global.gc?.();
    const before = process.memoryUsage();
    let peakBuffers = before.arrayBuffers;
    const sampler = setInterval(() => {
      peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
    }, 10);
    const runs = vi.spyOn(AnalysisPool.prototype, "run");
    let answers: Response[];
    try {
      answers = await Promise.all(Array.from({ length: 4 }, () => run(() => uploadAction(args(streamedUpload(size, FIELDS))))));
    } finally {
      clearInterval(sampler);
    }
    const jobs = runs.mock.calls.map(([job]) => job);
    runs.mockRestore();
    // 196 MB went through; holding the files (and the copies arrayBuffer() makes) would take at least that much
    expect(peakBuffers - before.arrayBuffers).toBeLessThan(64 * MIB);
    // every file reached the analysis from its path on disk, whole (a file of spaces is no model: refused on its field)
    expect(jobs).toHaveLength(4);
    for (const job of jobs) {
      expect(job.bytes).toBeUndefined();
      expect(job.size).toBe(size);
    }
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
      expect(body.result.error.modelFile?.[0]).toBeTruthy();
      // the fields sent after the file were read and are kept
      expect(body.result.initialValue.name).toBe(FIELDS.name);
    }
    expect(incoming()).toEqual([]);
  });

  it("hands the pool the file's path under the uploader's own lane and asks it for the thumbnail", async () => {
    const runs = vi.spyOn(AnalysisPool.prototype, "run");
    try {
      const res = await run(() =>
        uploadAction(args(formRequest("/upload-model", { ...FIELDS, modelFile: new File([CUBE_STL], "cube.stl") }, { cookie }))),
      );
      expect(res.status).toBe(302);
      const job = runs.mock.calls[0]![0] as AnalysisJob;
      expect(job.bytes).toBeUndefined();
      expect(job.path).toBeTruthy();
      expect(job.size).toBe(CUBE_STL.byteLength);
      expect(job.owner).toBe(String(userId));
      expect(job.preview).toEqual(LIBRARY_THUMBNAIL_SIZE);

      // with a picture of its own, no thumbnail is rendered
      const withImage = await run(() =>
        uploadAction(
          args(
            formRequest(
              "/upload-model",
              { ...FIELDS, modelFile: new File([CUBE_STL], "cube.stl"), image: new File([PNG], "photo.png") },
              { cookie },
            ),
          ),
        ),
      );
      expect(withImage.status).toBe(302);
      expect((runs.mock.calls[1]![0] as AnalysisJob).preview).toBeNull();
      expect(incoming()).toEqual([]);
    } finally {
      runs.mockRestore();
    }
  });
});

describe("/upload-model when the analysis pool is full", () => {
  it("answers 503 with Retry-After, stores nothing and keeps no incoming file", async () => {
    const runs = vi.spyOn(AnalysisPool.prototype, "run").mockRejectedValueOnce(new AnalysisBusyError());
    try {
      const db = await getDb();
      const before = (await db.select().from(libraryModels)).length;
      const busy = await run(() =>
        uploadAction(args(formRequest("/upload-model", { ...FIELDS, modelFile: new File([CUBE_STL], "cube.stl") }, { cookie }))),
      );
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("60");
      expect(await refusalMessages(busy)).toEqual(["The analysis service is busy; please try again in a minute."]);
      expect((await db.select().from(libraryModels)).length).toBe(before);
      expect(incoming()).toEqual([]);
    } finally {
      runs.mockRestore();
    }
  });
});
