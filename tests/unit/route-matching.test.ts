import { createRequire } from "node:module";
import type * as RouterModule from "@remix-run/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  cachedMatchRoutes,
  installCachedRouteMatching,
  keptDataRoutes,
  keptServerRoutes,
  type MatchableRoute,
} from "../../server/route-matching";
import { appRoutes, samplePaths, type TableRoute } from "./route-table";

const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RouterModule;
const originalMatch = router.matchRoutes;
const cachedMatch = cachedMatchRoutes(router);
type Table = Parameters<typeof originalMatch>[0];
const original = (routes: MatchableRoute[], ...rest: [string | { pathname: string }, string?]) =>
  originalMatch(routes as Table, ...rest);
const cached = (routes: MatchableRoute[], ...rest: [string | { pathname: string }, string?]) =>
  cachedMatch(routes as Table, ...rest);

function expectSameMatches(routes: MatchableRoute[], location: string | { pathname: string }, basename?: string) {
  const want = original(routes, location, basename);
  const got = cached(routes, location, basename);
  const label = JSON.stringify(location);
  expect(got, label).toEqual(want);
  // the matches name the very route objects of the table they were matched against
  got?.forEach((m, i) => expect(m.route, label).toBe(want![i]!.route));
}

afterEach(() => vi.restoreAllMocks());

describe("route matching done once per route table", () => {
  it("matches every address of the app's route table as React Router's own matchRoutes does", () => {
    // both warn alike about the one malformed address
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const routes = appRoutes();
    const paths = samplePaths(routes);
    expect(paths.length).toBeGreaterThan(300);
    for (const path of paths) {
      expectSameMatches(routes, path);
      // asked twice: the second answer comes from the kept branches
      expectSameMatches(routes, path);
      expectSameMatches(routes, { pathname: path });
    }
    for (const path of ["/app", "/app/models", "/application", "/APP/models"]) expectSameMatches(routes, path, "/app");
  });

  it("ranks optional segments, splats, index and sibling order as the original", () => {
    const routes: MatchableRoute[] = [
      {
        path: "",
        children: [
          { path: "one/:two?/three/:four?/:five?" },
          { path: "files/*" },
          { path: "files/new" },
          { path: ":lang?/about" },
          { path: "docs", children: [{ index: true }, { path: ":page" }, { path: "*" }] },
          { path: "same/:a" },
          { path: "same/:b" },
          { path: "Case", caseSensitive: true },
          { path: "/absolute/inside" },
        ],
      },
    ];
    for (const path of [
      "/one/three",
      "/one/2/three/4/5",
      "/one/three/5",
      "/files",
      "/files/new",
      "/files/a/b%2Fc",
      "/about",
      "/en/about",
      "/docs",
      "/docs/",
      "/docs/intro",
      "/docs/a/b",
      "/same/x",
      "/Case",
      "/case",
      "/absolute/inside",
    ])
      expectSameMatches(routes, path);
  });

  it("answers from a changed table with that table's routes, and a new table of the same shape with its own", () => {
    const first: MatchableRoute[] = [{ path: "", children: [{ path: "models/:id" }, { path: "models" }] }];
    expect(cached(first, "/models/new")?.at(-1)?.route).toBe(first[0]!.children![0]);

    // a new table with a route more: its static route now wins
    const changed: MatchableRoute[] = [
      { path: "", children: [{ path: "models/:id" }, { path: "models" }, { path: "models/new" }] },
    ];
    expect(cached(changed, "/models/new")?.at(-1)?.route).toBe(changed[0]!.children![2]);
    expectSameMatches(changed, "/models/new");

    // a path changed in a new table of otherwise equal shape
    const renamed: MatchableRoute[] = [{ path: "", children: [{ path: "designs/:id" }, { path: "models" }] }];
    expect(cached(renamed, "/models/new")).toBeNull();
    expectSameMatches(renamed, "/designs/7");

    // the same shape built anew (as Remix does for each render): matches name the new table's objects
    const again: MatchableRoute[] = [{ path: "", children: [{ path: "models/:id" }, { path: "models" }] }];
    expect(cached(again, "/models/new")?.at(-1)?.route).toBe(again[0]!.children![0]);
    expect(cached(first, "/models/new")?.at(-1)?.route).toBe(first[0]!.children![0]);
  });

  it("refuses the tables the original refuses", () => {
    const indexWithChildren: MatchableRoute[] = [{ path: "", children: [{ index: true, children: [{ path: "x" }] }] }];
    expect(() => cached(indexWithChildren, "/x")).toThrow(/Index routes must not have child routes/);
    const badAbsolute: MatchableRoute[] = [{ path: "a", children: [{ path: "/b" }] }];
    expect(() => cached(badAbsolute, "/b")).toThrow(/Absolute route path "\/b" nested under path "\/a"/);
  });

  it("is what Remix's server runtime and React Router call once installed", () => {
    const { original: kept } = installCachedRouteMatching();
    try {
      expect(kept).toBe(originalMatch);
      expect(router.matchRoutes).not.toBe(originalMatch);
      const { matchServerRoutes } = require("@remix-run/server-runtime/dist/routeMatching.js") as {
        matchServerRoutes: (routes: MatchableRoute[], pathname: string) => { route: MatchableRoute }[] | null;
      };
      const routes = appRoutes();
      expect(matchServerRoutes(routes, "/order/5")?.map((m) => (m.route as TableRoute).id)).toEqual(["root", "routes/order.$id"]);
    } finally {
      (router as { matchRoutes: typeof originalMatch }).matchRoutes = originalMatch;
    }
  });
});

