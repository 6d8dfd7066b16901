import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { libraryModels, modelRatings } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { loader as categoriesLoader } from "../../app/routes/api.categories";
import { action as createModel, loader as listModels } from "../../app/routes/api.models";
import { loader as modelLoader } from "../../app/routes/api.models.$source.$id";
import { loader as libraryModelLoader } from "../../app/routes/api.models.$id";
import { loader as likeStatusLoader } from "../../app/routes/api.models.library.$id.like-status";
import { action as likeAction } from "../../app/routes/api.models.$id.like";
import { action as commentAction, loader as commentsLoader } from "../../app/routes/api.models.$id.comments";
import { action as ratingAction } from "../../app/routes/api.models.$id.ratings";
import { loader as browseLoader } from "../../app/routes/api.thingiverse.browse";
import { loader as searchLoader } from "../../app/routes/api.thingiverse.search";
import { resetCatalogueSync } from "../../app/services/catalogue/sync.server";
import { getDb } from "../../app/utils/db.server";
import { thingiverseErrorHandlers } from "../mocks/thingiverse";
import { server } from "../setup/msw";
import { args, createTestUser, getRequest, jsonRequest, sessionCookieFor } from "../setup/requests";

async function call(fn: () => Promise<unknown> | unknown): Promise<Response> {
  try {
    return (await fn()) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
const get = (
  loader: (a: ReturnType<typeof args>) => unknown,
  url: string,
  params: Record<string, string> = {},
  cookie?: string,
) => call(() => loader(args(getRequest(url, cookie), params)));
const postJson = (
  action: (a: ReturnType<typeof args>) => unknown,
  url: string,
  body: unknown,
  params: Record<string, string> = {},
  cookie?: string,
) => call(() => action(args(jsonRequest(url, body, { cookie }), params)));

let cookie: string;
let dragonId: number;

beforeAll(async () => {
  const db = await getDb();
  await seedDatabase(db, { log: () => {} });
  cookie = await sessionCookieFor((await createTestUser()).id);
  const [dragon] = await db.select().from(libraryModels).where(eq(libraryModels.name, "Articulated Dragon"));
  dragonId = dragon!.id;
});
beforeEach(() => {
  resetCatalogueSync();
  delete process.env.THINGIVERSE_TOKEN;
  delete process.env.MOCKS;
});

describe("GET /api/categories", () => {
  it("lists {id, name}", async () => {
    const res = await call(() => categoriesLoader());
    expect(await res.json()).toEqual([
      { id: 1, name: "Toys & Games" },
      { id: 2, name: "Home & Garden" },
      { id: 3, name: "Tools & Parts" },
      { id: 4, name: "Art & Decoration" },
      { id: 5, name: "Organization" },
      { id: 6, name: "Tech & Gadgets" },
    ]);
  });
});

describe("GET /api/models", () => {
  it("lists the library with categoryId, search and sortBy", async () => {
    const all = (await (await get(listModels, "/api/models")).json()) as { name: string }[];
    expect(all).toHaveLength(5);
    const found = (await (await get(listModels, "/api/models?search=dragon")).json()) as {
      name: string;
      commercialUse: boolean;
    }[];
    expect(found.map((m) => m.name)).toEqual(["Articulated Dragon"]);
    const tech = (await (await get(listModels, "/api/models?categoryId=6&sortBy=newest")).json()) as {
      name: string;
      commercialUse: boolean;
    }[];
    expect(tech).toMatchObject([{ name: "Phone Stand Pro", commercialUse: false }]);
    expect((await get(listModels, "/api/models?categoryId=all")).status).toBe(200);
  });

  it("answers 400 for a bad categoryId or sortBy", async () => {
    const bad = await get(listModels, "/api/models?categoryId=abc");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "categoryId must be a category id." });
    expect((await get(listModels, "/api/models?sortBy=cheapest")).status).toBe(400);
  });
});

