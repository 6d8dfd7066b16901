import { createRequire } from "node:module";
import { http, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FIXTURE_THING_NON_COMMERCIAL,
  FIXTURE_THING_WITHOUT_FILES,
  makeCubeStl,
  THINGIVERSE_API,
  thingiverseErrorHandlers,
  thingiverseFixtures,
} from "../../../tests/mocks/thingiverse";
import { server } from "../../../tests/setup/msw";
import { CatalogueMalformedResponseError, CatalogueRateLimitError, CatalogueUnavailableError } from "./errors";
import { SlidingWindowRateLimiter } from "./rate-limit";
import { createThingiverseSource, httpsUrl, parseThingiverseDate } from "./thingiverse.server";
import { licenseAllowsCommercialPrinting, type CatalogueSource } from "./types";

const seen: Request[] = [];

beforeEach(() => {
  seen.length = 0;
  server.events.on("request:start", ({ request }) => {
    seen.push(request.clone());
  });
});
afterEach(() => {
  server.events.removeAllListeners();
});

/** A fresh limiter per adapter so tests do not share the process-wide budget. */
function source(overrides: Partial<Parameters<typeof createThingiverseSource>[0]> = {}): CatalogueSource {
  return createThingiverseSource({
    token: "mock-token",
    limiter: new SlidingWindowRateLimiter({ limit: 1000, windowMs: 60_000 }),
    ...overrides,
  });
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

describe("search", () => {
  it("calls /search/{term}/ with type, sort, page and per_page, and the bearer token", async () => {
    await source().search("cable clip", { sort: "popular", page: 2, perPage: 5 });
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!.url);
    expect(url.origin + url.pathname).toBe(`${THINGIVERSE_API}/search/cable%20clip/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ type: "things", sort: "popular", page: "2", per_page: "5" });
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer mock-token");
  });

  it("browses with no term via /search/ (never the deprecated /newest or /popular)", async () => {
    const result = await source().search("   ", { sort: "newest", page: 1 });
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe("/search/");
    expect(url.searchParams.get("sort")).toBe("newest");
    expect(url.searchParams.get("per_page")).toBe("20");
    expect(result.total).toBe(thingiverseFixtures.things.length);
    const dates = result.models.map((m) => m.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("maps hits onto CatalogueModel", async () => {
    const { total, models } = await source().search("dragon", { sort: "relevant", page: 1 });
    expect(total).toBe(1);
    expect(models).toHaveLength(1);
    const m = models[0]!;
    const raw = thingiverseFixtures.things.find((t) => t.id === FIXTURE_THING_NON_COMMERCIAL)!;
    expect(m).toMatchObject({
      sourceId: FIXTURE_THING_NON_COMMERCIAL,
      name: "Articulated Desk Dragon",
      creatorName: "scalesandhinges",
      creatorUrl: "https://www.thingiverse.com/scalesandhinges",
      thumbnailUrl: raw.thumbnail,
      publicUrl: `https://www.thingiverse.com/thing:${FIXTURE_THING_NON_COMMERCIAL}`,
      likeCount: raw.like_count,
      tags: ["dragon", "articulated", "print in place", "flexi", "toy"],
      createdAt: "2025-02-03T17:40:51.000Z",
      isFeatured: true,
      // search hits carry no licence, description or download/view counts
      license: "Other",
      licenseRaw: null,
      description: "",
      downloadCount: 0,
      viewCount: 0,
    });
    expect(m.imageUrls.length).toBeGreaterThan(0);
    expect(licenseAllowsCommercialPrinting(m.license)).toBe(false); // unknown until getModel
  });

  it("clamps page and perPage", async () => {
    await source().search("x", { sort: "relevant", page: 0, perPage: 5000 });
    const url = new URL(seen[0]!.url);
    expect(url.searchParams.get("page")).toBe("1");
    expect(url.searchParams.get("per_page")).toBe("100");
  });

  it("drops a single malformed hit but keeps the rest", async () => {
    server.use(
      http.get(`${THINGIVERSE_API}/search/:term`, () =>
        HttpResponse.json({
          total: 2,
          hits: [
            {
              id: 1,
              name: "Good",
              created_at: "2024-01-01T00:00:00+00:00",
              thumbnail: "https://cdn.example/t.jpg",
              extra_field: { a: 1 },
            },
            { name: "No id" },
          ],
        }),
      ),
    );
    const { models } = await source().search("x", { sort: "relevant", page: 1 });
    expect(models.map((m) => m.name)).toEqual(["Good"]);
    expect(models[0]!.creatorName).toBe("Unknown");
  });

  it("a malformed answer is a CatalogueMalformedResponseError, not a crash", async () => {
    server.use(...thingiverseErrorHandlers.malformed);
    const err = await failure(source().search("x", { sort: "relevant", page: 1 }));
    expect(err).toBeInstanceOf(CatalogueMalformedResponseError);
    expect(err).toBeInstanceOf(CatalogueUnavailableError);
    expect((err as CatalogueMalformedResponseError).issues.join(" ")).toMatch(/hits/);
  });

  it("hits that are all unusable count as malformed", async () => {
    server.use(http.get(`${THINGIVERSE_API}/search/:term`, () => HttpResponse.json({ total: 1, hits: [{ foo: 1 }] })));
    expect(await failure(source().search("x", { sort: "relevant", page: 1 }))).toBeInstanceOf(CatalogueMalformedResponseError);
  });

  it("a non-JSON 200 is a CatalogueMalformedResponseError", async () => {
    server.use(...thingiverseErrorHandlers.notJson);
    expect(await failure(source().search("x", { sort: "relevant", page: 1 }))).toBeInstanceOf(CatalogueMalformedResponseError);
  });
});

