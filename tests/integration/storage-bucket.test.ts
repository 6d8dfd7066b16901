// Stored files in an S3-compatible bucket (s3rver on loopback, started here): the storage itself, the upload,
// preview, download and delete flows with the same routes and rules as on a folder, the library and printer
// pictures, and the one-off copy of an uploads folder into the bucket.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { openAsBlob } from "node:fs";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { categories, printJobs } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { action as uploadAction } from "../../app/routes/upload/route";
import { action as savedPrintsAction } from "../../app/routes/saved-prints";
import { loader as previewLoader } from "../../app/routes/drafts.$id.preview[.]png";
import { loader as fileLoader } from "../../app/routes/drafts.$id.file";
import { action as uploadModelAction } from "../../app/routes/upload-model";
import { loader as downloadLoader } from "../../app/routes/models.library.$id.download";
import { loader as modelImageLoader } from "../../app/routes/models.library.$id.image";
import { loader as printerImageLoader } from "../../app/routes/api.printer-images.$file";
import { storePrinterPhoto } from "../../app/services/printers/images.server";
import { getStorage, openStorage } from "../../app/services/storage.server";
import { createBucketStorage } from "../../app/services/storage/bucket.server";
import { storageConfig, type BucketConfig } from "../../app/services/storage/config.server";
import { copyStoredFiles } from "../../app/services/storage/copy.server";
import { getDb } from "../../app/utils/db.server";
import { startBucket, type TestBucket } from "../setup/bucket";
import { testUploadsDir } from "../setup/uploads";
import { args, createTestUser, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";
import { fileOf, fixture, multipartRequest, storedFiles } from "../fixtures/designs/helpers";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
// a real 1×1 PNG
const PNG = Uint8Array.from(
  Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8cf500f00038601805a347d6b0000000049454e44ae426082",
    "hex",
  ),
);

let bucket: TestBucket;
let bucketConfig: BucketConfig;
let cookie: string;
const folder = resolve(mkdtempSync("tests/.tmp/bucket-"));

beforeAll(async () => {
  bucket = await startBucket(join(folder, "s3rver"));
  // the app's storage reads these names; the uploads folder keeps only the scratch of arriving uploads
  Object.assign(process.env, bucket.env);
  globalThis.__printnearStorage = undefined;
  bucketConfig = storageConfig().bucket!;
  cookie = await sessionCookieFor((await createTestUser()).id);
  const db = await getDb();
  await db.insert(categories).values(CATEGORIES);
});

