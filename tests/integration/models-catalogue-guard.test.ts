// The shared Thingiverse budget against anonymous visitors (each visitor a share, jobs and visitors
// together within the site's limit), and catalogue URLs against javascript: links.
import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { catalogueModels } from "../../db/schema";
import { seedDatabase } from "../../db/seed";
import { loader as landingLoader } from "../../app/routes/_index";
import { loader as browseLoader } from "../../app/routes/models._index";
import { loader as detailLoader } from "../../app/routes/models.$source.$id/route";
import { loader as apiBrowseLoader } from "../../app/routes/api.thingiverse.browse";
import { loader as apiSearchLoader } from "../../app/routes/api.thingiverse.search";
import {
  CatalogueRateLimitError,
  catalogueSourceForJobs,
  jobBudget,
  siteBudget,
  THINGIVERSE_RATE_LIMIT,
  visitorsBudget,
  type CatalogueModel,
  type CatalogueSource,
} from "../../app/services/catalogue/index.server";
import {
  catalogueSyncMemory,
  DETAIL_TTL_MS,
  MAX_REMEMBERED,
  syncCatalogueListing,
  syncCatalogueModel,
  VISITOR_SYNC_LIMIT,
  VISITOR_SYNC_WINDOW_MS,
} from "../../app/services/catalogue/sync.server";
import { getModelDetail } from "../../app/services/models/detail.server";
import { listCatalogueModels } from "../../app/services/models/lists.server";
import { getOrderableModel } from "../../app/services/models/ordering.server";
import { getDb } from "../../app/utils/db.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { THINGIVERSE_API, thingiverseFixtures } from "../mocks/thingiverse";
import { server } from "../setup/msw";
import { freshCatalogueWindow } from "../setup/catalogue";
import { args, createTestUser, run, sessionCookieFor } from "../setup/requests";

let calls: string[] = [];

/** A GET as server/index.ts hands it on: the client IP in our own header. */
function from(ip: string, path: string) {
  return new Request(new URL(path, "http://localhost:3000"), { headers: { [CLIENT_IP_HEADER]: ip } });
}

beforeAll(async () => {
  server.events.on("request:start", ({ request }) => void calls.push(new URL(request.url).pathname));
  await seedDatabase(await getDb(), { log: () => {} });
});
beforeEach(async () => {
  await freshCatalogueWindow();
  calls = [];
  process.env.THINGIVERSE_TOKEN = "mock-token";
  process.env.MOCKS = "true";
});
afterEach(() => {
  vi.useRealTimers();
});

