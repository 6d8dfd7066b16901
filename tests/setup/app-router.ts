// The app's real request handler for integration tests: React Router's request handler over the app's whole
// route table (app/routes as the build names it), as server/app-handler.ts runs it. Only the route modules a test
// gives are loaded; every other route matches but has no loader.
import { resolve } from "node:path";
import { createRequestHandler, type ServerBuild } from "react-router";
import frameworkConfig from "../../react-router.config";
import * as entry from "../../app/entry.server";
import * as root from "../../app/root";
import { watchStatements } from "../../app/utils/db.server";
import { requestContext, requestState, type RequestState } from "../../app/utils/request-state";

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
interface ConfigRoute {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: ConfigRoute[];
}

/** The app's route table as app/routes.ts gives it to the build. */
async function routeConfig(): Promise<ConfigRoute[]> {
  (globalThis as { __reactRouterAppDirectory?: string }).__reactRouterAppDirectory = resolve("app");
  return (await (
    await import("../../app/routes")
  ).default) as ConfigRoute[];
}
const table = routeConfig();

/**
 * A handler answering Requests as the server does, with the route modules given by route id ("routes/order.$id");
 * a test that reads what the request left in its state (databaseBusy) passes the state.
 */
export function appRouter(modules: Record<string, unknown>) {
  const handlerOf = table.then((config) => handlerFor(config, modules));
  return async (request: Request, state: RequestState = requestState()) =>
    (await handlerOf)(request, requestContext(state, undefined));
}

function handlerFor(config: ConfigRoute[], modules: Record<string, unknown>) {
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: root as unknown as RouteModule },
  };
  const add = (level: ConfigRoute[], parentId: string) => {
    for (const route of level) {
      const id = route.id ?? route.file.replace(/\.[jt]sx?$/, "");
      routes[id] = {
        id,
        parentId,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        module: (modules[id] ?? {}) as RouteModule,
      };
      if (route.children) add(route.children, id);
    }
  };
  add(config, "root");
  // the browser's side of each route, as a document's render reads it (no script is ever loaded here)
  const assetRoutes = Object.fromEntries(
    Object.values(routes).map((route) => {
      const { module, ...rest } = route as ServerBuild["routes"][string] & { module: RouteModule };
      return [
        rest.id,
        {
          ...rest,
          module: `/${rest.id}.js`,
          imports: [],
          hasLoader: "loader" in module,
          hasAction: "action" in module,
          hasClientLoader: false,
          hasClientAction: false,
          hasClientMiddleware: false,
          hasErrorBoundary: "ErrorBoundary" in module,
        },
      ];
    }),
  );
  const build = {
    mode: "production",
    entry: { module: entry },
    routes,
    assets: { entry: { module: "/entry.js", imports: [] }, routes: assetRoutes, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: frameworkConfig.future,
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    basename: "/",
  } as unknown as ServerBuild;
  return createRequestHandler(build, "production");
}

/** The SQL text of each statement the server's client runs while `work` runs. */
export async function statementsRun(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = watchStatements((sql) => seen.push(sql.replace(/\s+/g, " ").trim()));
  try {
    await work();
    return seen;
  } finally {
    stop();
  }
}
