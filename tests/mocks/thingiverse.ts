// msw v2 handlers that stand in for Thingiverse (tests, and mock mode: MOCKS=true, with or without a token).
//
// Answers are built from tests/fixtures/thingiverse/*.json, which follow the real API's shapes:
//   things.json — full `GET /things/{id}` answers (9 things, varied licences; 6201006 has no files)
//   files.json  — `GET /things/{id}/files` answers keyed by thing id
//   images.json — `GET /things/{id}/images` answers keyed by thing id
//   demo-things.json — the things the demo data (db/seed.ts) lists, answered by id with their files
//     so Order Print works on every demo catalogue model; they stay out of search answers
// Search hits are a projection of things.json with the smaller field set the real search returns
// (no description, licence or download/view counts).
//
// File downloads (both the API `download_url` and the CDN `direct_url`) answer with generated
// content: the demo things' files with their own meshes (db/demo-catalogue-meshes.ts, which the
// seed analyses for the catalogue models' weights), other .stl files with a binary STL of a 20 mm
// cube, an OBJ cube for .obj, plain text for .txt/.scad. The `size` in files.json is a realistic figure, not the length of these stand-ins.

import { existsSync } from "node:fs";
import { delay, http, HttpResponse, type HttpHandler } from "msw";
import filesFixture from "../fixtures/thingiverse/files.json";
import imagesFixture from "../fixtures/thingiverse/images.json";
import thingsFixture from "../fixtures/thingiverse/things.json";
import demoFixture from "../fixtures/thingiverse/demo-things.json";
import { DEMO_CATALOGUE_MESHES } from "../../db/demo-catalogue-meshes";
import { toBinaryStl } from "../../app/domain/mesh/generate";

export const THINGIVERSE_API = "https://api.thingiverse.com";
export const THINGIVERSE_CDN = "https://cdn.thingiverse.com";

interface FixtureThing {
  id: number;
  name: string;
  url: string;
  public_url: string;
  thumbnail: string;
  added: string;
  creator: unknown;
  is_featured: boolean;
  is_nsfw: boolean;
  like_count: number;
  collect_count: number;
  comment_count: number;
  make_count: number;
  description: string;
  tags: { name: string; tag: string }[];
  default_image: { sizes: { type: string; size: string; url: string }[] } | null;
}

interface FixtureFile {
  id: number;
  name: string;
  download_url: string;
  direct_url?: string;
}

export const thingiverseFixtures = {
  things: thingsFixture as FixtureThing[],
  files: filesFixture as Record<string, FixtureFile[]>,
  images: imagesFixture as Record<string, unknown[]>,
};

/** Things answered by id (the search fixtures and the demo data's models) and every file they list. */
const thingsById = () => [...thingiverseFixtures.things, ...(demoFixture.things as unknown as FixtureThing[])];
const filesByThing = (): Record<string, FixtureFile[]> => ({
  ...thingiverseFixtures.files,
  ...(demoFixture.files as Record<string, FixtureFile[]>),
});

/** The thing without any files, and one under a non-commercial licence (handy in tests). */
export const FIXTURE_THING_WITHOUT_FILES = 6201006;
export const FIXTURE_THING_NON_COMMERCIAL = 6201002;

// ---------------------------------------------------------------------------------------------
// Generated model files
// ---------------------------------------------------------------------------------------------

type Vec3 = [number, number, number];

/** Binary STL of an axis-aligned cube with one corner at the origin: 12 triangles, 684 bytes. */
export function makeCubeStl(sizeMm = 20): Uint8Array {
  const s = sizeMm;
  const v = (x: number, y: number, z: number): Vec3 => [x * s, y * s, z * s];
  // Each face as two triangles, wound counter-clockwise seen from outside (right-hand normal out).
  const faces: { n: Vec3; tris: [Vec3, Vec3, Vec3][] }[] = [
    {
      n: [0, 0, -1],
      tris: [
        [v(0, 0, 0), v(0, 1, 0), v(1, 1, 0)],
        [v(0, 0, 0), v(1, 1, 0), v(1, 0, 0)],
      ],
    },
    {
      n: [0, 0, 1],
      tris: [
        [v(0, 0, 1), v(1, 0, 1), v(1, 1, 1)],
        [v(0, 0, 1), v(1, 1, 1), v(0, 1, 1)],
      ],
    },
    {
      n: [0, -1, 0],
      tris: [
        [v(0, 0, 0), v(1, 0, 0), v(1, 0, 1)],
        [v(0, 0, 0), v(1, 0, 1), v(0, 0, 1)],
      ],
    },
    {
      n: [0, 1, 0],
      tris: [
        [v(0, 1, 0), v(0, 1, 1), v(1, 1, 1)],
        [v(0, 1, 0), v(1, 1, 1), v(1, 1, 0)],
      ],
    },
    {
      n: [-1, 0, 0],
      tris: [
        [v(0, 0, 0), v(0, 0, 1), v(0, 1, 1)],
        [v(0, 0, 0), v(0, 1, 1), v(0, 1, 0)],
      ],
    },
    {
      n: [1, 0, 0],
      tris: [
        [v(1, 0, 0), v(1, 1, 0), v(1, 1, 1)],
        [v(1, 0, 0), v(1, 1, 1), v(1, 0, 1)],
      ],
    },
  ];
  const triangles = faces.flatMap((f) => f.tris.map((t) => ({ n: f.n, t })));
  const buf = new ArrayBuffer(84 + triangles.length * 50);
  const view = new DataView(buf);
  const header = `printnear mock cube ${sizeMm}mm`;
  for (let i = 0; i < header.length && i < 80; i++) view.setUint8(i, header.charCodeAt(i));
  view.setUint32(80, triangles.length, true);
  let o = 84;
  for (const { n, t } of triangles) {
    for (const value of [...n, ...t[0], ...t[1], ...t[2]]) {
      view.setFloat32(o, value, true);
      o += 4;
    }
    view.setUint16(o, 0, true);
    o += 2;
  }
  return new Uint8Array(buf);
}

