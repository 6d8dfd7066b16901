import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  installSharedLoaderRequests,
  sharedLoaderRequests,
  type LoaderCall,
  type LoaderResults,
} from "../../server/loader-requests";

const runtime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
const { original } = installSharedLoaderRequests();
const results = runtime("./responses.js") as LoaderResults & {
  defer(data: Record<string, unknown>, init?: ResponseInit): unknown;
};
const shared = sharedLoaderRequests(original, results);

/** What a loader can see of the request it was given. */
function seen(request: Request) {
  return {
    url: request.url,
    method: request.method,
    headers: [...request.headers],
    aborted: request.signal.aborted,
  };
}

function call(request: Request, loader: LoaderCall["loader"], singleFetch = true): LoaderCall {
  return { request, loader, params: { id: "6" }, loadContext: { from: "test" }, routeId: "routes/order.$id", singleFetch };
}

/** The loader's view and the answer, from Remix's function and from the wrapper, for one request. */
async function both(makeRequest: () => Request, produce: () => unknown = () => ({ ok: 1 }), singleFetch = true) {
  const answers = [];
  for (const callRouteLoader of [original, shared]) {
    const request = makeRequest();
    const given: Array<{ request: Request; context: unknown; params: unknown }> = [];
    const answer = await callRouteLoader(
      call(
        request,
        (args) => {
          given.push(args);
          return produce();
        },
        singleFetch,
      ),
    ).catch((error: Error) => ({ thrown: error.message }));
    answers.push({
      seen: given.map((args) => ({ ...seen(args.request), context: args.context, params: args.params })),
      same: given[0]?.request === request,
      answer: answer instanceof Response ? { status: answer.status, location: answer.headers.get("Location") } : answer,
    });
  }
  return { remix: answers[0]!, shared: answers[1]! };
}

const ADDRESSES = [
  "http://localhost/order/6",
  "http://localhost/models?q=vase&page=2",
  "http://localhost/printer-dashboard.data",
  "http://localhost/?indexed=1&routes=2",
  "http://localhost/choose-printer?index",
  "http://localhost/choose-printer?index=&draft=3",
  "http://localhost/choose-printer?draft=3&index=1",
  "http://localhost/dashboard.data?_routes=root,routes/dashboard",
  "http://localhost/dashboard?tab=all&_routes=root",
  "http://localhost/choose-printer?%69ndex=1&draft=3",
  "http://localhost/models?q=red%20vase",
  // queries Remix's copy rewrites in form encoding though it takes nothing out
  "http://localhost/auth?redirectTo=/a,b",
  "http://localhost/models?flag",
  "http://localhost/models?a=1&&b=2",
  "http://localhost/models?",
];

describe("a loader's request under single fetch", () => {
  it("is what Remix would give it, for addresses with and without the parameters Remix takes out", async () => {
    for (const address of ADDRESSES) {
      const controller = new AbortController();
      const { remix, shared: ours } = await both(
        () => new Request(address, { headers: { cookie: "pn_session=abc", accept: "text/html" }, signal: controller.signal }),
      );
      expect(ours.seen, address).toEqual(remix.seen);
      expect(ours.answer, address).toEqual(remix.answer);
    }
  });

  it("is the request itself when the address has no query, and Remix's copy when it has one", async () => {
    expect((await both(() => new Request("http://localhost/order/6"))).shared.same).toBe(true);
    expect((await both(() => new Request("http://localhost/models?indexed=1"))).shared.same).toBe(false);
    expect((await both(() => new Request("http://localhost/choose-printer?index"))).shared.same).toBe(false);
    expect((await both(() => new Request("http://localhost/dashboard.data?_routes=root"))).shared.same).toBe(false);
    expect((await both(() => new Request("http://localhost/choose-printer?%69ndex"))).shared.same).toBe(false);
    // Remix itself always copies
    expect((await both(() => new Request("http://localhost/order/6"))).remix.same).toBe(false);
  });

  it("follows the original request's abort, as Remix's copy does", async () => {
    for (const callRouteLoader of [original, shared]) {
      const controller = new AbortController();
      let signal: AbortSignal | undefined;
      await callRouteLoader(
        call(new Request("http://localhost/order/6", { signal: controller.signal }), ({ request }) => {
          signal = request.signal;
          return null;
        }),
      );
      controller.abort();
      expect(signal?.aborted).toBe(true);
    }
  });

  it("refuses a loader that returns nothing with Remix's message, and answers a deferred redirect as Remix does", async () => {
    const nothing = await both(
      () => new Request("http://localhost/order/6"),
      () => undefined,
    );
    expect(nothing.remix.answer).toEqual({
      thrown: expect.stringContaining('You defined a loader for route "routes/order.$id" but didn\'t return anything'),
    });
    expect(nothing.shared.answer).toEqual(nothing.remix.answer);

    const redirecting = await both(
      () => new Request("http://localhost/order/6"),
      () => results.defer({ later: Promise.resolve(1) }, { status: 302, headers: { Location: "/signin" } }),
    );
    expect(redirecting.remix.answer).toEqual({ status: 302, location: "/signin" });
    expect(redirecting.shared.answer).toEqual(redirecting.remix.answer);
  });

  it("leaves an app without single fetch to Remix's function", async () => {
    const { remix, shared: ours } = await both(
      () => new Request("http://localhost/order/6"),
      () => ({ ok: 1 }),
      false,
    );
    expect(ours.same).toBe(false);
    // without single fetch Remix answers a value as JSON
    expect(ours.answer).toEqual({ status: 200, location: null });
    expect(ours).toEqual(remix);
  });
});

describe("installSharedLoaderRequests", () => {
  it("is what the server runtime's routes call, once however often it is installed", async () => {
    expect(installSharedLoaderRequests().original).toBe(original);
    const routes = runtime("./routes.js") as {
      createStaticHandlerDataRoutes(
        manifest: Record<string, unknown>,
        future: Record<string, boolean>,
      ): Array<{ loader(args: { request: Request; params: unknown; context: unknown }): Promise<unknown> }>;
    };
    let given: Request | undefined;
    const [root] = routes.createStaticHandlerDataRoutes(
      {
        root: {
          id: "root",
          path: "",
          module: {
            loader: ({ request }: { request: Request }) => {
              given = request;
              return { user: "casey" };
            },
          },
        },
      },
      { v3_singleFetch: true },
    );
    const request = new Request("http://localhost/dashboard");
    expect(await root!.loader({ request, params: {}, context: {} })).toEqual({ user: "casey" });
    expect(given).toBe(request);
  });
});
