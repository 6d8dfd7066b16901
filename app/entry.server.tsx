import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
} from "react-router";
import { isDatabaseUnavailable, isWriteUnavailable, sqliteCodesOf } from "~/utils/db.server";
import { NonceProvider } from "~/utils/nonce-provider";
import { describeError } from "~/utils/log-redaction";
import { cspNonceContext, requestStateContext } from "~/utils/request-state";

export const streamTimeout = 5_000;

// Every reader, browser or bot, with JavaScript or without, gets the whole document: the answer starts once
// every Suspense boundary is ready (onAllReady), so no part is left to a script that may never run.
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(cspNonceContext) ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    // errors inside Suspense boundaries; one outside every boundary fails the shell and goes to handleError
    const boundaryErrors: unknown[] = [];
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          if (!request.signal.aborted) for (const error of boundaryErrors) console.error(describeError(error));
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          // the browser draws such a boundary again; the error is still a bug to hear of
          boundaryErrors.push(error);
        },
      },
    );
    // what is still unfinished then is left to the browser (React's fallback)
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // a held write lock, a read-only file, a full disk or a faulty -wal/-shm is not a bug: 503 with Retry-After (server/app-handler.ts)
  const state = context.get(requestStateContext);
  // the router's own refusal of a method (405, or 400 for a read of a route with no loader) is no bug either
  if (
    isRouteErrorResponse(error) &&
    (error as { internal?: boolean }).internal &&
    (error.status === 405 || error.status === 400)
  ) {
    if (state) state.refusedByRouter = true;
    return;
  }
  if (isDatabaseUnavailable(error) && state) {
    state.databaseBusy = true;
    const why = isWriteUnavailable(error) ? "cannot write now" : `unavailable (${sqliteCodesOf(error)[0] ?? "file fault"})`;
    console.warn(`database ${why}: ${new URL(request.url).pathname}`);
    return;
  }
  if (!request.signal.aborted) console.error(describeError(error));
};
