import { createRequire } from "node:module";
import type * as RouterModule from "@remix-run/router";
import { describe, expect, it, vi } from "vitest";
import { chainStaticHandlers, pruneToChain } from "../../server/route-chain-handlers";
import { cachedMatchRoutes } from "../../server/route-matching";
import { appRoutes, samplePaths, type TableRoute } from "./route-table";

const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RouterModule;
type Routes = Parameters<typeof router.createStaticHandler>[0];
type Context = Exclude<Awaited<ReturnType<ReturnType<typeof router.createStaticHandler>["query"]>>, Response>;

/**
 * The app's table with a loader and an action on every route that report who ran them with what, and
 * `?fail=<route id>` / `?redirect=<route id>` to make that route's loader throw a 404 or redirect.
 * Every third route has an error boundary, as boundaries sit in the real table.
 */
function dataRoutes(): Routes {
  let n = 0;
  const convert = (routes: TableRoute[]): Routes =>
    routes.map((route) => {
      const id = route.id;
      const hasErrorBoundary = id === "root" || n++ % 3 === 0;
      const loader = ({ request, params }: { request: Request; params: Record<string, string | undefined> }) => {
        const search = new URL(request.url).searchParams;
        if (search.get("fail") === id) throw new Response("missing", { status: 404 });
        if (search.get("redirect") === id) return new Response(null, { status: 302, headers: { Location: "/elsewhere" } });
        return { id, params, url: request.url };
      };
      const action = async ({ request }: { request: Request }) => ({ action: id, body: await request.text() });
      const base = { id, path: route.path, caseSensitive: route.caseSensitive, hasErrorBoundary, loader, action };
      return (route.index ? { ...base, index: true } : { ...base, children: convert(route.children ?? []) }) as Routes[number];
    });
  return convert(appRoutes());
}

/** What a page's answer depends on, with the matched routes named by id. */
async function answer(handler: ReturnType<typeof router.createStaticHandler>, request: Request) {
  const result = await handler.query(request);
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const context = result as Context;
  return {
    ...context,
    matches: context.matches.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase })),
    loaderHeaders: Object.keys(context.loaderHeaders),
  };
}

describe("the static handler given only the matched routes", () => {
  it("answers every address of the app's table as the handler of the whole table does", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const routes = dataRoutes();
    const whole = router.createStaticHandler(routes);
    const chained = chainStaticHandlers(router.createStaticHandler, cachedMatchRoutes(router))(routes);
    const addresses = samplePaths(appRoutes()).filter((p) => p.startsWith("/") && !p.startsWith("//"));
    expect(addresses.length).toBeGreaterThan(300);
    const requests: Array<() => Request> = [];
    for (const path of addresses) {
      const url = `http://localhost${path}`;
      requests.push(
        () => new Request(url),
        () => new Request(url, { method: "HEAD" }),
      );
      requests.push(() => new Request(`${url}?index`, { method: "POST", body: "a=1" }));
    }
    for (const [leaf, path] of [
      ["routes/order.$id", "/order/7"],
      ["root", "/dashboard"],
      ["routes/models._index", "/models"],
    ]) {
      requests.push(() => new Request(`http://localhost${path}?fail=${leaf}`));
      requests.push(() => new Request(`http://localhost${path}?redirect=${leaf}`));
      requests.push(() => new Request(`http://localhost${path}`, { method: "POST", body: "b=2" }));
      requests.push(() => new Request(`http://localhost${path}`, { method: "PROPFIND" }));
    }
    for (const request of requests) {
      const label = `${request().method} ${request().url}`;
      expect(await answer(chained, request()), label).toEqual(await answer(whole, request()));
    }
  });

  it("keeps each route's own fields and gives each level only the next one as its child", () => {
    const routes = dataRoutes();
    const matches = cachedMatchRoutes(router)(routes, "/order/7")!;
    expect(matches.map((m) => m.route.id)).toEqual(["root", "routes/order.$id"]);
    const [root] = pruneToChain(matches.map((m) => m.route as never));
    expect(root!.id).toBe("root");
    expect(root!.loader).toBe(routes[0]!.loader);
    expect(root!.children!.map((c) => c.id)).toEqual(["routes/order.$id"]);
    expect(routes[0]!.children!.length).toBeGreaterThan(20);
    const indexChain = cachedMatchRoutes(router)(routes, "/models")!.map((m) => m.route as never);
    const leaf = pruneToChain(indexChain)[0]!.children![0]!;
    expect(leaf.index).toBe(true);
    expect(leaf.children).toBeUndefined();
  });
});
