// Remix calls each route's loader with a copy of the request that leaves out the `index` and `_routes`
// parameters of its address: two URLs parsed and two Requests built per loader (the headers copied, a signal
// made to follow the original's), 2-3 % of a signed-in page (decision 036). Taking a parameter out rewrites the
// whole query in form encoding ("?a=/x" becomes "?a=%2Fx"), so only an address without a query keeps its
// text in the copy; for such an address this wrapper hands the loader the request itself. The loaders then
// share one Request, its headers and its signal (none of ours changes a request's headers). An address with
// a query, and an app without single fetch, still go through Remix's own function. The module is replaced in
// place, as server/route-matching.ts does with the router: npm runs no install scripts here, so node_modules
// cannot be patched.
import { requireInside } from "./package-internals";

export interface LoaderCall {
  loadContext: unknown;
  loader: (args: { request: Request; context: unknown; params: unknown }) => unknown;
  params: unknown;
  request: Request;
  routeId: string;
  singleFetch?: boolean;
}

type CallRouteLoader = (call: LoaderCall) => Promise<unknown>;

/** The parts of Remix's responses module that say what a loader's value is. */
export interface LoaderResults {
  isDeferredData(value: unknown): boolean;
  isRedirectStatusCode(status: number): boolean;
  redirect(url: string, init?: ResponseInit): Response;
}

type DeferredValue = { init?: ResponseInit };

export function sharedLoaderRequests(original: CallRouteLoader, results: LoaderResults): CallRouteLoader {
  return async (call) => {
    if (!call.singleFetch || call.request.url.includes("?")) return original(call);
    const value = await call.loader({ request: call.request, context: call.loadContext, params: call.params });
    if (value === undefined) {
      throw new Error(
        `You defined a loader for route "${call.routeId}" but didn't return anything from your \`loader\` function. ` +
          "Please return a value or `null`.",
      );
    }
    // a deferred value that asks for a redirect is answered as one, as Remix's own function does
    const init = results.isDeferredData(value) ? (value as DeferredValue).init : undefined;
    if (init && results.isRedirectStatusCode(init.status ?? 200)) {
      return results.redirect(new Headers(init.headers).get("Location") as string, init);
    }
    return value;
  };
}

declare global {
  // the module is replaced once per process
  var __printnearOriginalCallRouteLoader: CallRouteLoader | undefined;
}

/** Replaces the callRouteLoader of the server runtime the app's build uses; returns Remix's own. */
export function installSharedLoaderRequests(): { original: CallRouteLoader } {
  const runtime = requireInside("@remix-run/server-runtime");
  const data = runtime("./data.js") as { callRouteLoader: CallRouteLoader };
  if (!globalThis.__printnearOriginalCallRouteLoader) {
    globalThis.__printnearOriginalCallRouteLoader = data.callRouteLoader;
    data.callRouteLoader = sharedLoaderRequests(data.callRouteLoader, runtime("./responses.js") as LoaderResults);
  }
  return { original: globalThis.__printnearOriginalCallRouteLoader };
}
