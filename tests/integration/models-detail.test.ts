import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogueModels, libraryModels, modelComments, modelLikes, modelRatings, users } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { action as detailAction, loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { loader as shortcutLoader } from "../../app/routes/models.$id";
import { createLibraryModel } from "../../app/services/models/library.server";
import { getOrderableModel } from "../../app/services/models/ordering.server";
import { AppError } from "../../app/domain/app-error";
import { analyzeModel } from "../../app/domain/mesh";
import { getDb } from "../../app/utils/db.server";
import { args, createTestUser, flashedToast, formRequest, getRequest, run, sessionCookieFor } from "../setup/requests";

async function libraryId(name: string) {
  const db = await getDb();
  const [row] = await db.select({ id: libraryModels.id }).from(libraryModels).where(eq(libraryModels.name, name));
  return row!.id;
}

function detail(source: string, id: number | string, init: { cookie?: string; referer?: string } = {}) {
  const request = new Request(new URL(`/models/${source}/${id}`, "http://localhost:3000"), {
    headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.referer ? { referer: init.referer } : {}) },
  });
  return detailLoader(args(request, { source, id: String(id) }));
}

function post(id: number, fields: Record<string, string>, cookie?: string, source = "library") {
  return run(() => detailAction(args(formRequest(`/models/${source}/${id}`, fields, { cookie }), { source, id: String(id) })));
}

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});

describe("model detail", () => {
  it("shows a library model with its real category, creator, licence and the engine's estimate from its own weight and time", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.username, "casey"));
    const id = await createLibraryModel({
      creatorId: casey!.id,
      categoryId: 1,
      name: "Articulated Wyvern",
      description: "A print-in-place wyvern for the desk.",
      difficulty: "intermediate",
      printTimeMinutes: 310,
      filamentWeightGrams: 62,
      supportRequired: false,
      license: "CC BY",
      tags: [],
    });
    const page = await detail("library", id);
    expect(page.model).toMatchObject({
      source: "library",
      name: "Articulated Wyvern",
      creatorName: "Casey Customer",
      category: { id: 1, name: "Toys & Games" },
      license: "CC BY",
      commercialUse: true,
      licenseRefusal: null,
      difficulty: "intermediate",
      printTimeMinutes: 310,
      filamentWeightGrams: 62,
    });
    // 62 g x $15/kg = $0.93; fee 15% is $0.14, so the $1.00 minimum; one colour, no premiums
    expect(page.estimate).toMatchObject({ weightGrams: 62, printTimeMinutes: 310, assumedWeight: false, assumedTime: false });
    expect(page.estimate.quote).toMatchObject({
      materialCost: 93,
      platformFee: 100,
      customerPays: 193,
      multicolorPremium: 0,
      timePremium: 0,
    });
    expect(page.viewer).toBeNull();
    expect(page.signedIn).toBe(false);
  });

  it("uses 50 g and 60 minutes when a model records neither", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.username, "casey"));
    const id = await createLibraryModel({
      creatorId: casey!.id,
      categoryId: 2,
      name: "Weightless Thing",
      description: "Nothing recorded about it.",
      difficulty: "beginner",
      printTimeMinutes: 0,
      filamentWeightGrams: 0,
      supportRequired: false,
      license: "CC BY",
      tags: [],
    });
    const page = await detail("library", id);
    expect(page.model.filamentWeightGrams).toBeNull();
    expect(page.estimate).toMatchObject({ weightGrams: 50, printTimeMinutes: 60, assumedWeight: true, assumedTime: true });
    expect(page.estimate.quote).toMatchObject({ materialCost: 75, platformFee: 100, customerPays: 175 });
  });

  it("shows a catalogue model by its Thingiverse id, with the cached weight and a link to its page", async () => {
    const page = await detail("thingiverse", 3495390);
    // the demo's weight is the analysis of the very file the catalogue serves, as Order Print reads it
    const served = await fetch("https://api.thingiverse.com/files/18940001/download", {
      headers: { Authorization: "Bearer test-token" },
    });
    expect(served.status).toBe(200);
    const { estimatedWeight, estimatedTimeMinutes } = await analyzeModel(
      new Uint8Array(await served.arrayBuffer()),
      "flexi_rex.stl",
    );
    expect(page.model).toMatchObject({
      source: "thingiverse",
      id: 3495390,
      name: "Flexi Rex",
      creatorName: "DrLex",
      category: { name: "Toys & Games" },
      publicUrl: "https://www.thingiverse.com/thing:3495390",
      filamentWeightGrams: estimatedWeight,
      printTimeMinutes: estimatedTimeMinutes,
      file: null,
    });
    expect(estimatedWeight).toBeGreaterThan(5); // a dinosaur, not the mock's 20 mm cube of 3.9 g
    // the grams at $15/kg (1.5 cents a gram), rounded half up; the fee's $1.00 minimum
    const materialCost = Math.round(estimatedWeight * 1.5);
    expect(page.estimate.quote).toMatchObject({ materialCost, platformFee: 100, customerPays: materialCost + 100 });
    expect(page.catalogueUnavailable).toBe(false);
  });

  it("answers 404 (Model not found) for unknown ids and sources", async () => {
    for (const [source, id] of [
      ["library", 99999],
      ["thingiverse", 1],
      ["printables", 1],
      ["library", "abc"],
      ["library", "0"],
    ] as const) {
      const res = await run(() => detail(source, id));
      expect(res.status, `${source}/${id}`).toBe(404);
    }
  });

  it("/models/{id} is the library model's short address", async () => {
    const res = await run(() => Promise.resolve(shortcutLoader(args(getRequest("/models/3"), { id: "3" }))));
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/models/library/3");
  });

  it("counts a view, but not the reload that follows a like or comment on the same page", async () => {
    const id = await libraryId("Cable Clip Set");
    const before = (await detail("library", id)).model.viewCount;
    expect((await detail("library", id, { referer: "http://localhost:3000/models" })).model.viewCount).toBe(before + 1);
    expect((await detail("library", id, { referer: `http://localhost:3000/models/library/${id}` })).model.viewCount).toBe(
      before + 1,
    );
  });
});

