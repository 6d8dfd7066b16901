// Remix answers a page through React Router's static handler, whose query() matches the address against the
// whole route table with the router's own private matchRoutes: flattening, ranking and compiling every route
// on each request, out of reach of the cached matcher (decision 036). This wrapper matches the address with the
// cached matcher first and hands the request to a static handler made once for the matched routes alone (the
// chain from the root to the page), so the private match only ever sees two to five routes. An address no route
// matches, and every other use of the handler, goes to the handler of the whole table.
import type * as RouterModule from "@remix-run/router";

type Router = typeof RouterModule;
type CreateStaticHandler = Router["createStaticHandler"];
type StaticHandler = ReturnType<CreateStaticHandler>;
type DataRoute = StaticHandler["dataRoutes"][number];

/** The most matched chains a handler keeps (an app has one per page route; more means a table changed shape). */
const MAX_CHAINS = 500;

/** The table with only the given routes, parent to child: each a copy with the next as its one child. */
export function pruneToChain(chain: DataRoute[]): DataRoute[] {
  let child: DataRoute | undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const route = chain[i]!;
    child = (child ? { ...route, children: [child] } : { ...route, children: route.index ? undefined : [] }) as DataRoute;
  }
  return child ? [child] : [];
}

export function chainStaticHandlers(original: CreateStaticHandler, matchRoutes: Router["matchRoutes"]): CreateStaticHandler {
  return (routes, opts) => {
    const whole = original(routes, opts);
    const basename = opts?.basename || "/";
    const chains = new Map<string, StaticHandler>();
    const handlerFor = (request: Request): StaticHandler => {
      const matches = matchRoutes(whole.dataRoutes, new URL(request.url).pathname, basename);
      if (!matches || matches.length === 0) return whole;
      const key = matches.map((m) => m.route.id).join("\n");
      let handler = chains.get(key);
      if (!handler) {
        if (chains.size >= MAX_CHAINS) chains.clear();
        handler = original(pruneToChain(matches.map((m) => m.route)), opts);
        chains.set(key, handler);
      }
      return handler;
    };
    return {
      dataRoutes: whole.dataRoutes,
      query: (request, queryOpts) => handlerFor(request).query(request, queryOpts),
      queryRoute: whole.queryRoute,
    };
  };
}