describe("getModel", () => {
  it("maps a full thing, including licence, counts and plain-text description", async () => {
    const m = await source().getModel(FIXTURE_THING_NON_COMMERCIAL);
    const raw = thingiverseFixtures.things.find((t) => t.id === FIXTURE_THING_NON_COMMERCIAL)!;
    expect(m).not.toBeNull();
    expect(m!.license).toBe("CC BY-NC");
    expect(m!.licenseRaw).toBe("Creative Commons - Attribution - Non-Commercial");
    expect(licenseAllowsCommercialPrinting(m!.license)).toBe(false);
    expect(m!.downloadCount).toBe(60412);
    expect(m!.viewCount).toBe(310877);
    expect(m!.likeCount).toBe(raw.like_count);
    expect(m!.categoryName).toBe("Toys & Games");
    expect(m!.description).toBe(
      "A print-in-place articulated dragon. No assembly, no supports.\n\nPlease note: the licence is non-commercial — do not sell prints.",
    );
    expect(m!.imageUrls[0]).toMatch(/_display_large\.jpg$/);
  });

  it("normalises every fixture licence, with CC0 and GPL allowed and NC refused", async () => {
    const s = source();
    const got: Record<number, string> = {};
    for (const t of thingiverseFixtures.things) got[t.id] = (await s.getModel(t.id))!.license;
    expect(got).toEqual({
      6201001: "CC BY",
      6201002: "CC BY-NC",
      6201003: "CC BY-SA",
      6201004: "CC0",
      6201005: "CC BY-NC-SA",
      6201006: "CC BY-ND",
      6201007: "GPL",
      6201008: "Other",
      6201009: "CC BY-NC-ND",
    });
  });

  it("returns null for an unknown id (404) and for an invalid id without calling the API", async () => {
    expect(await source().getModel(999)).toBeNull();
    expect(seen).toHaveLength(1);
    expect(await source().getModel(-1)).toBeNull();
    expect(await source().getModel(1.5)).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it("500 → CatalogueUnavailableError with the status", async () => {
    server.use(...thingiverseErrorHandlers.serverError);
    const err = await failure(source().getModel(FIXTURE_THING_NON_COMMERCIAL));
    expect(err).toBeInstanceOf(CatalogueUnavailableError);
    expect(err).not.toBeInstanceOf(CatalogueMalformedResponseError);
    expect((err as CatalogueUnavailableError).status).toBe(500);
    expect((err as CatalogueUnavailableError).reason).toBe("http");
  });

  it("503 with an HTML page → CatalogueUnavailableError 503", async () => {
    server.use(...thingiverseErrorHandlers.unavailable);
    const err = await failure(source().getFiles(FIXTURE_THING_NON_COMMERCIAL));
    expect((err as CatalogueUnavailableError).status).toBe(503);
  });

  it("times out with a typed error", async () => {
    server.use(...thingiverseErrorHandlers.timeout);
    const started = Date.now();
    const err = await failure(source({ timeoutMs: 50 }).getModel(FIXTURE_THING_NON_COMMERCIAL));
    expect(err).toBeInstanceOf(CatalogueUnavailableError);
    expect((err as CatalogueUnavailableError).reason).toBe("timeout");
    expect((err as CatalogueUnavailableError).status).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a 429 from the API → CatalogueRateLimitError with Retry-After", async () => {
    server.use(...thingiverseErrorHandlers.rateLimited);
    const err = await failure(source().getModel(FIXTURE_THING_NON_COMMERCIAL));
    expect(err).toBeInstanceOf(CatalogueRateLimitError);
    expect((err as CatalogueRateLimitError).status).toBe(429);
    expect((err as CatalogueRateLimitError).retryAfterMs).toBe(120_000);
  });

  it("a thing without a usable date is malformed", async () => {
    server.use(http.get(`${THINGIVERSE_API}/things/:id`, () => HttpResponse.json({ id: 5, name: "Dateless" })));
    expect(await failure(source().getModel(5))).toBeInstanceOf(CatalogueMalformedResponseError);
  });
});

describe("getFiles / getImages", () => {
  it("maps files with size, both URLs and format", async () => {
    const files = await source().getFiles(6201004);
    expect(files).toEqual([
      expect.objectContaining({ name: "pot_90mm.obj", format: "obj", size: 402112 }),
      expect.objectContaining({ name: "tray_90mm.stl", format: "stl", size: 96884 }),
    ]);
    for (const f of files) {
      expect(f.downloadUrl).toBe(`${THINGIVERSE_API}/files/${f.id}/download`);
      expect(f.directUrl).toMatch(/^https:\/\/cdn\.thingiverse\.com\/assets\//);
    }
  });

  it("a thing with no files gives []", async () => {
    expect(await source().getFiles(FIXTURE_THING_WITHOUT_FILES)).toEqual([]);
  });

  it("an unknown thing gives [] for files and images", async () => {
    expect(await source().getFiles(999)).toEqual([]);
    expect(await source().getImages(999)).toEqual([]);
  });

  it("maps images to the large display rendition and a thumbnail", async () => {
    const images = await source().getImages(6201002);
    expect(images).toHaveLength(3);
    for (const img of images) {
      expect(img.url).toMatch(/_display_large\.jpg$/);
      expect(img.thumbnailUrl).toMatch(/_thumb_medium\.jpg$/);
    }
  });
});

describe("rate limiting inside the adapter", () => {
  it("refuses with CatalogueRateLimitError once the budget is spent, without calling the API", async () => {
    const s = source({ limiter: new SlidingWindowRateLimiter({ limit: 2, windowMs: 300_000, maxWaitMs: 0 }) });
    await s.getModel(6201001);
    await s.getFiles(6201001);
    const err = await failure(s.getImages(6201001));
    expect(err).toBeInstanceOf(CatalogueRateLimitError);
    expect(seen).toHaveLength(2);
  });

  it("a download from the API host takes a slot of the budget; one from the CDN does not", async () => {
    let acquired = 0;
    const s = source({ limiter: { acquire: async () => void (acquired += 1) } });
    const file = { id: 1, name: "cube.stl", size: 0, format: "stl" as const };
    await s.downloadFile({ ...file, downloadUrl: `${THINGIVERSE_API}/files/${firstFileId()}/download` }, { maxBytes: 1e7 });
    expect(acquired).toBe(1);
    const cdn = firstCdnUrl();
    await s.downloadFile({ ...file, downloadUrl: `${THINGIVERSE_API}/files/1/download`, directUrl: cdn }, { maxBytes: 1e7 });
    expect(acquired).toBe(1);
    expect(seen.map((r) => new URL(r.url).hostname)).toEqual(["api.thingiverse.com", "cdn.thingiverse.com"]);
  });

  it("a spent budget refuses the API host's download without calling it", async () => {
    const s = source({ limiter: new SlidingWindowRateLimiter({ limit: 1, windowMs: 300_000, maxWaitMs: 0 }) });
    await s.getFiles(6201001);
    const file = { id: 1, name: "cube.stl", size: 0, format: "stl" as const };
    const err = await failure(
      s.downloadFile({ ...file, downloadUrl: `${THINGIVERSE_API}/files/${firstFileId()}/download` }, { maxBytes: 1e7 }),
    );
    expect(err).toBeInstanceOf(CatalogueRateLimitError);
    expect(seen).toHaveLength(1);
  });
});

const allFiles = () => Object.values(thingiverseFixtures.files).flat();
const firstFileId = () => allFiles()[0].id;
const firstCdnUrl = () => allFiles().find((f) => f.direct_url?.startsWith("https://cdn.thingiverse.com/"))!.direct_url!;

describe("mock handlers", () => {
  it("answer 401 without a bearer token, like the real API", async () => {
    const res = await fetch(`${THINGIVERSE_API}/things/6201001`);
    expect(res.status).toBe(401);
    expect(() => createThingiverseSource({ token: "  " })).toThrow(/token/);
  });

  it("serve a valid binary STL of a 20 mm cube from download_url and direct_url", async () => {
    const [file] = await source().getFiles(6201001);
    expect(file!.format).toBe("stl");

    const viaApi = await fetch(file!.downloadUrl, { headers: { Authorization: "Bearer mock-token" } });
    expect(viaApi.status).toBe(200);
    const bytes = new Uint8Array(await viaApi.arrayBuffer());
    expect(bytes.byteLength).toBe(84 + 12 * 50);
    expect(new DataView(bytes.buffer).getUint32(80, true)).toBe(12);

    const viaCdn = await fetch(file!.directUrl!);
    expect(new Uint8Array(await viaCdn.arrayBuffer())).toEqual(bytes);

    // An independent parser agrees it is a closed 20 mm cube (volume in cm³).
    const NodeStl = createRequire(import.meta.url)("node-stl") as new (b: Buffer) => {
      volume: number;
      boundingBox: number[];
      isWatertight: boolean;
    };
    const stl = new NodeStl(Buffer.from(bytes));
    expect(stl.boundingBox).toEqual([20, 20, 20]);
    expect(stl.volume).toBeCloseTo(8, 6);
    expect(stl.isWatertight).toBe(true);
  });

  it("the cube's triangles all face outwards (signed volume is positive)", () => {
    const view = new DataView(makeCubeStl(10).buffer);
    let sixV = 0;
    for (let t = 0; t < 12; t++) {
      const o = 84 + t * 50 + 12;
      const p = [0, 1, 2].map((k) => [0, 1, 2].map((c) => view.getFloat32(o + k * 12 + c * 4, true)));
      const [a, b, c] = p as [number[], number[], number[]];
      sixV +=
        a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) -
        a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) +
        a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!);
    }
    expect(sixV / 6).toBeCloseTo(1000, 6);
  });
});