describe("licence rule", () => {
  it("refuses a CC BY-NC library model on the page and on the server", async () => {
    const id = await libraryId("Phone Stand Pro");
    const page = await detail("library", id);
    expect(page.model.commercialUse).toBe(false);
    expect(page.model.licenseRefusal).toBe(
      "This model is licensed CC BY-NC, which does not allow commercial use, so it can't be ordered as a paid print. You can still download it and print it yourself.",
    );
    const thrown = await getOrderableModel("library", id).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe("forbidden");
    expect((thrown as AppError).message).toContain("CC BY-NC");
  });

  it("refuses a CC BY-NC catalogue model and accepts a CC BY one with what the order needs", async () => {
    await expect(getOrderableModel("thingiverse", 4734271)).rejects.toMatchObject({ code: "forbidden" });
    const ok = await getOrderableModel("thingiverse", "3495390");
    const [flexiRex] = await (await getDb()).select().from(catalogueModels).where(eq(catalogueModels.sourceId, 3495390));
    expect(ok).toMatchObject({
      source: "thingiverse",
      id: 3495390,
      weightGrams: flexiRex.estimatedWeightGrams,
      printTimeMinutes: flexiRex.printTimeMinutes,
      license: "CC BY",
    });
    // the demo seed stores a real file for each library model, weighed by the analysis engine
    const library = await getOrderableModel("library", await libraryId("Articulated Dragon"));
    expect(library).toMatchObject({
      source: "library",
      name: "Articulated Dragon",
      file: { format: "stl", name: "articulated-dragon.stl" },
    });
    expect(library.weightGrams).toBe((library.file!.analysis as { estimatedWeight: number }).estimatedWeight);
  });

  it("answers 404 for a model that does not exist or a source we do not know", async () => {
    await expect(getOrderableModel("library", 99999)).rejects.toMatchObject({ code: "not_found", message: "Model not found" });
    await expect(getOrderableModel("elsewhere", 1)).rejects.toMatchObject({ code: "not_found" });
    await expect(getOrderableModel("thingiverse", "x")).rejects.toMatchObject({ code: "not_found" });
  });

  it("denies a licence it cannot recognise", async () => {
    const db = await getDb();
    const id = await libraryId("Hex Key Holder");
    await db.update(libraryModels).set({ license: "All Rights Reserved" }).where(eq(libraryModels.id, id));
    try {
      await expect(getOrderableModel("library", id)).rejects.toMatchObject({ code: "forbidden" });
      expect((await detail("library", id)).model.commercialUse).toBe(false);
    } finally {
      await db.update(libraryModels).set({ license: "CC BY" }).where(eq(libraryModels.id, id));
    }
  });
});

