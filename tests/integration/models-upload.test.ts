import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { categories, libraryModels, modelFiles } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { action as uploadAction, loader as uploadLoader } from "../../app/routes/upload-model";
import { action as apiModelsAction } from "../../app/routes/api.models";
import { AnalysisBusyError, AnalysisPool } from "../../app/services/designs/analysis-pool.server";
import { LIMITS } from "../../app/services/designs/quotas.server";
import { loader as downloadLoader } from "../../app/routes/models.library.$id.download";
import { loader as imageLoader } from "../../app/routes/models.library.$id.image";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { analyzeModel, INVALID_FILE_TYPE_MESSAGE } from "../../app/domain/mesh";
import { IMAGE_TOO_MANY_PIXELS_MESSAGE, IMAGE_UNREADABLE_MESSAGE } from "../../app/domain/model-upload";
import { flushModelCounters } from "../../app/services/models/counters.server";
import { getDb } from "../../app/utils/db.server";
import { getToast } from "../../app/utils/toast.server";
import {
  args,
  createTestUser,
  formRequest,
  getRequest,
  jsonRequest,
  refusalMessages,
  run,
  sessionCookieFor,
} from "../setup/requests";
import { pngOf, pngText } from "../fixtures/images";

const CUBE_STL = readFileSync("tests/fixtures/models/trimesh_20mm-xyz-cube.stl");
// a real picture, with a text comment that must not be stored
const PNG = pngOf(3, 2, [pngText("Comment", "shot at 12 Elm St")]);

const valid = {
  name: "Desk Dragon",
  description: "A small dragon that guards your desk.",
  categoryId: "1",
  difficulty: "beginner",
  printTime: "",
  filamentWeight: "",
  license: "CC BY",
  tags: "",
};

function upload(fields: Record<string, string | Blob>, cookie?: string) {
  return run(() => uploadAction(args(formRequest("/upload-model", fields, { cookie }))));
}

async function errorsOf(res: Response) {
  return ((await res.json()) as { result: { error: Record<string, string[]> } }).result.error;
}

let cookie: string;
beforeAll(async () => {
  const db = await getDb();
  await db.insert(categories).values(CATEGORIES);
  cookie = await sessionCookieFor((await createTestUser()).id);
});

