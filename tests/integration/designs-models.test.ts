// Drafts made from models: library files from our storage, catalogue files downloaded through the msw Thingiverse mock.
import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";
import { categories, libraryModels, modelFiles, printJobs, rateLimits } from "../../db/schema";
import { loader as orderModelLoader, action as orderModelAction } from "../../app/routes/order-model.$source.$id";
import { action as createModelDraftAction } from "../../app/routes/api.create-model-draft";
import { action as downloadThingiverseAction } from "../../app/routes/api.download-thingiverse-model";
import { AppError } from "../../app/domain/app-error";
import { allowedDownloadUrl, CATALOGUE_DOWNLOAD_HOSTS, downloadCatalogueFile } from "../../app/services/catalogue/index.server";
import { LIMITS } from "../../app/services/designs/quotas.server";
import { getStorage, newStorageKey } from "../../app/services/storage.server";
import { getDb } from "../../app/utils/db.server";
import { FIXTURE_THING_NON_COMMERCIAL, FIXTURE_THING_WITHOUT_FILES } from "../mocks/thingiverse";
import { server } from "../setup/msw";
import { args, createTestUser, flashedToast, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";
import { fileOf } from "../fixtures/designs/helpers";

process.env.MOCKS = "true";
process.env.THINGIVERSE_TOKEN = "mock-token";

const CC_BY_THING = 6201001;
let cookie: string;
let creatorId: number;
let categoryId: number;

beforeAll(async () => {
  const user = await createTestUser();
  creatorId = user.id;
  cookie = await sessionCookieFor(user.id);
  const db = await getDb();
  const [category] = await db.insert(categories).values({ name: "Tools & Parts", slug: "tools-parts" }).returning();
  categoryId = category.id;
});

async function libraryModel(license: (typeof libraryModels.$inferInsert)["license"], withFile: boolean) {
  const db = await getDb();
  const [model] = await db
    .insert(libraryModels)
    .values({ creatorId, categoryId, name: `Bracket ${license}`, description: "A sturdy wall bracket.", license })
    .returning();
  if (withFile) {
    const key = newStorageKey("models", "stl");
    await getStorage().set(key, fileOf("tests/fixtures/designs/cylinder-r10-h30.stl"));
    await db
      .insert(modelFiles)
      .values({ libraryModelId: model.id, name: "bracket.stl", format: "stl", sizeBytes: 9684, storageKey: key });
  }
  return model;
}

/** The model page's Order Print button: a POST to /order-model/{source}/{id}. */
const orderPage = (source: string, id: number, withCookie = cookie) =>
  run(() =>
    orderModelAction(
      args(
        new Request(`http://localhost/order-model/${source}/${id}`, {
          method: "POST",
          headers: withCookie ? { cookie: withCookie } : {},
        }),
        {
          source,
          id: String(id),
        },
      ),
    ),
  );

async function draftCount(userId: number) {
  const db = await getDb();
  return (await db.select({ id: printJobs.id }).from(printJobs).where(eq(printJobs.customerId, userId))).length;
}

async function draft(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(printJobs).where(eq(printJobs.id, id));
  return row;
}

describe("/order-model/library/{id}", () => {
  it("sends a signed-out visitor to sign in, from the page and from the button", async () => {
    const res = await run(() => orderModelLoader(args(getRequest("/order-model/library/1"), { source: "library", id: "1" })));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/order-model/library/1")}`);
    const posted = await orderPage("library", 1, "");
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent("/order-model/library/1")}`);
  });

  it("a GET only shows the Continue form: no draft, no file copied, whoever linked here", async () => {
    const model = await libraryModel("CC BY", true);
    const before = await draftCount(creatorId);
    const page = (id: number, site?: string) =>
      run(() =>
        orderModelLoader(
          args(
            new Request(`http://localhost/order-model/library/${id}`, {
              headers: { cookie, ...(site ? { "sec-fetch-site": site } : {}) },
            }),
            {
              source: "library",
              id: String(id),
            },
          ),
        ),
      );
    const crossSite = await page(model.id, "cross-site");
    expect(crossSite.status).toBe(200);
    expect(await crossSite.json()).toEqual({ source: "library", id: model.id, modelName: "Bracket CC BY", autoSubmit: false });
    // typed, bookmarked or opened from another program: a click is still needed
    expect((await (await page(model.id, "none")).json()).autoSubmit).toBe(false);
    expect((await (await page(model.id)).json()).autoSubmit).toBe(false);
    // from our own pages (signing in first): the form submits itself when JavaScript runs
    expect((await (await page(model.id, "same-origin")).json()).autoSubmit).toBe(true);
    expect(await draftCount(creatorId)).toBe(before);
    expect((await page(999999, "cross-site")).status).toBe(200);
    expect(await draftCount(creatorId)).toBe(before);
  });

  it("copies the model's stored file into a new draft, analyses it and goes on to printer choice", async () => {
    const model = await libraryModel("CC BY", true);
    const res = await orderPage("library", model.id);
    expect(res.status).toBe(302);
    const id = Number(/draftId=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);
    expect(res.headers.get("location")).toBe(`/choose-printer?draftId=${id}`);
    const row = await draft(id);
    expect(row).toMatchObject({
      status: "draft",
      sourceKind: "library",
      sourceModelId: model.id,
      fileName: "bracket.stl",
      material: "PLA",
      filamentColor: "Black",
    });
    expect(row.boundingBoxZ).toBeCloseTo(30, 1);
    expect(row.fileKey).toMatch(/^designs\//);
    expect(row.totalCostCents).toBeGreaterThan(0);

    // posting again (a double click, a resubmitted form) does not make a second draft
    const again = await orderPage("library", model.id);
    expect(again.headers.get("location")).toBe(`/choose-printer?draftId=${id}`);
  });

  it("refuses a model whose licence forbids paid printing, back on the model page with the Error toast", async () => {
    const model = await libraryModel("CC BY-NC", true);
    const res = await orderPage("library", model.id);
    expect(res.headers.get("location")).toBe(`/models/library/${model.id}`);
    const toast = await flashedToast(res);
    expect(toast).toMatchObject({ title: "Error", variant: "destructive" });
    expect(toast?.description).toMatch(/CC BY-NC/);
  });

  it("says so when a model has no printable file", async () => {
    const model = await libraryModel("CC BY", false);
    const res = await orderPage("library", model.id);
    expect(res.headers.get("location")).toBe(`/models/library/${model.id}`);
    expect((await flashedToast(res))?.description).toBe("This model has no printable file yet.");
  });

  it("answers 404 for an unknown source", async () => {
    expect((await orderPage("printables", 5)).status).toBe(404);
  });

  it("POST /api/create-model-draft answers draftId", async () => {
    const model = await libraryModel("CC0", true);
    const res = await run(() =>
      createModelDraftAction(args(jsonRequest("/api/create-model-draft", { modelId: model.id }, { cookie }))),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect((await draft(body.draftId)).sourceModelId).toBe(model.id);
    const refused = await run(() =>
      createModelDraftAction(args(jsonRequest("/api/create-model-draft", { modelId: 999999 }, { cookie }))),
    );
    expect(refused.status).toBe(404);
    const anonymous = await run(() =>
      createModelDraftAction(args(jsonRequest("/api/create-model-draft", { modelId: model.id }))),
    );
    expect(anonymous.status).toBe(401);
  });
});