describe("POST /api/models", () => {
  const payload = {
    name: "API Bracket",
    description: "An L bracket made through the API.",
    categoryId: 3,
    difficulty: "advanced",
    printTime: 42,
    filamentWeight: 17,
    supportRequired: true,
    license: "CC BY-ND",
    tags: [" bracket ", "shelf", ""],
  };

  it("answers 401 to a visitor", async () => {
    const res = await postJson(createModel, "/api/models", payload);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Not authenticated" });
  });

  it("answers 400 with the validation message", async () => {
    const res = await postJson(createModel, "/api/models", { ...payload, name: "ab" }, {}, cookie);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Name must be at least 3 characters" });
    const noCategory = await postJson(createModel, "/api/models", { ...payload, categoryId: 77 }, {}, cookie);
    expect(await noCategory.json()).toEqual({ message: "Please select a category" });
    const notJson = await call(() =>
      createModel(args(new Request("http://localhost:3000/api/models", { method: "POST", body: "{nope", headers: { cookie } }))),
    );
    expect(notJson.status).toBe(400);
  });

  it("creates the model (201 with id) and GET /api/models/library/{id} shows it in the API's model shape", async () => {
    const res = await postJson(createModel, "/api/models", payload, {}, cookie);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const model = await (await get(modelLoader, `/api/models/library/${id}`, { source: "library", id: String(id) })).json();
    expect(model).toMatchObject({
      id,
      source: "library",
      name: "API Bracket",
      difficulty: "advanced",
      printTime: 42,
      filamentWeight: 17,
      supportRequired: true,
      license: "CC BY-ND",
      commercialUse: true,
      averageRating: 0,
      totalRatings: 0,
      likeCount: 0,
      category: { id: 3, name: "Tools & Parts" },
      creator: { firstName: "Test" },
      tags: ["bracket", "shelf"],
      comments: [],
      images: [],
    });
    expect(model.priceEstimate).toMatchObject({ weightGrams: 17, printTimeMinutes: 42, customerPays: 126 });
  });
});

describe("GET /api/models/{source}/{id}", () => {
  it("answers a catalogue model with the site's field names", async () => {
    const res = await get(modelLoader, "/api/models/thingiverse/4734271", { source: "thingiverse", id: "4734271" });
    expect(await res.json()).toMatchObject({
      id: 4734271,
      source: "thingiverse",
      name: "Low-Poly Planter",
      creator: { name: "Roman_Hegglin" },
      like_count: 9321,
      download_count: 40112,
      view_count: 150870,
      license: "CC BY-NC",
      commercialUse: false,
      public_url: "https://www.thingiverse.com/thing:4734271",
    });
  });

  it("/api/models/{id} is a library model (the default source)", async () => {
    const res = await get(libraryModelLoader, `/api/models/${dragonId}`, { id: String(dragonId) });
    const body = await res.json();
    expect(body).toMatchObject({ id: dragonId, source: "library", name: "Articulated Dragon" });
    // the seed weighs its demo file with the analysis engine
    expect(body.filamentWeight).toBeGreaterThan(0);
    expect(body.printTime).toBeGreaterThan(0);
    expect((await get(libraryModelLoader, "/api/models/99999", { id: "99999" })).status).toBe(404);
  });

  it("answers 404 { message } when absent", async () => {
    for (const [source, id] of [
      ["library", "9999"],
      ["thingiverse", "5"],
      ["other", "1"],
      ["library", "x"],
    ]) {
      const res = await get(modelLoader, `/api/models/${source}/${id}`, { source: source!, id: id! });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "Model not found" });
    }
  });
});

