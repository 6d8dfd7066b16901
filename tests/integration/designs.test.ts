// The upload flow against a real database and storage folder: page action (no JavaScript), the API calls, drafts.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { printJobs, rateLimits } from "../../db/schema";
import { quotePrice } from "../../app/domain/pricing";
import { action as uploadAction, loader as uploadLoader } from "../../app/routes/upload/route";
import { action as savedPrintsAction, loader as savedPrintsLoader } from "../../app/routes/saved-prints";
import { action as saveDraftAction } from "../../app/routes/api.save-draft";
import { action as uploadDesignAction } from "../../app/routes/api.upload-design";
import { action as draftAction, loader as draftLoader } from "../../app/routes/api.drafts.$id";
import { loader as userDraftsLoader } from "../../app/routes/api.users.$id.drafts";
import { loader as previewLoader } from "../../app/routes/drafts.$id.preview[.]png";
import { loader as fileLoader } from "../../app/routes/drafts.$id.file";
import { designAlertOf, DesignSettingsSchema } from "../../app/domain/design-settings";
import { AppError } from "../../app/domain/app-error";
import { LIMITS, UPLOADS_PER_HOUR } from "../../app/services/designs/quotas.server";
import { updateDraft } from "../../app/services/designs/draft-writes.server";
import { getOwnDraft } from "../../app/services/designs/drafts.server";
import { getStorage } from "../../app/services/storage.server";
import { getDb } from "../../app/utils/db.server";
import { createTestPrinter } from "../setup/jobs";
import { args, createTestUser, flashedToast, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";
import { fileOf, fixture, multipartRequest, storedFiles } from "../fixtures/designs/helpers";
import { testUploadsDir } from "../setup/uploads";

const uploads = testUploadsDir();
const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const DODECA_3MF = "tests/fixtures/models/3mfc_dodeca_chain_loop.3mf";
const BLOCK_OBJ = "tests/fixtures/designs/block-40x30x10.obj";
const SETTINGS: Array<[string, string]> = [
  ["material", "PETG"],
  ["filamentColor", "Red"],
  ["layerHeight", "0.2"],
  ["infill", "20"],
  ["supports", "auto"],
  ["numberOfColors", "1"],
  ["deliveryMethod", "pickup"],
];

let cookie: string;
let otherCookie: string;
let customerId: number;

beforeAll(async () => {
  const user = await createTestUser();
  customerId = user.id;
  cookie = await sessionCookieFor(user.id);
  otherCookie = await sessionCookieFor((await createTestUser()).id);
});

async function job(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(printJobs).where(eq(printJobs.id, id));
  return row;
}

/** A Bambu Lab P1S at $120/kg in Berthoud (no map point): large enough for every fixture. */
function p1sOf(ownerId: number, overrides: { name: string; isAvailable?: boolean }) {
  return createTestPrinter(ownerId, {
    model: "Bambu Lab P1S",
    buildVolumeX: 256,
    buildVolumeY: 256,
    buildVolumeZ: 256,
    fitSmall: 256,
    fitMid: 256,
    fitLarge: 256,
    ratePerKgCents: 120000,
    location: "Berthoud, CO",
    latitude: null,
    longitude: null,
    ...overrides,
  });
}

function draftIdFrom(location: string | null): number {
  const match = /(?:draft|draftId|jobId)=(\d+)/.exec(location ?? "");
  if (!match) throw new Error(`no draft id in ${location}`);
  return Number(match[1]);
}

/** The alert the upload page draws from a refused post's result. */
const alertOf = (body: { result: Parameters<typeof designAlertOf>[0] }, editing = false) => designAlertOf(body.result, editing);

function uploadPage(parts: Array<[string, string | File]>, opts: { cookie?: string; query?: string } = {}) {
  return run(() => uploadAction(args(multipartRequest(`/upload${opts.query ?? ""}`, parts, { cookie: opts.cookie ?? cookie }))));
}

describe("the upload page without JavaScript", () => {
  it("sends a signed-out visitor to sign in and back", async () => {
    const res = await run(() => uploadLoader(args(getRequest("/upload?printer=2"))));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/upload?printer=2")}`);
  });

  it("saves an STL as a draft: analysed on the server, stored under our own key, priced at the default rate", async () => {
    const res = await uploadPage([
      ["file", fileOf(CUBE_STL, "my cube.stl")],
      ...SETTINGS,
      ["totalCost", "0.01"],
      ["intent", "save"],
    ]);
    expect(res.status).toBe(302);
    const id = draftIdFrom(res.headers.get("location"));
    expect(res.headers.get("location")).toBe(`/upload?draft=${id}`);
    expect(await flashedToast(res)).toMatchObject({
      title: "Draft Saved",
      description: "Your design has been saved as a draft. You can continue working on it later.",
    });

    const row = await job(id);
    expect(row).toMatchObject({
      status: "draft",
      customerId,
      fileName: "my cube.stl",
      fileFormat: "stl",
      material: "PETG",
      filamentColor: "Red",
    });
    expect(row.fileKey).toMatch(/^designs\/\d{4}\/\d{2}\/[0-9a-f]{32}\.stl$/);
    expect(row.fileKey).not.toContain("cube");
    expect(row.previewKey).toMatch(/^previews\//);
    expect((row.analysis as { method: string }).method).toBe("mesh");
    expect(row.boundingBoxX).toBeCloseTo(20, 1);
    expect(row.estimatedWeightGrams).toBeGreaterThan(2);
    expect(row.estimatedWeightGrams).toBeLessThan(8);
    expect(row.printTimeMinutes).not.toBe(60);
    const quote = quotePrice({
      weightGrams: row.estimatedWeightGrams,
      colors: 1,
      printTimeMinutes: row.printTimeMinutes,
      ratePerKgCents: 1500,
    });
    expect(row.totalCostCents).toBe(quote.customerPays);
    expect(row.printerProfitCents + row.platformFeeCents).toBe(row.totalCostCents);

    // the stored bytes are the uploaded bytes
    const stored = await getStorage().get(row.fileKey!);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(fixture(CUBE_STL));
  });

  it("sends Choose Printer with an OBJ to /printers with the real bounding box", async () => {
    const res = await uploadPage([
      ["file", fileOf(BLOCK_OBJ)],
      ...SETTINGS.filter(([k]) => k !== "material"),
      ["material", "PLA"],
      ["intent", "submit"],
    ]);
    expect(res.status).toBe(302);
    const id = draftIdFrom(res.headers.get("location"));
    const row = await job(id);
    expect(res.headers.get("location")).toBe(
      `/printers?material=PLA&color=Red&minX=40&minY=30&minZ=10&weight=${row.estimatedWeightGrams}&jobId=${id}`,
    );
    expect(await flashedToast(res)).toMatchObject({
      title: "Design Uploaded Successfully",
      description: "Searching for compatible printers in your area...",
    });
    expect(row.status).toBe("draft");
    expect(row.estimatedWeightGrams).toBeGreaterThan(3);
  });

  it("prices with the chosen printer's rate and goes on to submit there", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const printer = await p1sOf(owner.id, { name: "Test P1S" });
    const res = await uploadPage([
      ["file", fileOf(DODECA_3MF)],
      ...SETTINGS,
      ["printerId", String(printer.id)],
      ["intent", "submit"],
    ]);
    const id = draftIdFrom(res.headers.get("location"));
    expect(res.headers.get("location")).toBe(`/submit-print?printerId=${printer.id}&draftId=${id}`);
    const row = await job(id);
    expect(row.printerId).toBe(printer.id);
    const quote = quotePrice({
      weightGrams: row.estimatedWeightGrams,
      colors: 1,
      printTimeMinutes: row.printTimeMinutes,
      ratePerKgCents: 120000,
    });
    expect(row.totalCostCents).toBe(quote.customerPays);
    expect(row.estimatedWeightGrams).toBeGreaterThan(30);
  });

  it("refuses an offline printer named in the URL or the form, saying so, and saves nothing", async () => {
    const owner = await createTestUser({ userType: "printer_owner" });
    const printer = await p1sOf(owner.id, { name: "Offline P1S", isAvailable: false });
    const db = await getDb();
    const page = (await uploadLoader(args(getRequest(`/upload?printer=${printer.id}`, cookie)))) as Awaited<
      ReturnType<typeof uploadLoader>
    >;
    expect(page.printerRefusal).toBe("That printer is offline and not taking orders right now. Please choose another one.");
    expect(page.printer).toBeNull();

    const before = (await db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.customerId, customerId))).length;
    const res = await uploadPage(
      [["file", fileOf(CUBE_STL)], ...SETTINGS, ["printerId", String(printer.id)], ["intent", "submit"]],
      { query: `?printer=${printer.id}` },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("That printer is offline and not taking orders right now.");
    const after = (await db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.customerId, customerId))).length;
    expect(after).toBe(before);
  });

  it("asks for a file with the document's words and keeps the settings", async () => {
    const save = await uploadPage([...SETTINGS, ["intent", "save"]]);
    expect(save.status).toBe(400);
    const saved = await save.json();
    expect(alertOf(saved)).toEqual({ title: "File Required", message: "Please select a 3D file to save as draft." });
    expect(saved.result.initialValue).toMatchObject({ material: "PETG", filamentColor: "Red" });

    const submit = await uploadPage([["file", new File([], "")], ...SETTINGS, ["intent", "submit"]]);
    expect(submit.status).toBe(400);
    expect(alertOf(await submit.json())).toEqual({ title: "File Required", message: "Please select a 3D file to upload." });
  });

  it("refuses a renamed PNG by its content, stores nothing, and says to choose the file again", async () => {
    const before = storedFiles(uploads).length;
    const res = await uploadPage([["file", fileOf("tests/fixtures/designs/renamed-png.stl")], ...SETTINGS, ["intent", "save"]]);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(alertOf(body)?.message).toBe("Invalid file type. Only STL, OBJ, and 3MF files are allowed.");
    expect(body.result.error.file[0]).toBe(
      "Invalid file type. Only STL, OBJ, and 3MF files are allowed. Your settings are kept; please choose the file again.",
    );
    expect(body.result.initialValue.filamentColor).toBe("Red");
    expect(storedFiles(uploads).length).toBe(before);
  });

  it("refuses a wrong extension before reading the content", async () => {
    const res = await uploadPage([["file", new File(["solid x\nendsolid x\n"], "model.step")], ...SETTINGS, ["intent", "save"]]);
    expect(res.status).toBe(400);
    expect(alertOf(await res.json())?.message).toBe("Invalid file type. Only STL, OBJ, and 3MF files are allowed.");
  });

  it("refuses a 51 MB upload while it streams, keeping the settings posted after the file", async () => {
    const before = storedFiles(uploads).length;
    const big = new File([new Uint8Array(51 * 1024 * 1024)], "huge.stl");
    const res = await uploadPage([["file", big], ...SETTINGS, ["intent", "submit"]]);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(alertOf(body)).toEqual({ title: "Upload Failed", message: "File size exceeds 50MB limit" });
    expect(body.result.initialValue).toMatchObject({ material: "PETG", filamentColor: "Red", deliveryMethod: "pickup" });
    expect(storedFiles(uploads).length).toBe(before);
  });

  it("refuses a zip bomb and a truncated STL with the engine's message", async () => {
    const bomb = await uploadPage([["file", fileOf("tests/fixtures/designs/zip-bomb.3mf")], ...SETTINGS, ["intent", "save"]]);
    expect(bomb.status).toBe(400);
    expect(alertOf(await bomb.json())?.message).toMatch(/expands to more than 100 times its size/);
    const truncated = await uploadPage([
      ["file", fileOf("tests/fixtures/designs/truncated.stl")],
      ...SETTINGS,
      ["intent", "save"],
    ]);
    expect(truncated.status).toBe(400);
    expect(alertOf(await truncated.json())?.message).toMatch(/truncated/);
  });

  it("refuses an OBJ face that points at a missing vertex", async () => {
    const res = await uploadPage([
      ["file", fileOf("tests/fixtures/designs/missing-vertex.obj")],
      ...SETTINGS,
      ["intent", "save"],
    ]);
    expect(res.status).toBe(400);
    expect(alertOf(await res.json())?.message).toMatch(/vertex/);
  });

  it("estimates an unreadable but plausible OBJ from its size and says so", async () => {
    const res = await uploadPage([["file", fileOf("tests/fixtures/designs/short-face.obj")], ...SETTINGS, ["intent", "save"]]);
    expect(res.status).toBe(302);
    expect(await flashedToast(res)).toMatchObject({
      title: "Analysis Warning",
      description: "Using basic estimation. Upload will still work.",
    });
    const row = await job(draftIdFrom(res.headers.get("location")));
    expect(row.analysis).toMatchObject({ method: "file-size" });
    expect(row.previewKey).toBeNull();
    expect(row.boundingBoxX).toBeNull();
  });

  it("answers 400 for settings outside the lists, keeping what was typed", async () => {
    const res = await uploadPage([
      ["file", fileOf(CUBE_STL)],
      ["material", "Unobtainium"],
      ["numberOfColors", "12"],
      ["intent", "save"],
    ]);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.result.error.material[0]).toBe("Please choose PLA, PETG, ABS or TPU.");
    expect(body.result.error.numberOfColors[0]).toMatch(/from 1 to 8/);
    expect(body.result.initialValue.material).toBe("Unobtainium");
  });
});