afterAll(async () => {
  await bucket.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The bucket as another machine sees it: a client of its own. */
const elsewhere = () => createBucketStorage(bucketConfig);

async function bytesOf(response: Response) {
  return new Uint8Array(await response.arrayBuffer());
}

/** Byte for byte (a deep equality of megabytes takes the matcher seconds). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

describe("the bucket storage", () => {
  it("keeps a file's bytes, name and type; answers null for a missing key; removes", async () => {
    const storage = getStorage();
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    await storage.set("designs/test/a.stl", new File([bytes], "bracket ü.stl", { type: "model/stl" }));
    const file = (await elsewhere().get("designs/test/a.stl"))!;
    expect([file.name, file.type, file.size]).toEqual(["bracket ü.stl", "model/stl", bytes.length]);
    expect(same(new Uint8Array(await file.arrayBuffer()), bytes)).toBe(true);
    // a second read and a range each ask the bucket again
    expect(new Uint8Array(await file.slice(1000, 1010).arrayBuffer())).toEqual(bytes.subarray(1000, 1010));
    expect((await file.arrayBuffer()).byteLength).toBe(bytes.length);
    expect(await storage.get("designs/test/missing.stl")).toBeNull();
    expect(await storage.has("designs/test/a.stl")).toBe(true);
    await storage.remove("designs/test/a.stl");
    expect(await elsewhere().has("designs/test/a.stl")).toBe(false);
  });

  it("stores a file on disk as it reads it", async () => {
    const path = join(folder, "on-disk.bin");
    const bytes = new Uint8Array(3_000_000).map((_, i) => i % 251);
    writeFileSync(path, bytes);
    await getStorage().set("models/test/disk.bin", new File([await openAsBlob(path)], "disk.bin"));
    expect(same(new Uint8Array(await (await elsewhere().get("models/test/disk.bin"))!.arrayBuffer()), bytes)).toBe(true);
  });
});

describe("designs in the bucket", () => {
  it("an upload is analysed from scratch, stored in the bucket, served to its owner only, and deleted with its draft", async () => {
    const res = await run(() =>
      uploadAction(
        args(
          multipartRequest(
            "/upload",
            [
              ["file", fileOf(CUBE_STL, "cube.stl")],
              ["material", "PLA"],
              ["intent", "save"],
            ],
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(302);
    const id = Number(/draft=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);
    const db = await getDb();
    const [row] = await db.select().from(printJobs).where(eq(printJobs.id, id));
    expect((row.analysis as { method: string }).method).toBe("mesh");
    // both objects are in the bucket; the folder holds no stored file, and the scratch copy is gone
    expect(await elsewhere().has(row.fileKey!)).toBe(true);
    expect(await elsewhere().has(row.previewKey!)).toBe(true);
    expect(storedFiles(testUploadsDir())).toEqual([]);

    const preview = await run(() => previewLoader(args(getRequest(`/drafts/${id}/preview.png`, cookie), { id: String(id) })));
    expect(preview.status).toBe(200);
    expect([...(await bytesOf(preview)).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const file = await run(() => fileLoader(args(getRequest(`/drafts/${id}/file`, cookie), { id: String(id) })));
    expect(file.headers.get("content-length")).toBe(String(fixture(CUBE_STL).length));
    expect(await bytesOf(file)).toEqual(fixture(CUBE_STL));
    // never a public bucket URL: the same answer for anyone else as for a missing draft
    const stranger = await sessionCookieFor((await createTestUser()).id);
    expect((await run(() => fileLoader(args(getRequest(`/drafts/${id}/file`, stranger), { id: String(id) })))).status).toBe(404);

    const deleted = await run(() =>
      savedPrintsAction(args(formRequest("/saved-prints", { intent: "delete", draftId: String(id) }, { cookie }))),
    );
    expect(deleted.status).toBe(302);
    expect(await elsewhere().has(row.fileKey!)).toBe(false);
    expect(await elsewhere().has(row.previewKey!)).toBe(false);
  });
});

describe("pictures and library files in the bucket", () => {
  it("a library model's file and picture are stored in the bucket and served by their routes", async () => {
    const fields = {
      name: "Bucket Bracket",
      description: "A bracket that lives in a bucket.",
      categoryId: "1",
      difficulty: "beginner",
      license: "CC BY",
      modelFile: fileOf(CUBE_STL, "bracket.stl"),
      image: new File([PNG], "picture.png", { type: "image/png" }),
    };
    const created = await run(() => uploadModelAction(args(formRequest("/upload-model", fields, { cookie }))));
    expect(created.status).toBe(302);
    const id = Number(created.headers.get("location")!.split("/").pop());

    const image = await run(() => modelImageLoader(args(getRequest(`/models/library/${id}/image`), { id: String(id) })));
    expect(image.headers.get("content-type")).toBe("image/png");
    // stored as re-encoded on its way in (decision 017): a 1×1 PNG still
    expect(await sharp(await bytesOf(image)).metadata()).toMatchObject({ format: "png", width: 1, height: 1 });
    const download = await run(() => downloadLoader(args(getRequest(`/models/library/${id}/download`), { id: String(id) })));
    expect(await bytesOf(download)).toEqual(fixture(CUBE_STL));
    expect(storedFiles(testUploadsDir())).toEqual([]);
  });

  it("a printer photo is stored in the bucket and served by its route", async () => {
    const key = await storePrinterPhoto({ ext: "png", bytes: PNG as Uint8Array<ArrayBuffer> });
    expect(await elsewhere().has(key)).toBe(true);
    const [, , year, month, name] = /^(printer-images)\/(\d{4})\/(\d{2})\/(.+)$/.exec(key)!;
    const file = `${year}-${month}-${name}`;
    const res = await run(() => printerImageLoader(args(getRequest(`/api/printer-images/${file}`), { file })));
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(await bytesOf(res)).toEqual(PNG);
  });
});

describe("copying an uploads folder into the bucket", () => {
  it("copies every file once: a second run finds them all and copies nothing", async () => {
    const source = join(folder, "old-uploads");
    const old = openStorage({ directory: source, scratchDirectory: join(source, ".incoming"), bucket: null });
    const keys = ["designs/2024/01/old.stl", "model-images/2024/01/old.png", "previews/2024/01/old.png"];
    for (const [i, key] of keys.entries()) await old.set(key, new File([`file ${i}`], `f${i}`, { type: "text/plain" }));
    // an upload still arriving is scratch, not a stored file
    createFsFileStorage(source);
    writeFileSync(join(source, "leftover-not-stored"), "x");

    const first = await copyStoredFiles(createFsFileStorage(source), getStorage());
    expect(first).toMatchObject({ copied: 3, skipped: 0 });
    for (const [i, key] of keys.entries()) {
      const copied = (await elsewhere().get(key))!;
      expect([await copied.text(), copied.name, copied.type]).toEqual([`file ${i}`, `f${i}`, "text/plain"]);
    }
    const second = await copyStoredFiles(createFsFileStorage(source), getStorage());
    expect(second).toEqual({ copied: 0, skipped: 3, bytes: 0 });
  });
});
