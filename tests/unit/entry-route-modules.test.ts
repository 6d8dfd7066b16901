// Its own file: the patches are installed once per process, and this one only for a production build's fixed modules.
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { requireInside } from "../../server/package-internals";
import { installCachedRouteMatching, keptEntryRouteModules } from "../../server/route-matching";

type Modules = Record<string, { module: unknown }>;
const entry = requireInside("@remix-run/server-runtime")("./entry.js") as {
  createEntryRouteModules: (routes: Modules) => Record<string, unknown>;
};
const original = entry.createEntryRouteModules;

describe("the render's route modules, listed once per build", () => {
  it("gives every request of the same table the same list, as Remix makes it, and frozen", () => {
    const kept = keptEntryRouteModules(original);
    const routes: Modules = { root: { module: { default: "root" } }, "routes/models": { module: { default: "models" } } };
    const first = kept(routes);
    expect(first).toEqual(original(routes));
    expect(kept(routes)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as Record<string, unknown>).root = "changed";
    }).toThrow(TypeError);
    // another build's table is listed anew
    const other = kept({ ...routes });
    expect(other).not.toBe(first);
    expect(other).toEqual(first);
  });

  it("is what a document request of Remix's server runtime hands the render, once installed for a production build", async () => {
    installCachedRouteMatching({ modulesFixed: true });
    const seen: unknown[] = [];
    const root = { default: () => null };
    const build = {
      mode: "production",
      entry: {
        module: {
          default: (_request: Request, status: number, headers: Headers, context: { routeModules: unknown }) => {
            seen.push(context.routeModules);
            return new Response("<html></html>", { status, headers });
          },
        },
      },
      routes: { root: { id: "root", path: "", module: root } },
      assets: {
        entry: { module: "/entry.js", imports: [] },
        routes: { root: { id: "root", path: "", module: "/root.js", hasLoader: false, hasAction: false } },
        url: "/manifest.js",
        version: "test",
      },
      publicPath: "/",
      assetsBuildDirectory: "build/client",
      future: { v3_singleFetch: true },
      isSpaMode: false,
      basename: undefined,
    } as unknown as ServerBuild;
    const handle = createRequestHandler(build, "production");
    for (let i = 0; i < 2; i++) expect((await handle(new Request("http://localhost/"))).status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]).toEqual({ root });
  });
});
