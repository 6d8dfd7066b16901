import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { isWriteUnavailable } from "~/utils/db.server";
import { NonceProvider } from "~/utils/nonce-provider";
import { describeError } from "~/utils/log-redaction";
import "~/utils/request-state";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // bots and no-JS readers get the whole document at once; browsers get it streamed
  const wholeDocument = isbot(request.headers.get("user-agent") || "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // a render still unfinished after the stream timeout is aborted
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const send = () => {
      shellRendered = true;
      // not destroyed when it ends: a 'close' after the end would make React abort the finished render (and
      // build an error for writing to an ended stream); a reader going away still destroys it, and aborts
      const body = new PassThrough({ autoDestroy: false });
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!wholeDocument) send();
        },
        onAllReady() {
          // a finished render has nothing left to abort: its timer goes with it
          clearTimeout(timer);
          if (wholeDocument) send();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(describeError(error));
        },
      },
    );
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // a held write lock or a read-only database is not a bug: 503 with Retry-After (server/remix-handler.ts)
  if (isWriteUnavailable(error) && context?.requestState) {
    context.requestState.databaseBusy = true;
    console.warn(`database cannot write now: ${new URL(request.url).pathname}`);
    return;
  }
  if (!request.signal.aborted) console.error(describeError(error));
}