describe("one visitor's share of the site's budget", () => {
  it(`after ${VISITOR_SYNC_LIMIT} asks in 5 minutes, new pages come from our table (no notice, no error); others are unaffected`, async () => {
    const greedy = "203.0.113.7";
    for (let i = 0; i < VISITOR_SYNC_LIMIT; i++) {
      // every new term and page used to cost one API call, without end
      await browseLoader(args(from(greedy, `/models?q=term${i}&page=${i + 1}`)));
    }
    expect(calls).toHaveLength(VISITOR_SYNC_LIMIT);

    calls = [];
    const page = await browseLoader(args(from(greedy, "/models?sort=popular")));
    expect(calls).toEqual([]);
    expect(page.catalogueUnavailable).toBe(false);
    expect(page.models.map((m) => m.name)).toContain("Flexi Rex");
    const search = await run(() => apiSearchLoader(args(from(greedy, "/api/thingiverse/search?q=dragon"))));
    const browse = await run(() => apiBrowseLoader(args(from(greedy, "/api/thingiverse/browse?type=newest&page=2"))));
    for (const res of [search, browse]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("x-catalogue-sync")).toBe("limited");
    }
    // a detail refresh is an ask too
    expect((await getModelDetail("thingiverse", 6201003, { visitor: { userId: null, clientIp: greedy } })).sync).toBe("limited");
    expect(calls).toEqual([]);

    // someone else still gets fresh answers, and what they fetched is cached for everyone
    const other = await run(() => apiSearchLoader(args(from("198.51.100.9", "/api/thingiverse/search?q=dragon"))));
    expect(other.headers.get("x-catalogue-sync")).toBe("updated");
    expect(calls).toHaveLength(1);
    const cached = await run(() => apiSearchLoader(args(from(greedy, "/api/thingiverse/search?q=dragon"))));
    expect(cached.headers.get("x-catalogue-sync")).toBe("cached");
    expect(((await cached.json()) as { name: string }[]).map((m) => m.name)).toContain("Articulated Desk Dragon");

    // the window passes: the visitor may ask again
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + VISITOR_SYNC_WINDOW_MS + 1_000);
    calls = [];
    const later = await run(() => apiSearchLoader(args(from(greedy, "/api/thingiverse/search?q=cable"))));
    expect(later.headers.get("x-catalogue-sync")).toBe("updated");
    expect(calls).toHaveLength(1);
  });

  it("pages already fresh in our table cost the visitor nothing", async () => {
    const ip = "192.0.2.44";
    await browseLoader(args(from(ip, "/models?sort=newest")));
    for (let i = 0; i < VISITOR_SYNC_LIMIT * 2; i++) await browseLoader(args(from(ip, "/models?sort=newest")));
    expect(calls).toHaveLength(1);
    const db = await getDb();
    const rows = await db.all<{ count: number }>(`SELECT count FROM rate_limits WHERE key = 'catalogue:${ip}'`);
    expect(rows).toEqual([{ count: 1 }]);
  });

  /** A catalogue search through the API as this visitor, and how the site was involved. */
  async function search(ip: string, q: string, cookie?: string) {
    const request = from(ip, `/api/thingiverse/search?q=${encodeURIComponent(q)}`);
    if (cookie) request.headers.set("cookie", cookie);
    return (await run(() => apiSearchLoader(args(request)))).headers.get("x-catalogue-sync");
  }

  it("384 searches from 12 addresses leave the site's budget for everyone else", async () => {
    const busy = Array.from({ length: 12 }, (_, i) => `203.0.113.${100 + i}`);
    for (let round = 0; round < 32; round++) for (const ip of busy) await search(ip, `${ip} ${round}`);
    expect(calls).toHaveLength(busy.length * VISITOR_SYNC_LIMIT);
    expect(calls.length).toBeLessThan(visitorsBudget());
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) expect(await search(ip, `fresh ${ip}`)).toBe("updated");
  });

  it("a signed-in visitor has a share of their own, whatever others at their address asked", async () => {
    const office = "192.0.2.80";
    for (let i = 0; i < VISITOR_SYNC_LIMIT; i++) expect(await search(office, `office ${i}`)).toBe("updated");
    expect(await search(office, "office more")).toBe("limited");
    const cookie = await sessionCookieFor((await createTestUser()).id);
    for (let i = 0; i < VISITOR_SYNC_LIMIT; i++) expect(await search(office, `member ${i}`, cookie)).toBe("updated");
    expect(await search(office, "member more", cookie)).toBe("limited"); // their own share, used up
  });

  it("syncs not started by a visitor (scripts, imports) are not counted", async () => {
    for (let i = 0; i < VISITOR_SYNC_LIMIT + 5; i++)
      expect(await syncCatalogueListing({ type: "featured", q: `batch${i}` })).toBe("updated");
    expect(calls).toHaveLength(VISITOR_SYNC_LIMIT + 5);
  });
});

describe("jobs and visitors together", () => {
  it("never ask the site more than its limit in one window, and the jobs keep their part however busy visitors are", async () => {
    for (let i = 0; i < 60; i++) {
      for (let j = 0; j < 5; j++)
        await run(() => apiSearchLoader(args(from(`10.0.${i}.1`, `/api/thingiverse/search?q=v${i}-${j}`))));
    }
    expect(calls).toHaveLength(visitorsBudget()); // the visitors' part, however many addresses ask

    const job = catalogueSourceForJobs({ maxWaitMs: 0 })!; // refuses instead of waiting for budget
    let granted = 0;
    for (let i = 0; i <= siteBudget(); i++) {
      const answer = await job.search(`job ${i}`, { sort: "newest", page: 1 }).catch((error: unknown) => error);
      if (answer instanceof CatalogueRateLimitError) break;
      granted += 1;
    }
    expect(granted).toBe(jobBudget());
    expect(calls).toHaveLength(THINGIVERSE_RATE_LIMIT.limit);

    // a sync nobody's share pays for (a script) finds the site's budget spent too
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await syncCatalogueListing({ type: "featured", q: "script" })).toBe("unavailable");
    warn.mockRestore();
    expect(calls).toHaveLength(THINGIVERSE_RATE_LIMIT.limit);
  });
});