describe("quotas on drafts made from models", () => {
  it("caps new model drafts per customer per hour: the Error toast on the page, 429 from the API; a reused draft costs nothing", async () => {
    const user = await createTestUser();
    const busy = await sessionCookieFor(user.id);
    const first = await libraryModel("CC BY", true);
    const made = await orderPage("library", first.id, busy);
    const draftId = Number(/draftId=(\d+)/.exec(made.headers.get("location") ?? "")?.[1]);
    expect(draftId).toBeGreaterThan(0);

    const db = await getDb();
    await db
      .update(rateLimits)
      .set({ count: LIMITS.modelDraftsPerHour })
      .where(eq(rateLimits.key, `model-draft:${user.id}`));
    const second = await libraryModel("CC BY", true);
    const refused = await orderPage("library", second.id, busy);
    expect(refused.headers.get("location")).toBe(`/models/library/${second.id}`);
    expect(await flashedToast(refused)).toMatchObject({
      title: "Error",
      variant: "destructive",
      description: expect.stringMatching(/^You have ordered many models in the last hour\. Please try again in \d+ minutes?\.$/),
    });
    const api = await run(() =>
      createModelDraftAction(args(jsonRequest("/api/create-model-draft", { modelId: second.id }, { cookie: busy }))),
    );
    expect(api.status).toBe(429);
    expect((await api.json()).message).toMatch(/^You have ordered many models in the last hour/);
    const catalogue = await run(() =>
      downloadThingiverseAction(
        args(jsonRequest("/api/download-thingiverse-model", { thingiverseId: 6201008 }, { cookie: busy })),
      ),
    );
    expect(catalogue.status).toBe(429);
    expect(await draftCount(user.id)).toBe(1);

    // the recent draft of the first model is reused without counting
    const reused = await orderPage("library", first.id, busy);
    expect(reused.headers.get("location")).toBe(`/choose-printer?draftId=${draftId}`);
  });

  it("refuses a new draft from a model when the customer keeps the most drafts", async () => {
    const user = await createTestUser();
    const full = await sessionCookieFor(user.id);
    const saved = LIMITS.draftsPerCustomer;
    LIMITS.draftsPerCustomer = 1;
    try {
      expect((await orderPage("library", (await libraryModel("CC BY", true)).id, full)).headers.get("location")).toMatch(
        /^\/choose-printer/,
      );
      const other = await libraryModel("CC BY", true);
      const refused = await orderPage("library", other.id, full);
      expect(refused.headers.get("location")).toBe(`/models/library/${other.id}`);
      expect((await flashedToast(refused))?.description).toBe("You have 1 saved drafts. Delete some before saving more.");
      const api = await run(() =>
        createModelDraftAction(args(jsonRequest("/api/create-model-draft", { modelId: other.id }, { cookie: full }))),
      );
      expect(api.status).toBe(409);
      expect(await draftCount(user.id)).toBe(1);
    } finally {
      LIMITS.draftsPerCustomer = saved;
    }
  });
});

