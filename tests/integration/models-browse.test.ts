import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { catalogueModels, libraryModels, users } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { loader as browseLoader } from "../../app/routes/models._index";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { resetCatalogueSync, syncCatalogueListing } from "../../app/services/catalogue/sync.server";
import { createLibraryModel } from "../../app/services/models/library.server";
import { ftsQuery } from "../../app/services/models/lists.server";
import { getDb } from "../../app/utils/db.server";
import { FIXTURE_THING_NON_COMMERCIAL, THINGIVERSE_API, thingiverseErrorHandlers } from "../mocks/thingiverse";
import { server } from "../setup/msw";
import { freshCatalogueWindow } from "../setup/catalogue";
import { args, getRequest } from "../setup/requests";

async function browse(query = "") {
  return browseLoader(args(getRequest(`/models${query}`)));
}
const names = (page: { models: { name: string }[] }) => page.models.map((m) => m.name);

beforeAll(async () => {
  await seedDatabase(await getDb(), { log: () => {} });
});
beforeEach(async () => {
  await freshCatalogueWindow();
  delete process.env.THINGIVERSE_TOKEN;
  delete process.env.MOCKS;
});

describe("Browse Thingiverse tab without a token (the seeded catalogue)", () => {
  it("is the default tab and lists featured models first, then by likes", async () => {
    const page = await browse();
    expect(page.tab).toBe("thingiverse");
    expect(page.sort).toBe("featured");
    expect(page.catalogueUnavailable).toBe(false);
    expect(names(page)).toEqual([
      "Flexi Rex",
      "Calibration Cube",
      "Geared Heart",
      "Modular Desk Organizer",
      "Low-Poly Planter",
      "Headphone Stand",
    ]);
    expect(page.models[0]).toMatchObject({
      source: "thingiverse",
      id: 3495390,
      creatorName: "DrLex",
      likeCount: 48210,
      commercialUse: true,
    });
  });

  it("a non-featured model comes after every featured one, however popular", async () => {
    const db = await getDb();
    await db.update(catalogueModels).set({ featured: false }).where(eq(catalogueModels.sourceId, 3495390));
    try {
      const page = await browse("?sort=featured");
      expect(names(page).at(-1)).toBe("Flexi Rex");
      expect(names(await browse("?sort=popular"))[0]).toBe("Flexi Rex");
    } finally {
      await db.update(catalogueModels).set({ featured: true }).where(eq(catalogueModels.sourceId, 3495390));
    }
  });

  it("sorts by newest (date on the site) and by most popular", async () => {
    expect(names(await browse("?sort=newest"))).toEqual([
      "Flexi Rex",
      "Modular Desk Organizer",
      "Low-Poly Planter",
      "Calibration Cube",
      "Geared Heart",
      "Headphone Stand",
    ]);
    expect(names(await browse("?sort=popular"))).toEqual([
      "Flexi Rex",
      "Calibration Cube",
      "Geared Heart",
      "Modular Desk Organizer",
      "Low-Poly Planter",
      "Headphone Stand",
    ]);
  });

  it("searches name, description, creator and tags; every word must match", async () => {
    expect(names(await browse("?q=planter"))).toEqual(["Low-Poly Planter"]);
    expect(names(await browse("?q=emmett"))).toEqual(["Geared Heart"]);
    expect(names(await browse("?q=desk+organizer"))).toEqual(["Modular Desk Organizer"]);
    expect(names(await browse("?q=desk+dragon"))).toEqual([]);
    // LIKE wildcards typed by a user are plain characters
    expect(names(await browse("?q=%25"))).toHaveLength(6);
    expect(names(await browse("?q=_"))).toHaveLength(6);
  });

  it("marks non-commercial models on the cards", async () => {
    const planter = (await browse("?q=planter")).models[0]!;
    expect(planter).toMatchObject({ license: "CC BY-NC", commercialUse: false });
  });
});