describe("editing and deleting drafts", () => {
  async function newDraft(): Promise<number> {
    const res = await uploadPage([["file", fileOf(CUBE_STL)], ...SETTINGS, ["intent", "save"]]);
    return draftIdFrom(res.headers.get("location"));
  }

  it("re-measures the stored file when a setting that changes the weight changes", async () => {
    const id = await newDraft();
    const before = await job(id);
    const res = await uploadPage(
      [
        ["material", "PETG"],
        ["filamentColor", "Blue"],
        ["layerHeight", "0.2"],
        ["infill", "100"],
        ["supports", "auto"],
        ["numberOfColors", "3"],
        ["intent", "save"],
      ],
      { query: `?draft=${id}` },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/upload?draft=${id}`);
    expect(await flashedToast(res)).toMatchObject({ title: "Draft Updated" });
    const after = await job(id);
    expect(after.filamentColor).toBe("Blue");
    expect(after.estimatedWeightGrams).toBeGreaterThan(before.estimatedWeightGrams);
    expect(after.numberOfColors).toBe(3);
    expect(after.fileKey).toBe(before.fileKey);
    const quote = quotePrice({ weightGrams: after.estimatedWeightGrams, colors: 3, printTimeMinutes: after.printTimeMinutes });
    expect(after.totalCostCents).toBe(quote.customerPays);
    expect(quote.multicolorPremium).toBe(400);
  });

  it("replaces the file through PUT /api/drafts/{id} and removes the old one", async () => {
    const id = await newDraft();
    const before = await job(id);
    const res = await run(() =>
      draftAction(
        args(multipartRequest(`/api/drafts/${id}`, [["file", fileOf(BLOCK_OBJ)], ...SETTINGS], { cookie, method: "PUT" }), {
          id: String(id),
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jobId: id, status: "draft" });
    const after = await job(id);
    expect(after.fileName).toBe("block-40x30x10.obj");
    expect(after.fileKey).not.toBe(before.fileKey);
    expect(await getStorage().has(before.fileKey!)).toBe(false);
    expect(await getStorage().has(before.previewKey!)).toBe(false);
    expect(await getStorage().has(after.fileKey!)).toBe(true);
  });

  it("keeps the draft's file when a replacement is refused", async () => {
    const id = await newDraft();
    const res = await uploadPage([["file", fileOf("tests/fixtures/designs/renamed-png.stl")], ...SETTINGS, ["intent", "save"]], {
      query: `?draft=${id}`,
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(alertOf(body, true)?.title).toBe("Failed to Update Draft");
    expect(body.result.error.file[0]).toMatch(/The draft keeps its current file\.$/);
    expect((await job(id)).fileName).toBe("trimesh_20mm-xyz-cube.stl");
  });

  it("lists, serves and deletes only the owner's drafts", async () => {
    const id = await newDraft();
    const row = await job(id);

    const mine = await run(() => draftLoader(args(getRequest(`/api/drafts/${id}`, cookie), { id: String(id) })));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({
      id,
      fileName: "trimesh_20mm-xyz-cube.stl",
      material: "PETG",
      totalCost: (row.totalCostCents / 100).toFixed(2),
      printSettings: { quality: "normal", infill: 20, supports: "auto", numberOfColors: 1 },
      previewUrl: `/drafts/${id}/preview.png`,
    });

    const list = await run(() =>
      userDraftsLoader(args(getRequest(`/api/users/${customerId}/drafts`, cookie), { id: String(customerId) })),
    );
    expect((await list.json()).map((d: { id: number }) => d.id)).toContain(id);

    const preview = await run(() => previewLoader(args(getRequest(`/drafts/${id}/preview.png`, cookie), { id: String(id) })));
    expect(preview.headers.get("content-type")).toBe("image/png");
    expect(Array.from(new Uint8Array(await preview.arrayBuffer()).slice(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47]);

    const file = await run(() => fileLoader(args(getRequest(`/drafts/${id}/file`, cookie), { id: String(id) })));
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(fixture(CUBE_STL));

    // someone else: 404 everywhere, 403 for the list
    expect((await run(() => draftLoader(args(getRequest(`/api/drafts/${id}`, otherCookie), { id: String(id) })))).status).toBe(
      404,
    );
    expect(
      (await run(() => previewLoader(args(getRequest(`/drafts/${id}/preview.png`, otherCookie), { id: String(id) })))).status,
    ).toBe(404);
    expect((await run(() => fileLoader(args(getRequest(`/drafts/${id}/file`, otherCookie), { id: String(id) })))).status).toBe(
      404,
    );
    expect((await run(() => uploadLoader(args(getRequest(`/upload?draft=${id}`, otherCookie))))).status).toBe(404);
    expect(
      (
        await run(() =>
          userDraftsLoader(args(getRequest(`/api/users/${customerId}/drafts`, otherCookie), { id: String(customerId) })),
        )
      ).status,
    ).toBe(403);
    const put = await run(() =>
      draftAction(
        args(
          multipartRequest(`/api/drafts/${id}`, [...SETTINGS, ["filamentColor", "White"]], {
            cookie: otherCookie,
            method: "PUT",
          }),
          { id: String(id) },
        ),
      ),
    );
    expect(put.status).toBe(404);
    const del = await run(() =>
      draftAction(
        args(new Request(`http://localhost/api/drafts/${id}`, { method: "DELETE", headers: { cookie: otherCookie } }), {
          id: String(id),
        }),
      ),
    );
    expect(del.status).toBe(404);
    const pageDelete = await run(() =>
      savedPrintsAction(args(formRequest("/saved-prints", { intent: "delete", draftId: String(id) }, { cookie: otherCookie }))),
    );
    expect(pageDelete.status).toBe(404);
    expect(await job(id)).toBeTruthy();

    // the owner deletes it from /saved-prints: row and files go
    const page = await run(() => savedPrintsLoader(args(getRequest("/saved-prints", cookie))));
    expect((await page.json()).drafts.map((d: { id: number }) => d.id)).toContain(id);
    const gone = await run(() =>
      savedPrintsAction(args(formRequest("/saved-prints", { intent: "delete", draftId: String(id) }, { cookie }))),
    );
    expect(gone.status).toBe(302);
    expect(await flashedToast(gone)).toMatchObject({ title: "Draft Deleted" });
    expect(await job(id)).toBeUndefined();
    expect(await getStorage().has(row.fileKey!)).toBe(false);
    expect(await getStorage().has(row.previewKey!)).toBe(false);
  });

  it("DELETE /api/drafts/{id} removes the owner's draft once", async () => {
    const id = await newDraft();
    const request = () => new Request(`http://localhost/api/drafts/${id}`, { method: "DELETE", headers: { cookie } });
    expect((await run(() => draftAction(args(request(), { id: String(id) })))).status).toBe(200);
    expect((await run(() => draftAction(args(request(), { id: String(id) })))).status).toBe(404);
  });

  it("an ordered draft is no longer a draft: not editable, not listed", async () => {
    const id = await newDraft();
    const db = await getDb();
    await db.update(printJobs).set({ status: "submitted" }).where(eq(printJobs.id, id));
    const put = await run(() =>
      draftAction(args(multipartRequest(`/api/drafts/${id}`, SETTINGS, { cookie, method: "PUT" }), { id: String(id) })),
    );
    expect(put.status).toBe(404);
    const list = await run(() =>
      userDraftsLoader(args(getRequest(`/api/users/${customerId}/drafts`, cookie), { id: String(customerId) })),
    );
    expect((await list.json()).map((d: { id: number }) => d.id)).not.toContain(id);
  });
});