function cubeObj(sizeMm = 20): string {
  const s = sizeMm;
  const verts = [
    [0, 0, 0],
    [s, 0, 0],
    [s, s, 0],
    [0, s, 0],
    [0, 0, s],
    [s, 0, s],
    [s, s, s],
    [0, s, s],
  ];
  const quads = [
    [1, 4, 3, 2],
    [5, 6, 7, 8],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 4, 8, 7],
    [4, 1, 5, 8],
  ];
  return [
    `# printnear mock cube ${sizeMm}mm`,
    ...verts.map((p) => `v ${p.join(" ")}`),
    ...quads.map((q) => `f ${q.join(" ")}`),
    "",
  ].join("\n");
}

function fileResponse(name: string): Response {
  const ext = name.toLowerCase().split(".").pop();
  const disposition = `attachment; filename="${name.replace(/"/g, "")}"`;
  if (ext === "stl") {
    const demoMesh = DEMO_CATALOGUE_MESHES[name];
    const body = demoMesh ? toBinaryStl(demoMesh(), name) : makeCubeStl(20);
    return new HttpResponse(body, {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(body.byteLength),
        "Content-Disposition": disposition,
      },
    });
  }
  if (ext === "obj") {
    return new HttpResponse(cubeObj(20), { headers: { "Content-Type": "text/plain", "Content-Disposition": disposition } });
  }
  return new HttpResponse(`${name}\n(mock file content)\n`, {
    headers: { "Content-Type": "text/plain", "Content-Disposition": disposition },
  });
}

/** While the file MOCK_CATALOGUE_HOLD_FILE names exists, downloads wait: a test holds a job mid-way so it can kill its worker. */
async function whileHeld() {
  const hold = process.env.MOCK_CATALOGUE_HOLD_FILE;
  while (hold && existsSync(hold)) await delay(50);
}

// ---------------------------------------------------------------------------------------------
// API handlers
// ---------------------------------------------------------------------------------------------

function unauthorized(request: Request): Response | null {
  const auth = request.headers.get("authorization") ?? "";
  if (/^Bearer\s+\S+/.test(auth)) return null;
  return HttpResponse.json({ error: "Unauthorized" }, { status: 401 });
}

const notFound = () => HttpResponse.json({ error: "Not Found" }, { status: 404 });

function findThing(id: string | readonly string[] | undefined): FixtureThing | undefined {
  return thingsById().find((t) => String(t.id) === String(id));
}

/** The smaller object the real search returns per hit. */
function toSearchHit(t: FixtureThing) {
  const preview = t.default_image?.sizes.find((s) => s.type === "preview" && s.size === "featured")?.url;
  return {
    id: t.id,
    name: t.name,
    url: t.url,
    public_url: t.public_url,
    created_at: t.added,
    thumbnail: t.thumbnail,
    preview_image: preview ?? t.thumbnail,
    creator: t.creator,
    is_private: false,
    is_purchased: false,
    is_published: true,
    is_featured: t.is_featured,
    comment_count: t.comment_count,
    collect_count: t.collect_count,
    make_count: t.make_count,
    like_count: t.like_count,
    tags: t.tags,
    is_nsfw: t.is_nsfw,
  };
}