describe("Your Library tab", () => {
  it("lists the library with featured models first, and the categories for the select", async () => {
    const page = await browse("?tab=library");
    expect(page.tab).toBe("library");
    expect(page.total).toBe(5);
    expect(names(page).slice(0, 2).sort()).toEqual(["Articulated Dragon", "Self-Watering Planter"]);
    expect(page.categories.map((c) => c.name)).toEqual([
      "Toys & Games",
      "Home & Garden",
      "Tools & Parts",
      "Art & Decoration",
      "Organization",
      "Tech & Gadgets",
    ]);
    expect(page.models[0]).toMatchObject({ source: "library", creatorName: "Casey Customer" });
  });

  it("filters by category", async () => {
    expect(names(await browse("?tab=library&category=5"))).toEqual(["Cable Clip Set"]);
    expect(names(await browse("?tab=library&category=6"))).toEqual(["Phone Stand Pro"]);
  });

  it("searches with FTS5 over name, description and tags, with stemming and prefixes", async () => {
    expect(names(await browse("?tab=library&q=dragons"))).toEqual(["Articulated Dragon"]);
    expect(names(await browse("?tab=library&q=plan"))).toEqual(["Self-Watering Planter"]);
    // "workshop" is only a tag
    expect(names(await browse("?tab=library&q=workshop"))).toEqual(["Hex Key Holder"]);
    // "reservoir" is only in the description
    expect(names(await browse("?tab=library&q=reservoir"))).toEqual(["Self-Watering Planter"]);
    expect(names(await browse("?tab=library&q=phone+stand"))).toEqual(["Phone Stand Pro"]);
    expect(names(await browse("?tab=library&q=zeppelin"))).toEqual([]);
  });

  it("ranks a match in the name above one in the description", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.username, "casey"));
    const base = {
      creatorId: casey!.id,
      categoryId: 3,
      difficulty: "beginner" as const,
      printTimeMinutes: 0,
      filamentWeightGrams: 0,
      supportRequired: false,
      license: "CC BY" as const,
      tags: [],
    };
    const inDescription = await createLibraryModel({
      ...base,
      name: "Bench Vise Jaw",
      description: "Soft jaws with a small herringbone sprocket pattern.",
    });
    const inName = await createLibraryModel({
      ...base,
      name: "Herringbone Sprocket",
      description: "A replacement part for a bicycle.",
    });
    try {
      const page = await browse("?tab=library&q=sprocket");
      expect(page.models.map((m) => m.id)).toEqual([inName, inDescription]);
      // the chosen sort still wins; relevance only breaks its ties
      const newest = await browse("?tab=library&q=sprocket&sort=newest");
      expect(newest.models.map((m) => m.id)).toEqual([inName, inDescription]);
    } finally {
      await db.delete(libraryModels).where(eq(libraryModels.id, inDescription));
      await db.delete(libraryModels).where(eq(libraryModels.id, inName));
    }
  });

  it("treats FTS5 syntax typed by users as words, not operators", async () => {
    expect(ftsQuery('dragon OR "NEAR(x" *')).toBe('"dragon"* "OR"* "NEAR"* "x"*');
    expect(ftsQuery("  ---  ")).toBeNull();
    const page = await browse(`?tab=library&q=${encodeURIComponent('dragon" OR (')}`);
    expect(names(page)).toEqual([]);
    expect(names(await browse(`?tab=library&q=${encodeURIComponent("dragon (")}`))).toEqual(["Articulated Dragon"]);
  });

  it("pages with ?page=", async () => {
    const db = await getDb();
    const [casey] = await db.select().from(users).where(eq(users.username, "casey"));
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(
        await createLibraryModel({
          creatorId: casey!.id,
          categoryId: 1,
          name: `Paging Test ${i}`,
          description: "A model made for the paging test.",
          difficulty: "beginner",
          printTimeMinutes: 0,
          filamentWeightGrams: 0,
          supportRequired: false,
          license: "CC BY",
          tags: [],
        }),
      );
    }
    try {
      const first = await browse("?tab=library&sort=newest");
      expect(first).toMatchObject({ total: 30, page: 1, pageCount: 2 });
      expect(first.models).toHaveLength(24);
      const second = await browse("?tab=library&sort=newest&page=2");
      expect(second.models).toHaveLength(6);
      expect(new Set([...first.models, ...second.models].map((m) => m.id)).size).toBe(30);
      expect((await browse("?tab=library&page=abc")).page).toBe(1);
    } finally {
      for (const id of ids) await db.delete(libraryModels).where(eq(libraryModels.id, id));
    }
  });
});