describe("edits racing each other", () => {
  async function newDraft(): Promise<number> {
    const res = await uploadPage([["file", fileOf(CUBE_STL)], ...SETTINGS, ["intent", "save"]]);
    return draftIdFrom(res.headers.get("location"));
  }

  /** A PUT whose body stalls after its first bytes until `release()`: the route has read the draft by then. */
  async function stalledPut(id: number, parts: Array<[string, string | File]>) {
    const template = multipartRequest(`/api/drafts/${id}`, parts, { cookie, method: "PUT" });
    const bytes = new Uint8Array(await template.arrayBuffer());
    let reading!: () => void;
    const bodyRead = new Promise<void>((resolve) => (reading = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          pulls += 1;
          if (pulls === 1) {
            controller.enqueue(bytes.subarray(0, 16));
            return;
          }
          reading();
          await gate;
          controller.enqueue(bytes.subarray(16));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://localhost:3000/api/drafts/${id}`, {
      method: "PUT",
      body,
      headers: { cookie, "content-type": template.headers.get("content-type")! },
      duplex: "half",
    } as RequestInit);
    const answer = run(() => draftAction(args(request, { id: String(id) })));
    return { answer, bodyRead, release };
  }

  it("refuses a settings-only PUT that read the draft before another request replaced its file; the price stays the new file's", async () => {
    const id = await newDraft();
    const slow = await stalledPut(
      id,
      SETTINGS.map(([k, v]): [string, string] => [k, k === "filamentColor" ? "Blue" : v]),
    );
    await slow.bodyRead;

    // meanwhile, another tab replaces the file
    const replace = await run(() =>
      draftAction(
        args(multipartRequest(`/api/drafts/${id}`, [["file", fileOf(BLOCK_OBJ)], ...SETTINGS], { cookie, method: "PUT" }), {
          id: String(id),
        }),
      ),
    );
    expect(replace.status).toBe(200);
    const replaced = await job(id);

    slow.release();
    const stale = await slow.answer;
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ message: "This draft changed in another tab. Reload and try again." });

    const after = await job(id);
    expect(after).toEqual(replaced);
    expect(after.fileName).toBe("block-40x30x10.obj");
    expect(after.filamentColor).toBe("Red");
    // the stored price is the one worked out for the stored file
    const analysis = after.analysis as { estimatedWeight: number; estimatedTimeMinutes: number };
    expect(after.estimatedWeightGrams).toBe(analysis.estimatedWeight);
    const quote = quotePrice({
      weightGrams: analysis.estimatedWeight,
      colors: 1,
      printTimeMinutes: Math.max(1, Math.round(analysis.estimatedTimeMinutes)),
    });
    expect(after.totalCostCents).toBe(quote.customerPays);

    // a fresh read edits normally
    const retry = await run(() =>
      draftAction(
        args(
          multipartRequest(
            `/api/drafts/${id}`,
            SETTINGS.map(([k, v]): [string, string] => [k, k === "filamentColor" ? "Blue" : v]),
            { cookie, method: "PUT" },
          ),
          { id: String(id) },
        ),
      ),
    );
    expect(retry.status).toBe(200);
    expect((await job(id)).filamentColor).toBe("Blue");
  });

  it("moves the version on even when two writes fall in the same millisecond", async () => {
    const id = await newDraft();
    const read = (await getOwnDraft(customerId, id))!;
    const settings = DesignSettingsSchema.parse({
      ...Object.fromEntries(SETTINGS),
      layerHeight: 0.2,
      infill: 20,
      numberOfColors: 1,
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // the clock reads the very millisecond the draft was last written
      vi.setSystemTime(read.updatedAt);
      const first = await updateDraft(read, { ...settings, filamentColor: "White" }, {});
      expect(first.job.updatedAt.getTime()).toBeGreaterThan(read.updatedAt.getTime());
      const stale = updateDraft(read, { ...settings, filamentColor: "Green" }, {});
      await expect(stale).rejects.toBeInstanceOf(AppError);
      await expect(stale).rejects.toMatchObject({
        code: "conflict",
        message: "This draft changed in another tab. Reload and try again.",
      });
    } finally {
      vi.useRealTimers();
    }
    expect((await job(id)).filamentColor).toBe("White");
  });

  it("still says 'no longer exists' for a draft that was ordered meanwhile", async () => {
    const id = await newDraft();
    const read = (await getOwnDraft(customerId, id))!;
    const db = await getDb();
    await db.update(printJobs).set({ status: "submitted" }).where(eq(printJobs.id, id));
    const settings = DesignSettingsSchema.parse({
      ...Object.fromEntries(SETTINGS),
      layerHeight: 0.2,
      infill: 20,
      numberOfColors: 1,
    });
    await expect(updateDraft(read, settings, {})).rejects.toThrow("This draft no longer exists or has already been submitted.");
  });
});