describe("things the site does not have", () => {
  it("a made-up id is asked once per detail TTL, whoever asks", async () => {
    const missing = 990_001;
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      const res = await run(() =>
        detailLoader(args(from(ip, `/models/thingiverse/${missing}`), { source: "thingiverse", id: String(missing) })),
      );
      expect(res.status).toBe(404);
    }
    expect(calls).toEqual([`/things/${missing}`]);
    await expect(getOrderableModel("thingiverse", missing)).rejects.toMatchObject({ code: "not_found" });
    expect(calls).toHaveLength(1);
    // after the TTL the site is asked again (it may have published the thing meanwhile)
    const later = Date.now() + DETAIL_TTL_MS + 1;
    expect(await syncCatalogueModel(missing, { now: () => later })).toBe("missing");
    expect(calls).toHaveLength(2);
  });

  it("a thing that appears later is no longer remembered as missing", async () => {
    const id = 990_002;
    expect(await syncCatalogueModel(id)).toBe("missing");
    const thing = { ...thingiverseFixtures.things[0]!, id, name: "Published Later" };
    server.use(http.get(`${THINGIVERSE_API}/things/${id}`, () => HttpResponse.json(thing)));
    expect(await syncCatalogueModel(id, { force: true })).toBe("updated");
    expect(catalogueSyncMemory().missing).toBe(0);
  });
});

describe("the in-memory caches are bounded", () => {
  /** Answers instantly and counts what it is asked. */
  function countingSource() {
    const asked = { search: 0, model: 0 };
    const source: CatalogueSource = {
      id: "thingiverse",
      search: async () => (asked.search++, { total: 0, models: [] as CatalogueModel[] }),
      getModel: async () => (asked.model++, null),
      getFiles: async () => [],
      getImages: async () => [],
      downloadFile: async () => new Uint8Array(),
    };
    return { source, asked };
  }

  it(`listing freshness keeps at most ${MAX_REMEMBERED} keys, forgetting the oldest`, async () => {
    const { source, asked } = countingSource();
    for (let i = 0; i <= MAX_REMEMBERED; i++) await syncCatalogueListing({ type: "newest", q: `k${i}` }, { source });
    expect(catalogueSyncMemory().listings).toBe(MAX_REMEMBERED);
    expect(asked.search).toBe(MAX_REMEMBERED + 1);
    // the newest key is still fresh, the first one was forgotten
    expect(await syncCatalogueListing({ type: "newest", q: `k${MAX_REMEMBERED}` }, { source })).toBe("cached");
    expect(await syncCatalogueListing({ type: "newest", q: "k0" }, { source })).toBe("updated");
    expect(catalogueSyncMemory().listings).toBe(MAX_REMEMBERED);
  });

  it(`missing ids keep at most ${MAX_REMEMBERED}, forgetting the oldest`, async () => {
    const { source, asked } = countingSource();
    for (let i = 0; i <= MAX_REMEMBERED; i++) await syncCatalogueModel(800_000 + i, { source });
    expect(catalogueSyncMemory().missing).toBe(MAX_REMEMBERED);
    expect(await syncCatalogueModel(800_000 + MAX_REMEMBERED, { source })).toBe("missing");
    expect(asked.model).toBe(MAX_REMEMBERED + 1);
    await syncCatalogueModel(800_000, { source });
    expect(asked.model).toBe(MAX_REMEMBERED + 2);
  });
});