describe("/upload-model", () => {
  it("asks a visitor to log in, and refuses a visitor's post", async () => {
    const page = await uploadLoader(args(getRequest("/upload-model")));
    expect(page).toMatchObject({ signedIn: false, categories: [] });
    const res = await upload(valid);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth?redirectTo=%2Fupload-model");
  });

  it("gives a signed-in user the form with the categories", async () => {
    const page = await uploadLoader(args(getRequest("/upload-model", cookie)));
    expect(page.signedIn).toBe(true);
    expect(page.categories).toHaveLength(6);
    expect(page.maxModelBytes).toBe(52_428_800);
  });

  it("refuses bad input with the documented messages and keeps what was typed", async () => {
    const res = await upload({ ...valid, name: "ab", description: "too short", categoryId: "", printTime: "-5" }, cookie);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
    expect(body.result.error).toMatchObject({
      name: ["Name must be at least 3 characters"],
      description: ["Description must be at least 10 characters"],
      categoryId: ["Please select a category"],
      printTime: ["Print time must be at least 0 minutes"],
    });
    expect(body.result.initialValue.name).toBe("ab");
  });

  it("refuses a category that does not exist", async () => {
    const res = await upload({ ...valid, categoryId: "99" }, cookie);
    expect(res.status).toBe(400);
    expect((await errorsOf(res)).categoryId).toEqual(["Please select a category"]);
  });

  it("stores a model without files, with the document's defaults, and lands on its page with the success toast", async () => {
    const res = await upload(
      { ...valid, printTime: "abc", filamentWeight: "12.7", tags: " dragon, desk toy ,, Dragon ", difficulty: "", license: "" },
      cookie,
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/models\/library\/\d+$/);
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await getToast(new Request("http://x/", { headers: { cookie: cookies } }))).toast).toMatchObject({
      title: "Success!",
      description: "Your model has been uploaded successfully.",
    });
    const db = await getDb();
    const [row] = await db
      .select()
      .from(libraryModels)
      .where(eq(libraryModels.id, Number(location.split("/").pop())));
    expect(row).toMatchObject({
      name: "Desk Dragon",
      difficulty: "beginner",
      license: "CC BY",
      supportRequired: false,
      printTimeMinutes: 0,
      filamentWeightGrams: 12,
      tags: ["dragon", "desk toy"],
      imageKey: null,
    });
  });

  it("takes the weight and print time from the model file's analysis and serves the file as Download Files", async () => {
    const file = new File([CUBE_STL], "cube.stl", { type: "model/stl" });
    const image = new File([PNG], "photo.png", { type: "image/png" });
    const res = await upload(
      {
        ...valid,
        name: "Calibration Cube 20",
        printTime: "999",
        filamentWeight: "999",
        supportRequired: "on",
        license: "CC BY-SA",
        modelFile: file,
        image,
      },
      cookie,
    );
    expect(res.status).toBe(302);
    const id = Number(res.headers.get("location")!.split("/").pop());
    const expected = await analyzeModel(new Uint8Array(CUBE_STL), "cube.stl");

    const db = await getDb();
    const [row] = await db.select().from(libraryModels).where(eq(libraryModels.id, id));
    expect(row!.filamentWeightGrams).toBe(expected.estimatedWeight);
    expect(row!.printTimeMinutes).toBe(expected.estimatedTimeMinutes);
    expect(row!.filamentWeightGrams).not.toBe(999);
    expect(row).toMatchObject({ supportRequired: true, license: "CC BY-SA" });
    expect(row!.imageKey).toMatch(/^model-images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    const [stored] = await db.select().from(modelFiles).where(eq(modelFiles.libraryModelId, id));
    expect(stored).toMatchObject({ name: "cube.stl", format: "stl", sizeBytes: CUBE_STL.byteLength });
    expect(stored!.storageKey).toMatch(/^models\/\d{4}\/\d{2}\/[0-9a-f]{32}\.stl$/);
    expect(stored!.analysis).toMatchObject({ estimatedWeight: expected.estimatedWeight, fileFormat: "stl" });

    const page = await detailLoader(args(getRequest(`/models/library/${id}`), { source: "library", id: String(id) }));
    expect(page.model.file).toEqual({ name: "cube.stl", format: "stl", sizeBytes: CUBE_STL.byteLength });
    expect(page.model.thumbnailUrl).toBe(`/models/library/${id}/image`);

    const download = await downloadLoader(args(getRequest(`/models/library/${id}/download`), { id: String(id) }));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain('filename="cube.stl"');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(new Uint8Array(CUBE_STL));
    // downloads are written in the background; flushing now writes this one
    await flushModelCounters();
    const [after] = await db.select().from(libraryModels).where(eq(libraryModels.id, id));
    expect(after!.downloadCount).toBe(1);

    const picture = await imageLoader(args(getRequest(`/models/library/${id}/image`), { id: String(id) }));
    expect(picture.headers.get("content-type")).toBe("image/png");
    // the picture as sharp re-encoded it: the same size and format, its comment gone
    const pictureBytes = Buffer.from(await picture.arrayBuffer());
    const pictureMeta = await sharp(pictureBytes).metadata();
    expect(pictureMeta).toMatchObject({ format: "png", width: 3, height: 2 });
    expect(pictureMeta.comments).toBeUndefined();
    expect(pictureBytes.includes("Elm St")).toBe(false);
  });

  it("renders a PNG thumbnail from the mesh when a model file comes without an image", async () => {
    const res = await upload(
      { ...valid, name: "Thumbnail Cube", modelFile: new File([CUBE_STL], "cube.stl", { type: "model/stl" }) },
      cookie,
    );
    expect(res.status).toBe(302);
    const id = Number(res.headers.get("location")!.split("/").pop());
    const [row] = await (await getDb()).select().from(libraryModels).where(eq(libraryModels.id, id));
    expect(row!.imageKey).toMatch(/^model-images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    const picture = await imageLoader(args(getRequest(`/models/library/${id}/image`), { id: String(id) }));
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await picture.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("answers 404 for the download or image of a model without them", async () => {
    const res = await upload(valid, cookie);
    const id = res.headers.get("location")!.split("/").pop()!;
    expect((await run(() => downloadLoader(args(getRequest(`/models/library/${id}/download`), { id })))).status).toBe(404);
    expect((await run(() => imageLoader(args(getRequest(`/models/library/${id}/image`), { id })))).status).toBe(404);
    expect((await run(() => downloadLoader(args(getRequest("/models/library/x/download"), { id: "x" })))).status).toBe(404);
  });

  it("checks the model file by extension and by content", async () => {
    const wrongExtension = await upload({ ...valid, modelFile: new File(["solid x"], "model.txt") }, cookie);
    expect(wrongExtension.status).toBe(400);
    expect((await errorsOf(wrongExtension)).modelFile).toEqual([INVALID_FILE_TYPE_MESSAGE]);

    const pictureNamedStl = await upload({ ...valid, modelFile: new File([PNG], "sneaky.stl") }, cookie);
    expect(pictureNamedStl.status).toBe(400);
    expect((await errorsOf(pictureNamedStl)).modelFile).toEqual([INVALID_FILE_TYPE_MESSAGE]);

    const broken = await upload({ ...valid, modelFile: new File([new Uint8Array(120).fill(7)], "broken.stl") }, cookie);
    expect(broken.status).toBe(400);
    expect((await errorsOf(broken)).modelFile?.[0]).toBeTruthy();
  });

  it("checks the image by its bytes, not its name", async () => {
    const text = await upload({ ...valid, image: new File(["not a picture"], "photo.png", { type: "image/png" }) }, cookie);
    expect(text.status).toBe(400);
    expect((await errorsOf(text)).image).toEqual(["Image must be a PNG, JPEG or WebP file"]);
    const gif = await upload({ ...valid, image: new File(["GIF89a..."], "anim.gif", { type: "image/gif" }) }, cookie);
    expect((await errorsOf(gif)).image).toEqual(["Image must be a PNG, JPEG or WebP file"]);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    const tooBig = await upload({ ...valid, image: new File([big], "huge.png", { type: "image/png" }) }, cookie);
    expect((await errorsOf(tooBig)).image).toEqual(["Image must be 5 MB or smaller"]);
    const manyPixels = await upload({ ...valid, image: new File([pngOf(100_000, 100_000, [], false)], "wide.png") }, cookie);
    expect((await errorsOf(manyPixels)).image).toEqual([IMAGE_TOO_MANY_PIXELS_MESSAGE]);
    const broken = await upload({ ...valid, image: new File([pngOf(3, 2).subarray(0, 40)], "cut.png") }, cookie);
    expect((await errorsOf(broken)).image).toEqual([IMAGE_UNREADABLE_MESSAGE]);
  });

  it("refuses a model file over 50 MB with the documented message and stores nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(libraryModels)).length;
    const huge = new File([new Uint8Array(52_428_800 + 1)], "huge.stl");
    const res = await upload({ ...valid, modelFile: huge }, cookie);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.modelFile).toEqual(["File size exceeds 50MB limit"]);
    expect((await db.select().from(libraryModels)).length).toBe(before);
  });

  it("caps model uploads per customer per hour: the page and POST /api/models answer 429 and store nothing", async () => {
    const user = await createTestUser();
    const busy = await sessionCookieFor(user.id);
    const saved = LIMITS.modelUploadsPerHour;
    LIMITS.modelUploadsPerHour = 2;
    try {
      expect((await upload(valid, busy)).status).toBe(302);
      const payload = { name: "API Bracket", description: "An L bracket made through the API.", categoryId: 3, license: "CC BY" };
      expect((await run(() => apiModelsAction(args(jsonRequest("/api/models", payload, { cookie: busy }))))).status).toBe(201);

      const db = await getDb();
      const before = (await db.select().from(libraryModels)).length;
      const page = await upload({ ...valid, modelFile: new File([CUBE_STL], "cube.stl") }, busy);
      expect(page.status).toBe(429);
      const body = (await page.json()) as { result: { error: Record<string, string[]> } };
      const [message] = body.result.error[""]!;
      expect(message).toMatch(/^You have uploaded many models in the last hour\. Please try again in \d+ minutes?\.$/);
      const api = await run(() => apiModelsAction(args(jsonRequest("/api/models", payload, { cookie: busy }))));
      expect(api.status).toBe(429);
      expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await api.json()).message).toBe(message);
      expect((await db.select().from(libraryModels)).length).toBe(before);
    } finally {
      LIMITS.modelUploadsPerHour = saved;
    }
    // someone else is not affected
    expect((await upload(valid, cookie)).status).toBe(302);
  });

  it("analyses the file in the analysis pool, and answers 503 when the pool is full", async () => {
    const run_ = vi.spyOn(AnalysisPool.prototype, "run");
    try {
      const ok = await upload({ ...valid, modelFile: new File([CUBE_STL], "cube.stl") }, cookie);
      expect(ok.status).toBe(302);
      expect(run_).toHaveBeenCalledTimes(1);

      run_.mockRejectedValueOnce(new AnalysisBusyError());
      const db = await getDb();
      const before = (await db.select().from(libraryModels)).length;
      const busy = await upload({ ...valid, modelFile: new File([CUBE_STL], "cube.stl") }, cookie);
      expect(busy.status).toBe(503);
      expect(await refusalMessages(busy)).toEqual(["The analysis service is busy; please try again in a minute."]);
      expect((await db.select().from(libraryModels)).length).toBe(before);
    } finally {
      run_.mockRestore();
    }
  });
});