describe("how many drafts a customer keeps", () => {
  it("refuses a new draft at the cap (page and API) but still edits the ones kept", async () => {
    const user = await createTestUser();
    const capped = await sessionCookieFor(user.id);
    const saved = LIMITS.draftsPerCustomer;
    LIMITS.draftsPerCustomer = 2;
    try {
      const ids: number[] = [];
      for (let k = 0; k < 2; k++) {
        const res = await uploadPage([["file", fileOf(CUBE_STL)], ...SETTINGS, ["intent", "save"]], { cookie: capped });
        expect(res.status).toBe(302);
        ids.push(draftIdFrom(res.headers.get("location")));
      }
      const page = await uploadPage([["file", fileOf(CUBE_STL)], ...SETTINGS, ["intent", "save"]], { cookie: capped });
      expect(page.status).toBe(409);
      expect(alertOf(await page.json())).toEqual({
        title: "Failed to Save Draft",
        message: "You have 2 saved drafts. Delete some before saving more.",
      });
      const api = await run(() =>
        saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie: capped }))),
      );
      expect(api.status).toBe(409);
      expect((await api.json()).message).toBe("You have 2 saved drafts. Delete some before saving more.");
      const db = await getDb();
      expect(await db.select().from(printJobs).where(eq(printJobs.customerId, user.id))).toHaveLength(2);

      const white = SETTINGS.map(([k, v]): [string, string] => [k, k === "filamentColor" ? "White" : v]);
      const edit = await uploadPage([...white, ["intent", "save"]], { cookie: capped, query: `?draft=${ids[0]}` });
      expect(edit.status).toBe(302);
    } finally {
      LIMITS.draftsPerCustomer = saved;
    }
    expect(LIMITS.draftsPerCustomer).toBe(200);
  });
});