describe("catalogue URLs in href and src", () => {
  const hostile = (id: number) => ({
    ...thingiverseFixtures.things[0]!,
    id,
    name: `Hostile ${id}`,
    public_url: "javascript:alert(document.cookie)",
    thumbnail: "javascript:alert(1)",
    preview_image: null,
    creator: { name: "mallory", public_url: "javascript:alert(2)" },
    default_image: {
      id: 1,
      url: "javascript:alert(3)",
      sizes: [{ type: "display", size: "large", url: "data:text/html,<script>alert(4)</script>" }],
    },
  });

  it("a thing fetched from the site is stored and shown with https links only", async () => {
    server.use(http.get(`${THINGIVERSE_API}/things/:id`, ({ params }) => HttpResponse.json(hostile(Number(params.id)))));
    const { model } = await getModelDetail("thingiverse", 990_010);
    expect(model).toMatchObject({
      name: "Hostile 990010",
      publicUrl: "https://www.thingiverse.com/thing:990010",
      creatorUrl: null,
      thumbnailUrl: null,
      imageUrls: [],
    });
    const db = await getDb();
    const [row] = await db.select().from(catalogueModels).where(eq(catalogueModels.sourceId, 990_010));
    expect(JSON.stringify(row)).not.toMatch(/javascript:|data:/);
  });

  it("rows stored before the check (and kept by a search's coalesce) are cleaned when read", async () => {
    const db = await getDb();
    await db.insert(catalogueModels).values({
      source: "thingiverse",
      sourceId: 990_020,
      name: "Old Hostile Row",
      creatorName: "mallory",
      license: "CC BY",
      creatorUrl: "javascript:alert(1)",
      thumbnailUrl: " javascript:alert(2)",
      publicUrl: "javascript:alert(3)",
      imageUrls: [
        "javascript:alert(4)",
        "//evil.example/x.png",
        "/\\evil.example/y.png",
        "https://cdn.thingiverse.com/ok.jpg",
        "/demo/models/ok.svg",
      ],
      fetchedAt: new Date(),
      sourceCreatedAt: new Date(),
    });
    // a search hit with no creator link must not let the old one through
    server.use(
      http.get(`${THINGIVERSE_API}/search/:term`, () =>
        HttpResponse.json({
          total: 1,
          hits: [
            {
              id: 990_020,
              name: "Old Hostile Row",
              created_at: "2024-01-01T00:00:00+00:00",
              creator: { name: "mallory", public_url: "javascript:x" },
            },
          ],
        }),
      ),
    );
    await syncCatalogueListing({ type: "featured", q: "hostile" });
    const { model } = await getModelDetail("thingiverse", 990_020);
    expect(model).toMatchObject({
      creatorUrl: null,
      publicUrl: "https://www.thingiverse.com/thing:990020",
      thumbnailUrl: "https://cdn.thingiverse.com/ok.jpg",
      imageUrls: ["https://cdn.thingiverse.com/ok.jpg", "/demo/models/ok.svg"],
    });
    const listed = (await listCatalogueModels({ q: "hostile" })).models.find((m) => m.id === 990_020);
    expect(listed?.thumbnailUrl).toBe("https://cdn.thingiverse.com/ok.jpg");
    const order = await getOrderableModel("thingiverse", 990_020);
    expect(order.publicUrl).toBe("https://www.thingiverse.com/thing:990020");
  });

  it("the landing page's featured carousel shows stored thumbnails only through the same rule", async () => {
    const db = await getDb();
    await db.insert(catalogueModels).values([
      {
        source: "thingiverse",
        sourceId: 990_030,
        name: "Featured Hostile Thumbnail",
        license: "CC BY",
        featured: true,
        likeCount: 1_000_000,
        thumbnailUrl: "javascript:alert(5)",
        imageUrls: ["//evil.example/x.png", "https://cdn.thingiverse.com/fine.jpg"],
        fetchedAt: new Date(),
      },
      {
        source: "thingiverse",
        sourceId: 990_031,
        name: "Featured Without A Safe Picture",
        license: "CC BY",
        featured: true,
        likeCount: 999_999,
        thumbnailUrl: "data:image/svg+xml,<svg onload=alert(6)>",
        imageUrls: [],
        fetchedAt: new Date(),
      },
    ]);
    const { featured } = await landingLoader(args(new Request("http://localhost:3000/")));
    const shown = Object.fromEntries(featured.map((m) => [m.sourceId, m.thumbnailUrl]));
    expect(shown[990_030]).toBe("https://cdn.thingiverse.com/fine.jpg");
    expect(shown[990_031]).toBeNull();
    expect(JSON.stringify(featured)).not.toMatch(/javascript:|data:|evil\.example/);
  });
});