describe("likes, comments and ratings through the API", () => {
  it("refuses visitors with 401", async () => {
    const params = { id: String(dragonId) };
    expect((await get(likeStatusLoader, `/api/models/library/${dragonId}/like-status`, params)).status).toBe(401);
    expect((await postJson(likeAction, `/api/models/${dragonId}/like`, {}, params)).status).toBe(401);
    expect((await postJson(commentAction, `/api/models/${dragonId}/comments`, { comment: "hi" }, params)).status).toBe(401);
    expect(
      (await postJson(ratingAction, `/api/models/${dragonId}/ratings`, { rating: 5, hasPrinted: true }, params)).status,
    ).toBe(401);
  });

  it("toggles a like and reports the like status", async () => {
    const params = { id: String(dragonId) };
    const me = await sessionCookieFor((await createTestUser()).id);
    expect(await (await get(likeStatusLoader, "/x", params, me)).json()).toEqual({ liked: false });
    expect(await (await postJson(likeAction, "/x", {}, params, me)).json()).toEqual({ liked: true, likeCount: 1 });
    expect(await (await get(likeStatusLoader, "/x", params, me)).json()).toEqual({ liked: true });
    expect(await (await postJson(likeAction, "/x", {}, params, me)).json()).toEqual({ liked: false, likeCount: 0 });
    expect((await postJson(likeAction, "/x", {}, { id: "99999" }, me)).status).toBe(404);
    expect((await get(likeStatusLoader, "/x", { id: "99999" }, me)).status).toBe(404);
  });

  it("posts comments (blank refused) and lists them", async () => {
    const params = { id: String(dragonId) };
    const blank = await postJson(commentAction, "/x", { comment: "  " }, params, cookie);
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({ message: "Comment text is required." });
    expect((await postJson(commentAction, "/x", {}, params, cookie)).status).toBe(400);
    const created = await postJson(commentAction, "/x", { comment: "Great hinge design" }, params, cookie);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      comment: "Great hinge design",
      authorName: expect.stringMatching(/^Test User\d+$/),
    });
    const list = (await (await get(commentsLoader, "/x", params)).json()) as {
      comment: string;
      userId: number;
      createdAt: string;
    }[];
    expect(list[0]).toMatchObject({ comment: "Great hinge design", userId: expect.any(Number), createdAt: expect.any(String) });
    expect((await postJson(commentAction, "/x", { comment: "hi" }, { id: "99999" }, cookie)).status).toBe(404);
  });

  it("refuses a comment of NUL or zero-width characters with 400 and a clear message", async () => {
    const params = { id: String(dragonId) };
    for (const comment of ["\u0000\u0000", "\u200B\u200C\u200B"]) {
      const res = await postJson(commentAction, "/x", { comment }, params, cookie);
      expect(res.status, JSON.stringify(comment)).toBe(400);
      expect(await res.json()).toEqual({
        message: "Your comment has no visible text (only spaces or invisible characters). Please write a comment first.",
      });
    }
    const created = await postJson(commentAction, "/x", { comment: "\u0000Solid\u200B hinge" }, params, cookie);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ comment: "Solid hinge" });
  });

  it("rates 1 to 5, one rating per user, updatable", async () => {
    const params = { id: String(dragonId) };
    for (const rating of [0, 6, 3.5, "5", null]) {
      const res = await postJson(ratingAction, "/x", { rating, hasPrinted: true }, params, cookie);
      expect(res.status, `rating ${String(rating)}`).toBe(400);
    }
    const first = await postJson(ratingAction, "/x", { rating: 4, review: "Prints well", hasPrinted: true }, params, cookie);
    expect(await first.json()).toEqual({ rating: 4, review: "Prints well", averageRating: 4, totalRatings: 1 });
    const second = await postJson(ratingAction, "/x", { rating: 2, hasPrinted: true }, params, cookie);
    expect(await second.json()).toEqual({ rating: 2, review: null, averageRating: 2, totalRatings: 1 });
  });
});

