import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { FixedMarkupProvider } from "~/components/fixed-markup";
import { QUICK_ADD_FIXED_PARTS } from "~/components/quick-add-printer";
import { FOOTER_FIXED_PARTS } from "~/components/site-footer";
import { isDatabaseUnavailable, isWriteUnavailable, sqliteCodesOf } from "~/utils/db.server";
import { NonceProvider } from "~/utils/nonce-provider";
import { readHandOffAhead } from "~/utils/handoff.server";
import { describeError } from "~/utils/log-redaction";
import { renderWholeDocument } from "~/utils/whole-document.server";
import "~/utils/request-state";

export const streamTimeout = 5_000;

let fixedMarkup: Record<string, string> | undefined;
/**
 * The HTML of the parts every page shares unchanged, and of those usually the same, drawn once per process
 * (components/fixed-markup.tsx). The browser hydrates the usual ones: they are drawn as the page's render
 * draws text (renderToString), the others as plain HTML.
 */
export function fixedParts(): Record<string, string> {
  fixedMarkup ??= {
    ...Object.fromEntries(Object.entries(FOOTER_FIXED_PARTS).map(([id, Part]) => [id, renderToStaticMarkup(<Part />)])),
    ...Object.fromEntries(Object.entries(QUICK_ADD_FIXED_PARTS).map(([id, Part]) => [id, renderToString(<Part />)])),
  };
  return fixedMarkup;
}

// Every reader, browser or bot, gets the whole document at once (utils/whole-document.server.ts): the loaders
// are done before the render starts, so streaming would only send the same page in more pieces.
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  await readHandOffAhead(remixContext);
  const html = await renderWholeDocument(
    <NonceProvider value={nonce ?? ""}>
      <FixedMarkupProvider value={fixedParts()}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </FixedMarkupProvider>
    </NonceProvider>,
    streamTimeout + 1000,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(Buffer.from(html), { headers: responseHeaders, status: responseStatusCode });
}

export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // a held write lock, a read-only file, a full disk or a faulty -wal/-shm is not a bug: 503 with Retry-After (server/remix-handler.ts)
  if (isDatabaseUnavailable(error) && context?.requestState) {
    context.requestState.databaseBusy = true;
    const why = isWriteUnavailable(error) ? "cannot write now" : `unavailable (${sqliteCodesOf(error)[0] ?? "file fault"})`;
    console.warn(`database ${why}: ${new URL(request.url).pathname}`);
    return;
  }
  if (!request.signal.aborted) console.error(describeError(error));
}