describe("likes, comments and ratings on the page", () => {
  it("sends a visitor to sign in and changes nothing", async () => {
    const id = await libraryId("Hex Key Holder");
    const attempts: Record<string, string>[] = [
      { intent: "like" },
      { intent: "comment", comment: "Nice" },
      { intent: "rate", rating: "5" },
    ];
    for (const fields of attempts) {
      const res = await post(id, fields);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(`/models/library/${id}`)}`);
    }
    const db = await getDb();
    expect(await db.select().from(modelLikes).where(eq(modelLikes.libraryModelId, id))).toHaveLength(0);
    expect(await db.select().from(modelComments).where(eq(modelComments.libraryModelId, id))).toHaveLength(0);
    expect(await db.select().from(modelRatings).where(eq(modelRatings.libraryModelId, id))).toHaveLength(0);
  });

  it("likes and unlikes; a double submit counts once", async () => {
    const id = await libraryId("Self-Watering Planter");
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const first = await post(id, { intent: "like" }, cookie);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`/models/library/${id}`);
    await post(id, { intent: "like" }, cookie);
    let page = await detail("library", id, { cookie });
    expect(page.model.likeCount).toBe(1);
    expect(page.viewer).toMatchObject({ liked: true });

    const other = await sessionCookieFor((await createTestUser()).id);
    await post(id, { intent: "like" }, other);
    expect((await detail("library", id)).model.likeCount).toBe(2);

    await post(id, { intent: "unlike" }, cookie);
    page = await detail("library", id, { cookie });
    expect(page.model.likeCount).toBe(1);
    expect(page.viewer).toMatchObject({ liked: false });
  });

  it("refuses a blank comment and posts a real one with the documented toast", async () => {
    const id = await libraryId("Articulated Dragon");
    const user = await createTestUser({ firstName: "Robin", lastName: "Maker" });
    const cookie = await sessionCookieFor(user.id);
    const blank = await post(id, { intent: "comment", comment: "   \n " }, cookie);
    expect(blank.status).toBe(400);
    const body = (await blank.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.comment).toEqual(["Please write a comment first."]);

    const ok = await post(id, { intent: "comment", comment: "  Printed it in silk PLA, lovely.  " }, cookie);
    expect(ok.status).toBe(302);
    expect(await flashedToast(ok)).toMatchObject({ title: "Comment posted!" });
    const page = await detail("library", id);
    expect(page.model.comments[0]).toMatchObject({
      comment: "Printed it in silk PLA, lovely.",
      authorName: "Robin Maker",
      userId: user.id,
    });
  });

  it("refuses comments of NUL or invisible characters with a clear message, and stores cleaned text", async () => {
    const id = await libraryId("Articulated Dragon");
    const cookie = await sessionCookieFor((await createTestUser()).id);
    for (const comment of ["\u0000\u0000\u0000", "\u200B\u200B\u200B", "\u202E\uFEFF\u2060 \u00AD"]) {
      const refused = await post(id, { intent: "comment", comment }, cookie);
      expect(refused.status, JSON.stringify(comment)).toBe(400);
      const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
      expect(body.result.error.comment).toEqual([
        "Your comment has no visible text (only spaces or invisible characters). Please write a comment first.",
      ]);
    }
    const ok = await post(id, { intent: "comment", comment: "Nice\u0000 print\u200B\u202E! 👩‍👩‍👧\r\nThanks" }, cookie);
    expect(ok.status).toBe(302);
    expect((await detail("library", id)).model.comments[0]!.comment).toBe("Nice print! 👩‍👩‍👧\nThanks");
  });

  it("rates 1 to 5 stars, one rating per user that can be changed", async () => {
    const id = await libraryId("Cable Clip Set");
    const cookie = await sessionCookieFor((await createTestUser()).id);
    for (const rating of ["0", "6", "", "2.5", "five"]) {
      const res = await post(id, { intent: "rate", rating }, cookie);
      expect(res.status, `rating ${rating}`).toBe(400);
    }
    const first = await post(id, { intent: "rate", rating: "4", review: "Clips hold well.", hasPrinted: "on" }, cookie);
    expect(first.status).toBe(302);
    expect(await flashedToast(first)).toMatchObject({ title: "Rating submitted!" });
    await post(id, { intent: "rate", rating: "2" }, cookie);
    let page = await detail("library", id, { cookie });
    expect(page.model).toMatchObject({ averageRating: 2, totalRatings: 1 });
    expect(page.viewer?.rating).toEqual({ rating: 2, review: null });

    const other = await sessionCookieFor((await createTestUser()).id);
    await post(id, { intent: "rate", rating: "5" }, other);
    page = await detail("library", id);
    expect(page.model).toMatchObject({ averageRating: 3.5, totalRatings: 2 });
    const db = await getDb();
    const rows = await db
      .select()
      .from(modelRatings)
      .where(and(eq(modelRatings.libraryModelId, id)));
    expect(rows).toHaveLength(2);
  });

  it("refuses a rating from the model's own creator (403, nothing stored)", async () => {
    const db = await getDb();
    const id = await libraryId("Phone Stand Pro");
    const [model] = await db.select().from(libraryModels).where(eq(libraryModels.id, id));
    const res = await post(
      id,
      { intent: "rate", rating: "5", review: "Mine is great" },
      await sessionCookieFor(model!.creatorId),
    );
    // the page answers with a toast on the same page
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/models/library/${id}`);
    expect(await flashedToast(res)).toMatchObject({ title: "You can't rate your own model.", variant: "destructive" });
    expect(await db.select().from(modelRatings).where(eq(modelRatings.libraryModelId, id))).toHaveLength(0);
    expect((await detail("library", id)).model).toMatchObject({ averageRating: null, totalRatings: 0 });
  });

  it("refuses likes, comments and ratings on catalogue models", async () => {
    const cookie = await sessionCookieFor((await createTestUser()).id);
    const res = await post(3495390, { intent: "like" }, cookie, "thingiverse");
    // a plain post's refusal: a toast on the same page
    expect(res.status).toBe(302);
    expect(await flashedToast(res)).toMatchObject({
      title: "Likes, comments and ratings are for library models only.",
      variant: "destructive",
    });
  });

  it("answers 404 for a library model that does not exist", async () => {
    const cookie = await sessionCookieFor((await createTestUser()).id);
    expect((await post(99999, { intent: "like" }, cookie)).status).toBe(404);
    expect((await post(99999, { intent: "comment", comment: "hi" }, cookie)).status).toBe(404);
  });
});