function search(request: Request, rawTerm: string): Response {
  const denied = unauthorized(request);
  if (denied) return denied;
  const url = new URL(request.url);
  const sort = url.searchParams.get("sort") ?? "relevant";
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page")) || 20));
  const words = rawTerm.toLowerCase().split(/\s+/).filter(Boolean);

  const score = (t: FixtureThing): number => {
    if (words.length === 0) return 1;
    const name = t.name.toLowerCase();
    const tags = t.tags.map((tag) => tag.name.toLowerCase()).join(" ");
    const desc = t.description.toLowerCase();
    let total = 0;
    for (const w of words) {
      const s = (name.includes(w) ? 3 : 0) + (tags.includes(w) ? 2 : 0) + (desc.includes(w) ? 1 : 0);
      if (s === 0) return 0; // every word must match somewhere
      total += s;
    }
    return total;
  };

  const matches = thingiverseFixtures.things.map((t) => ({ t, s: score(t) })).filter((m) => m.s > 0);
  matches.sort((a, b) => {
    if (sort === "newest") return Date.parse(b.t.added) - Date.parse(a.t.added);
    if (sort === "popular") return b.t.like_count - a.t.like_count;
    return b.s - a.s || b.t.like_count - a.t.like_count;
  });
  const hits = matches.slice((page - 1) * perPage, page * perPage).map((m) => toSearchHit(m.t));
  return HttpResponse.json({ total: matches.length, hits });
}

export const thingiverseHandlers: HttpHandler[] = [
  http.get(`${THINGIVERSE_API}/search`, ({ request }) => search(request, "")),
  http.get(`${THINGIVERSE_API}/search/`, ({ request }) => search(request, "")),
  http.get(`${THINGIVERSE_API}/search/:term`, ({ request, params }) => search(request, String(params.term ?? ""))),

  http.get(`${THINGIVERSE_API}/things/:id`, ({ request, params }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    return findThing(params.id) ? HttpResponse.json(findThing(params.id)) : notFound();
  }),
  http.get(`${THINGIVERSE_API}/things/:id/files`, ({ request, params }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const files = filesByThing()[String(params.id)];
    return files ? HttpResponse.json(files) : notFound();
  }),
  http.get(`${THINGIVERSE_API}/things/:id/images`, ({ request, params }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const images = thingiverseFixtures.images[String(params.id)];
    return images ? HttpResponse.json(images) : notFound();
  }),

  // The API download endpoint needs the token (the real one then redirects to the CDN; the mock
  // answers with the content directly so callers need not follow redirects).
  http.get(`${THINGIVERSE_API}/files/:fileId/download`, async ({ request, params }) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    await whileHeld();
    const file = Object.values(filesByThing())
      .flat()
      .find((f) => String(f.id) === String(params.fileId));
    return file ? fileResponse(file.name) : notFound();
  }),
  // CDN direct links need no token.
  http.get(`${THINGIVERSE_CDN}/assets/*`, async ({ request }) => {
    await whileHeld();
    const path = new URL(request.url).pathname;
    const file = Object.values(filesByThing())
      .flat()
      .find((f) => f.direct_url && new URL(f.direct_url).pathname === path);
    return file ? fileResponse(file.name) : new HttpResponse("Not Found", { status: 404 });
  }),
];

// ---------------------------------------------------------------------------------------------
// Failure handlers: server.use(...thingiverseErrorHandlers.serverError) in a test
// ---------------------------------------------------------------------------------------------

const anyApiPath = `${THINGIVERSE_API}/*`;

export const thingiverseErrorHandlers = {
  /** Every API call answers 500. */
  serverError: [
    http.get(anyApiPath, () => HttpResponse.json({ error: "Internal Server Error" }, { status: 500 })),
  ] as HttpHandler[],
  /** Every API call answers 503 with an HTML error page (what a proxy in front would send). */
  unavailable: [
    http.get(
      anyApiPath,
      () =>
        new HttpResponse("<html><body>Service Unavailable</body></html>", {
          status: 503,
          headers: { "Content-Type": "text/html" },
        }),
    ),
  ] as HttpHandler[],
  /** Every API call never answers; the adapter's timeout has to fire. */
  timeout: [
    http.get(anyApiPath, async () => {
      await delay("infinite");
      return HttpResponse.json({});
    }),
  ] as HttpHandler[],
  /** Every API call answers 429 with Retry-After: 120. */
  rateLimited: [
    http.get(anyApiPath, () =>
      HttpResponse.json({ error: "Too Many Requests" }, { status: 429, headers: { "Retry-After": "120" } }),
    ),
  ] as HttpHandler[],
  /** Every API call answers 200 with a body of the wrong shape. */
  malformed: [http.get(anyApiPath, () => HttpResponse.json({ hits: "nope", total: "many", id: "x", name: 42 }))] as HttpHandler[],
  /** Every API call answers 200 with a body that is not JSON at all. */
  notJson: [
    http.get(
      anyApiPath,
      () => new HttpResponse("<!doctype html><p>Maintenance</p>", { headers: { "Content-Type": "text/html" } }),
    ),
  ] as HttpHandler[],
};