describe("with a Thingiverse token (msw answers)", () => {
  beforeEach(() => {
    process.env.THINGIVERSE_TOKEN = "mock-token";
    process.env.MOCKS = "true";
  });

  it("stores what the site returns and serves the page from our table; search hits carry no licence yet", async () => {
    const page = await browse("?sort=popular");
    expect(page.catalogueUnavailable).toBe(false);
    expect(page.total).toBe(15);
    expect(names(page)).toContain("Articulated Desk Dragon");
    const db = await getDb();
    const [row] = await db.select().from(catalogueModels).where(eq(catalogueModels.sourceId, FIXTURE_THING_NON_COMMERCIAL));
    expect(row).toMatchObject({ name: "Articulated Desk Dragon", license: "Other", featured: true });
    expect(row!.fetchedAt.getTime()).toBe(0);
    // the site is asked once per listing within five minutes
    let calls = 0;
    server.events.on("request:start", () => void calls++);
    await browse("?sort=popular");
    server.events.removeAllListeners();
    expect(calls).toBe(0);
  });

  it("the model page fetches the full details, so the licence is known and ordering is refused", async () => {
    await browse("?sort=newest");
    const detail = await detailLoader(
      args(getRequest(`/models/thingiverse/${FIXTURE_THING_NON_COMMERCIAL}`), {
        source: "thingiverse",
        id: String(FIXTURE_THING_NON_COMMERCIAL),
      }),
    );
    expect(detail.model).toMatchObject({ license: "CC BY-NC", commercialUse: false });
    expect(detail.model.licenseRefusal).toContain("does not allow commercial use");
    expect(detail.model.description.length).toBeGreaterThan(0);
    expect(detail.model.downloadCount).toBeGreaterThan(0);
  });

  it("a later search does not wipe the licence, counts or description the model page stored", async () => {
    const id = FIXTURE_THING_NON_COMMERCIAL;
    await detailLoader(args(getRequest(`/models/thingiverse/${id}`), { source: "thingiverse", id: String(id) }));
    resetCatalogueSync();
    await browse("?q=dragon");
    const db = await getDb();
    const [row] = await db.select().from(catalogueModels).where(eq(catalogueModels.sourceId, id));
    expect(row!.license).toBe("CC BY-NC");
    expect(row!.downloadCount).toBeGreaterThan(0);
    expect(row!.description).not.toBe("");
  });

  for (const [name, handlers] of Object.entries(thingiverseErrorHandlers).filter(([n]) => n !== "timeout")) {
    it(`keeps serving our table when the site answers ${name}, with a small notice`, async () => {
      server.use(...handlers);
      const page = await browse();
      expect(page.catalogueUnavailable).toBe(true);
      expect(page.models.length).toBeGreaterThanOrEqual(6);
      expect(names(page)).toContain("Flexi Rex");
      const detail = await detailLoader(
        args(getRequest("/models/thingiverse/3495390"), { source: "thingiverse", id: "3495390" }),
      );
      expect(detail.model.name).toBe("Flexi Rex");
    });
  }

  it("gives up on a silent site after the short timeout, then leaves it alone for a while", async () => {
    server.use(...thingiverseErrorHandlers.timeout);
    const started = Date.now();
    const page = await browse("?sort=newest");
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(page.catalogueUnavailable).toBe(true);
    expect(names(page)).toContain("Flexi Rex");
    const again = Date.now();
    expect(await syncCatalogueListing({ type: "popular", page: 3 })).toBe("unavailable");
    expect(Date.now() - again).toBeLessThan(200);
  });

  it("a site that answers again is used again after the back-off", async () => {
    let now = 1_000_000;
    server.use(
      http.get(`${THINGIVERSE_API}/search/`, () => HttpResponse.json({ error: "down" }, { status: 500 }), { once: true }),
    );
    expect(await syncCatalogueListing({ type: "featured", page: 7 }, { now: () => now })).toBe("unavailable");
    expect(await syncCatalogueListing({ type: "featured", page: 7 }, { now: () => now })).toBe("unavailable");
    now += 61_000;
    expect(await syncCatalogueListing({ type: "featured", page: 7 }, { now: () => now })).toBe("updated");
  });
});