describe("the upload and draft API", () => {
  it("answers 401 without a session", async () => {
    const res = await run(() => saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]]))));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Not authenticated" });
  });

  it("POST /api/upload-design takes the documented fields, answers jobId and ignores the client's price and weight", async () => {
    const res = await run(() =>
      uploadDesignAction(
        args(
          multipartRequest(
            "/api/upload-design",
            [
              ["file", fileOf(CUBE_STL)],
              ["material", "ABS"],
              ["filamentColor", "White"],
              ["deliveryMethod", "delivery"],
              ["specialInstructions", "  Sand the top  "],
              [
                "printSettings",
                JSON.stringify({ quality: "fine", infill: 50, supports: true, numberOfColors: 2, printTimeMinutes: 1 }),
              ],
              ["estimatedWeight", "9999"],
              ["totalCost", "$0.01"],
              ["status", "draft"],
            ],
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.redirectTo).toMatch(/^\/printers\?material=ABS&color=White&minX=20&minY=20&minZ=20&weight=/);
    expect(await flashedToast(res)).toMatchObject({ title: "Design Uploaded Successfully" });
    const row = await job(body.jobId);
    expect(row).toMatchObject({
      material: "ABS",
      layerHeight: 0.1,
      quality: "fine",
      infillPercent: 50,
      supports: "yes",
      numberOfColors: 2,
      deliveryMethod: "delivery",
      specialInstructions: "Sand the top",
    });
    expect(row.estimatedWeightGrams).toBeLessThan(20);
    expect(row.printTimeMinutes).toBeGreaterThan(1);
    expect(row.totalCostCents).toBe(
      quotePrice({ weightGrams: row.estimatedWeightGrams, colors: 2, printTimeMinutes: row.printTimeMinutes }).customerPays,
    );
  });

  it("POST /api/save-draft answers 413 past 50 MB and 400 for a missing file", async () => {
    const big = await run(() =>
      saveDraftAction(
        args(multipartRequest("/api/save-draft", [["file", new File([new Uint8Array(52_428_801)], "big.3mf")]], { cookie })),
      ),
    );
    expect(big.status).toBe(413);
    expect((await big.json()).message).toBe("File size exceeds 50MB limit");
    const none = await run(() => saveDraftAction(args(multipartRequest("/api/save-draft", [["material", "PLA"]], { cookie }))));
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ title: "File Required", message: "Please select a 3D file to save as draft." });
  });

  it("a refused API post carries conform's result, with what was typed and the error on its field", async () => {
    const res = await run(() =>
      saveDraftAction(
        args(
          multipartRequest(
            "/api/save-draft",
            [
              ["file", fileOf("tests/fixtures/designs/renamed-png.stl")],
              ["material", "TPU"],
              ["infill", "30"],
            ],
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({
      title: "Failed to Save Draft",
      message: "Invalid file type. Only STL, OBJ, and 3MF files are allowed.",
    });
    expect(body.result.status).toBe("error");
    expect(body.result.initialValue).toMatchObject({ material: "TPU", infill: "30" });
    expect(body.result.error.file).toEqual([
      "Invalid file type. Only STL, OBJ, and 3MF files are allowed. Your settings are kept; please choose the file again.",
    ]);

    const badSettings = await run(() =>
      saveDraftAction(
        args(
          multipartRequest(
            "/api/save-draft",
            [
              ["file", fileOf(CUBE_STL)],
              ["material", "Gold"],
            ],
            { cookie },
          ),
        ),
      ),
    );
    expect(badSettings.status).toBe(400);
    expect((await badSettings.json()).result.error.material).toEqual(["Please choose PLA, PETG, ABS or TPU."]);
  });

  it("answers 405 with Allow for a method an upload call does not take", async () => {
    const res = await run(() =>
      saveDraftAction(args(new Request("http://localhost:3000/api/save-draft", { method: "PUT", headers: { cookie } }))),
    );
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("keeps a file name without the right-to-left override that would disguise it", async () => {
    const res = await run(() =>
      saveDraftAction(
        args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL, "cube\u202Eltsgpj.stl")]], { cookie })),
      ),
    );
    expect(res.status).toBe(201);
    const row = await job((await res.json()).jobId);
    expect(row.fileName).toBe("cubeltsgpj.stl");
  });

  it("caps uploads per customer per hour with 429", async () => {
    const user = await createTestUser();
    const busyCookie = await sessionCookieFor(user.id);
    const db = await getDb();
    await db.insert(rateLimits).values({ key: `design-upload:${user.id}`, count: UPLOADS_PER_HOUR, windowStart: new Date() });
    const res = await run(() =>
      saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie: busyCookie }))),
    );
    expect(res.status).toBe(429);
    expect((await res.json()).message).toMatch(/try again later/);
  });

  it("accepts a file of exactly 50 MB as far as the size goes", async () => {
    // a 52428800-byte binary STL: 84-byte header + 1048574 triangles of 50 bytes, plus 16 bytes of padding
    const bytes = new Uint8Array(52_428_800);
    new DataView(bytes.buffer).setUint32(80, 1_048_574, true);
    const res = await run(() =>
      saveDraftAction(args(multipartRequest("/api/save-draft", [["file", new File([bytes], "flat.stl")]], { cookie }))),
    );
    expect(res.status).not.toBe(413);
  });
});

it("keeps nothing on disk under the customer's file name", () => {
  const paths = storedFiles(uploads);
  expect(paths.length).toBeGreaterThan(0);
  for (const path of paths) expect(path).not.toMatch(/cube|block|trimesh|dodeca/);
});