describe("the render's route tables, made once per build", () => {
  const remixRoutes = createRequire(require.resolve("@remix-run/react"))("./routes.js") as {
    createServerRoutes: Parameters<typeof keptServerRoutes>[0];
  };
  const manifest = {
    root: { id: "root", path: "", hasLoader: true },
    "routes/models": { id: "routes/models", parentId: "root", path: "models", hasLoader: true },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  };
  const modules = () => ({ root: { default: () => null }, "routes/models": { default: () => null }, "routes/_index": {} });
  const ids = (routes: unknown[]): unknown =>
    (routes as TableRoute[]).map((r) => [r.id, r.path, r.index, r.children ? ids(r.children) : null]);

  it("gives every render of the same build the same server routes, as Remix makes them", () => {
    const kept = keptServerRoutes(remixRoutes.createServerRoutes);
    const future = {};
    const routeModules = modules();
    const first = kept(manifest, routeModules, future, false);
    expect(ids(first)).toEqual(ids(remixRoutes.createServerRoutes(manifest, routeModules, future, false)));
    // Remix builds a new routeModules object per request, of the same modules
    expect(kept(manifest, { ...routeModules }, future, false)).toBe(first);
    // a module changed (a development rebuild) or another manifest: made anew
    expect(kept(manifest, { ...routeModules, "routes/models": { default: () => null } }, future, false)).not.toBe(first);
    expect(kept({ ...manifest }, routeModules, future, false)).not.toBe(first);
  });

  it("does not compare the modules of a production build, whose modules never change", () => {
    const kept = keptServerRoutes(remixRoutes.createServerRoutes, { modulesFixed: true });
    const future = {};
    const routeModules = new Proxy(modules(), {
      ownKeys: () => {
        throw new Error("the modules were compared");
      },
    });
    const first = kept(manifest, modules(), future, false);
    expect(kept(manifest, routeModules, future, false)).toBe(first);
    expect(kept({ ...manifest }, modules(), future, false)).not.toBe(first);
  });

  it("converts a table to data routes once, and fills each caller's manifest", () => {
    const convert = router.UNSAFE_convertRoutesToDataRoutes as unknown as Parameters<typeof keptDataRoutes>[0];
    const kept = keptDataRoutes(convert);
    const routes = [{ id: "root", path: "", children: [{ id: "child", path: "x" }] }];
    const map = () => ({});
    const firstManifest: Record<string, unknown> = {};
    const first = kept(routes, map, undefined, firstManifest);
    expect(ids(first)).toEqual(ids(convert(routes, map, undefined, {})));
    const secondManifest: Record<string, unknown> = {};
    expect(kept(routes, map, undefined, secondManifest)).toBe(first);
    expect(Object.keys(secondManifest).sort()).toEqual(["child", "root"]);
    expect(kept([...routes], map, undefined, {})).not.toBe(first);
  });
});