describe("/order-model/thingiverse/{id}", () => {
  it("downloads the first printable file from the catalogue and makes a draft", async () => {
    const res = await orderPage("thingiverse", CC_BY_THING);
    expect(res.status).toBe(302);
    const id = Number(/draftId=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);
    const row = await draft(id);
    expect(row).toMatchObject({
      sourceKind: "catalogue",
      sourceModelId: CC_BY_THING,
      fileName: "cable_clip_8mm.stl",
      fileSize: 684,
    });
    expect(row.boundingBoxX).toBeCloseTo(20, 1);
    expect((row.analysis as { method: string }).method).toBe("mesh");
  });

  it("refuses a non-commercial model and one without files", async () => {
    const nc = await orderPage("thingiverse", FIXTURE_THING_NON_COMMERCIAL);
    expect(nc.headers.get("location")).toBe(`/models/thingiverse/${FIXTURE_THING_NON_COMMERCIAL}`);
    expect((await flashedToast(nc))?.description).toMatch(/commercial use/);
    const empty = await orderPage("thingiverse", FIXTURE_THING_WITHOUT_FILES);
    expect((await flashedToast(empty))?.description).toMatch(/no STL, OBJ or 3MF file/);
  });

  it("refuses a download that grows past 50 MB while streaming", async () => {
    server.use(
      http.get("https://cdn.thingiverse.com/assets/*", () => {
        // no Content-Length: only the byte counter can stop it
        const chunk = new Uint8Array(1024 * 1024);
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ > 60) controller.close();
            else controller.enqueue(chunk);
          },
        });
        return new HttpResponse(body, { headers: { "content-type": "application/octet-stream" } });
      }),
    );
    const res = await orderPage("thingiverse", 6201003);
    expect(res.headers.get("location")).toBe("/models/thingiverse/6201003");
    expect(await flashedToast(res)).toMatchObject({ title: "Error", description: "File size exceeds 50MB limit" });
  });

  it("POST /api/download-thingiverse-model answers draftId and refuses by licence with 403", async () => {
    const res = await run(() =>
      downloadThingiverseAction(
        args(
          jsonRequest("/api/download-thingiverse-model", { thingiverseId: 6201008, modelData: { license: "CC0" } }, { cookie }),
        ),
      ),
    );
    expect(res.status).toBe(200);
    expect((await draft((await res.json()).draftId)).fileName).toBe("hex_key_organizer.stl");
    const refused = await run(() =>
      downloadThingiverseAction(
        args(
          jsonRequest(
            "/api/download-thingiverse-model",
            { thingiverseId: FIXTURE_THING_NON_COMMERCIAL, modelData: { license: "CC0" } },
            { cookie },
          ),
        ),
      ),
    );
    expect(refused.status).toBe(403);
  });
});

describe("downloading catalogue files", () => {
  it("takes https links to the listed hosts only", () => {
    expect(CATALOGUE_DOWNLOAD_HOSTS).toContain("cdn.thingiverse.com");
    expect(allowedDownloadUrl("https://cdn.thingiverse.com/assets/a.stl")).not.toBeNull();
    expect(allowedDownloadUrl("http://cdn.thingiverse.com/assets/a.stl")).toBeNull();
    expect(allowedDownloadUrl("https://cdn.thingiverse.com.evil.test/a.stl")).toBeNull();
    expect(allowedDownloadUrl("https://user:pw@cdn.thingiverse.com/a.stl")).toBeNull();
    expect(allowedDownloadUrl("https://169.254.169.254/latest/meta-data")).toBeNull();
  });

  it("checks every redirect and sends the token only to the API host", async () => {
    const seen: Array<{ url: string; auth: string | null }> = [];
    const fakeFetch = (async (input: string, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get("authorization");
      seen.push({ url: input, auth });
      if (input.startsWith("https://api.thingiverse.com/"))
        return new Response(null, { status: 302, headers: { location: "https://cdn.thingiverse.com/assets/x.stl" } });
      if (input.startsWith("https://cdn.thingiverse.com/"))
        return new Response(null, { status: 302, headers: { location: "https://evil.example/x.stl" } });
      return new Response("should not be fetched");
    }) as typeof fetch;
    await expect(
      downloadCatalogueFile("https://api.thingiverse.com/files/1/download", { token: "secret", fetch: fakeFetch }),
    ).rejects.toBeInstanceOf(AppError);
    expect(seen).toEqual([
      { url: "https://api.thingiverse.com/files/1/download", auth: "Bearer secret" },
      { url: "https://cdn.thingiverse.com/assets/x.stl", auth: null },
    ]);
  });

  it("stops at a declared Content-Length past the cap without reading the body", async () => {
    const fakeFetch = (async () =>
      new Response("x", { headers: { "content-length": String(60 * 1024 * 1024) } })) as typeof fetch;
    await expect(downloadCatalogueFile("https://cdn.thingiverse.com/assets/big.stl", { fetch: fakeFetch })).rejects.toThrow(
      "File size exceeds 50MB limit",
    );
  });
});