describe("a creator and their own model", () => {
  it("rating one's own model is 403 with a message and stores nothing; liking it is allowed (decision 007)", async () => {
    const db = await getDb();
    const [dragon] = await db.select().from(libraryModels).where(eq(libraryModels.id, dragonId));
    const creator = await sessionCookieFor(dragon!.creatorId);
    const params = { id: String(dragonId) };
    const before = await (await get(libraryModelLoader, `/api/models/${dragonId}`, params)).json();
    const own = await postJson(ratingAction, "/x", { rating: 5, review: "Best model ever", hasPrinted: true }, params, creator);
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ message: "You can't rate your own model." });
    const after = await (await get(libraryModelLoader, `/api/models/${dragonId}`, params)).json();
    expect({ averageRating: after.averageRating, totalRatings: after.totalRatings }).toEqual({
      averageRating: before.averageRating,
      totalRatings: before.totalRatings,
    });
    expect(
      await db
        .select()
        .from(modelRatings)
        .where(and(eq(modelRatings.libraryModelId, dragonId), eq(modelRatings.userId, dragon!.creatorId))),
    ).toEqual([]);
    // still 404 (not 403) for a model that does not exist
    expect((await postJson(ratingAction, "/x", { rating: 5 }, { id: "99999" }, creator)).status).toBe(404);
    // a like is a bookmark worth one count, the same as any member's: allowed
    const liked = await postJson(likeAction, "/x", {}, params, creator);
    expect(liked.status).toBe(200);
    expect(await liked.json()).toMatchObject({ liked: true });
    await postJson(likeAction, "/x", {}, params, creator);
  });
});

describe("GET /api/thingiverse/browse and /search", () => {
  it("browses by type with pages, from our table when no token is configured", async () => {
    const res = await get(browseLoader, "/api/thingiverse/browse?type=popular&page=1");
    expect(res.headers.get("x-catalogue-sync")).toBe("not-configured");
    const models = (await res.json()) as { name: string; like_count: number; thumbnail: string; creator: { name: string } }[];
    expect(models.map((m) => m.name)).toEqual([
      "Flexi Rex",
      "Calibration Cube",
      "Geared Heart",
      "Modular Desk Organizer",
      "Low-Poly Planter",
      "Headphone Stand",
    ]);
    expect(models[0]).toMatchObject({ like_count: 48210, thumbnail: "/demo/models/3495390.svg", creator: { name: "DrLex" } });
    const empty = (await (await get(browseLoader, "/api/thingiverse/browse?type=newest&page=2")).json()) as unknown[];
    expect(empty).toEqual([]);
  });

  it("answers 400 for an unknown type, a bad page or a missing search term", async () => {
    expect((await get(browseLoader, "/api/thingiverse/browse?type=random")).status).toBe(400);
    expect((await get(browseLoader, "/api/thingiverse/browse?type=newest&page=0")).status).toBe(400);
    const noTerm = await get(searchLoader, "/api/thingiverse/search?q=%20");
    expect(noTerm.status).toBe(400);
    expect(await noTerm.json()).toEqual({ message: "q (the search term) is required." });
  });

  it("searches", async () => {
    const models = (await (await get(searchLoader, "/api/thingiverse/search?q=cube")).json()) as { name: string }[];
    expect(models.map((m) => m.name)).toEqual(["Calibration Cube"]);
  });

  it("with a token, refreshes from the site; when the site fails, still answers from our table", async () => {
    process.env.THINGIVERSE_TOKEN = "mock-token";
    process.env.MOCKS = "true";
    const fresh = await get(searchLoader, "/api/thingiverse/search?q=gearbox");
    expect(fresh.headers.get("x-catalogue-sync")).toBe("updated");
    expect(((await fresh.json()) as { name: string }[]).map((m) => m.name)).toEqual(["Planetary Gearbox Concept (WIP)"]);

    resetCatalogueSync();
    server.use(...thingiverseErrorHandlers.serverError);
    const fallback = await get(browseLoader, "/api/thingiverse/browse?type=featured");
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("x-catalogue-sync")).toBe("unavailable");
    expect(((await fallback.json()) as { name: string }[]).map((m) => m.name)).toContain("Flexi Rex");
  });
});