describe("URLs from the site are kept only when they are https", () => {
  const BAD = "javascript:alert(document.cookie)";
  const raw = thingiverseFixtures.things.find((t) => t.id === 6201001)!;
  /** The fixture thing with every URL replaced by a javascript:, data: or http: one. */
  const hostile = {
    ...raw,
    public_url: BAD,
    thumbnail: "  JavaScript:alert(1)",
    preview_image: "data:image/svg+xml,<svg onload=alert(1)>",
    creator: { ...(raw.creator as object), public_url: "java\tscript:alert(1)" },
    default_image: {
      id: 1,
      url: BAD,
      sizes: [
        { type: "display", size: "large", url: BAD },
        { type: "thumb", size: "medium", url: "http://cdn.thingiverse.com/plain-http.jpg" },
      ],
    },
  };

  it("a thing's page, creator link and images: bad ones dropped, the page link falls back to ours", async () => {
    server.use(http.get(`${THINGIVERSE_API}/things/:id`, () => HttpResponse.json(hostile)));
    const m = (await source().getModel(6201001))!;
    expect(m.publicUrl).toBe("https://www.thingiverse.com/thing:6201001");
    expect(m).not.toHaveProperty("creatorUrl");
    expect(m.thumbnailUrl).toBe("");
    expect(m.imageUrls).toEqual([]);
    expect(JSON.stringify(m)).not.toMatch(/javascript|data:|http:/i);
  });

  it("the same in search hits, and good https URLs on the same answer survive", async () => {
    server.use(
      http.get(`${THINGIVERSE_API}/search/:term`, () =>
        HttpResponse.json({ total: 2, hits: [hostile, { ...hostile, id: 2, thumbnail: "https://cdn.thingiverse.com/ok.jpg" }] }),
      ),
    );
    const { models } = await source().search("x", { sort: "relevant", page: 1 });
    expect(models.map((m) => m.publicUrl)).toEqual([
      "https://www.thingiverse.com/thing:6201001",
      "https://www.thingiverse.com/thing:2",
    ]);
    expect(models.map((m) => m.thumbnailUrl)).toEqual(["", "https://cdn.thingiverse.com/ok.jpg"]);
  });

  it("images and files without an https URL are dropped; a bad direct URL is left out", async () => {
    server.use(
      http.get(`${THINGIVERSE_API}/things/:id/images`, () =>
        HttpResponse.json([
          { id: 1, name: "bad", url: BAD, sizes: [{ type: "display", size: "large", url: BAD }] },
          {
            id: 2,
            name: "good",
            url: "https://cdn.thingiverse.com/good.jpg",
            sizes: [{ type: "thumb", size: "medium", url: "vbscript:x" }],
          },
        ]),
      ),
      http.get(`${THINGIVERSE_API}/things/:id/files`, () =>
        HttpResponse.json([
          { id: 1, name: "a.stl", download_url: BAD },
          { id: 2, name: "b.stl", download_url: `${THINGIVERSE_API}/files/2/download`, direct_url: "javascript:x" },
        ]),
      ),
    );
    expect(await source().getImages(6201001)).toEqual([
      { id: 2, name: "good", url: "https://cdn.thingiverse.com/good.jpg", thumbnailUrl: "https://cdn.thingiverse.com/good.jpg" },
    ]);
    const files = await source().getFiles(6201001);
    expect(files).toEqual([{ id: 2, name: "b.stl", size: 0, downloadUrl: `${THINGIVERSE_API}/files/2/download`, format: "stl" }]);
  });

  it.each([
    ["https://www.thingiverse.com/thing:1", "https://www.thingiverse.com/thing:1"],
    [" https://cdn.thingiverse.com/a b.jpg ", "https://cdn.thingiverse.com/a%20b.jpg"],
    ["http://www.thingiverse.com/thing:1", null],
    ["javascript:alert(1)", null],
    ["JAVASCRIPT:alert(1)", null],
    ["\u0000javascript:alert(1)", null],
    ["data:text/html,<script>alert(1)</script>", null],
    ["//evil.example/x", null],
    ["/thing:1", null],
    ["https://user:pass@evil.example/", null],
    ["", null],
    [null, null],
  ])("httpsUrl(%j) → %j", (raw, expected) => {
    expect(httpsUrl(raw)).toBe(expected);
  });
});

describe("parseThingiverseDate", () => {
  it.each([
    ["2019-10-15T13:12:43+00:00", "2019-10-15T13:12:43.000Z"],
    ["2019-08-09 11:41:43", "2019-08-09T11:41:43.000Z"],
    ["2024-01-01T02:00:00+02:00", "2024-01-01T00:00:00.000Z"],
    ["not a date", null],
    ["", null],
    [null, null],
  ])("%j → %j", (raw, iso) => {
    expect(parseThingiverseDate(raw)).toBe(iso);
  });
});
