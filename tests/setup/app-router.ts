// The app's real request handler for integration tests: Remix's router over the app's whole route table
// (app/routes as the build names it), each read-only request in its request scope as server/remix-handler.ts
// runs it. Only the route modules a test gives are loaded; every other route matches but has no loader.
import { resolve } from "node:path";
import { createRequire } from "node:module";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { vi } from "vitest";
import remixConfig from "../../remix.config.js";
import * as entry from "../../app/entry.server";
import * as root from "../../app/root";
import { getDb } from "../../app/utils/db.server";
import { withRequestScope } from "../../app/utils/request-scope.server";

type RouteModule = ServerBuild["routes"][string]["module"];

/** A handler answering Requests as the server does, with the route modules given by route id ("routes/order.$id"); the load context is optional. */
export function appRouter(modules: Record<string, unknown>) {
  const manifest = flatRoutes(resolve("app"), remixConfig.ignoredRouteFiles);
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: root as unknown as RouteModule },
  };
  for (const route of Object.values(manifest)) {
    routes[route.id] = {
      id: route.id,
      parentId: route.parentId ?? "root",
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      module: (modules[route.id] ?? {}) as RouteModule,
    };
  }
  // the browser's side of each route, as a document's render reads it (no script is ever loaded here)
  const assetRoutes = Object.fromEntries(
    Object.values(routes).map(({ module, ...route }) => [
      route.id,
      {
        ...route,
        module: `/${route.id}.js`,
        imports: [],
        hasLoader: "loader" in module,
        hasAction: "action" in module,
        hasClientLoader: false,
        hasClientAction: false,
        hasErrorBoundary: "ErrorBoundary" in module,
      },
    ]),
  );
  const build = {
    mode: "production",
    entry: { module: entry },
    routes,
    assets: { entry: { module: "/entry.js", imports: [] }, routes: assetRoutes, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: remixConfig.future,
    isSpaMode: false,
    basename: undefined,
  } as unknown as ServerBuild;
  const handle = createRequestHandler(build, "production");
  return (request: Request, context?: AppLoadContext) =>
    request.method === "GET" || request.method === "HEAD"
      ? withRequestScope(() => handle(request, context))
      : handle(request, context);
}

/**
 * The SQL text of each statement the server's client runs while `work` runs: @libsql/client prepares every
 * statement it executes on the libSQL binding's connection (a kept statement is handed back by the same call).
 */
export async function statementsRun(work: () => Promise<unknown>): Promise<string[]> {
  await getDb();
  const clientEntry = createRequire(import.meta.url).resolve("@libsql/client");
  const Binding = createRequire(clientEntry)("libsql") as { prototype: { prepare(sql: string): unknown } };
  const prepare = vi.spyOn(Binding.prototype, "prepare");
  try {
    await work();
    return prepare.mock.calls.map(([sql]) => sql.replace(/\s+/g, " ").trim());
  } finally {
    prepare.mockRestore();
  }
}
