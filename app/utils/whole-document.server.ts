// A page's HTML rendered whole, as one string. The loaders have finished before the render starts, so all a
// document could still stream is Remix's hydration data, which entry.server.tsx reads ahead
// (utils/handoff.server.ts): usually nothing is left to wait for, and the document is drawn in one synchronous
// pass (renderToString). renderToPipeableStream instead turns each of the thousands of pieces into bytes on its
// own, which cost about a seventh of a signed-in page's CPU (docs/decisions/036-signed-in-speed.md).
// When a part is not ready yet (a lazy component's first load), React's stream renderer (renderToNodeStream)
// waits for every Suspense boundary, then hands the document over in one go, piece by piece, through its
// stream's push, ending with null. Those pieces are joined here as text.
import type { ReactElement } from "react";
import { renderToNodeStream, renderToString } from "react-dom/server";
import type { Readable } from "node:stream";
import { text } from "node:stream/consumers";

const DEPRECATION = "Warning: renderToNodeStream is deprecated";

/**
 * React's development build warns on each call that renderToNodeStream is deprecated; it is chosen here on
 * purpose. The production build never warns, so its requests leave console.error alone.
 */
function startRender(element: ReactElement): Readable {
  // the types say NodeJS.ReadableStream; it is a Readable
  const render = () => renderToNodeStream(element) as unknown as Readable;
  if (process.env.NODE_ENV === "production") return render();
  const log = console.error;
  console.error = (...args: unknown[]) => {
    if (!(typeof args[0] === "string" && args[0].startsWith(DEPRECATION))) log(...args);
  };
  try {
    return render();
  } finally {
    console.error = log;
  }
}

/**
 * The element's HTML once every part is ready. The string renderer leaves out the doctype that the streaming
 * one writes before <html>: it is added here, or browsers would draw the page in quirks mode.
 */
export async function renderWholeDocument(element: ReactElement, timeoutMs: number): Promise<string> {
  const html = renderAtOnce(element) ?? (await renderWhole(element, timeoutMs));
  return html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html;
}

/**
 * The element's HTML from one synchronous pass, or null when a part of it was not ready: renderToString then
 * leaves that part's boundary to the browser (it starts with this marker; text and attributes never hold it, as
 * React escapes their "<"), or fails when no boundary holds the part. A whole document waits for it instead.
 */
const LEFT_TO_THE_BROWSER = "<!--$!";
const SUSPENDED_OUTSIDE_BOUNDARIES = "suspended while responding to synchronous input";

function renderAtOnce(element: ReactElement): string | null {
  let html: string;
  try {
    html = renderToString(element);
  } catch (error) {
    if (error instanceof Error && error.message.includes(SUSPENDED_OUTSIDE_BOUNDARIES)) return null;
    throw error;
  }
  return html.includes(LEFT_TO_THE_BROWSER) ? null : html;
}

function renderWhole(element: ReactElement, timeoutMs: number): Promise<string> {
  const stream = startRender(element);
  // a render with nothing to wait for (a boundary that failed, which React leaves to the browser) has already
  // written its document into the stream: read it from there
  if (stream.readableLength > 0) return text(stream);
  return new Promise((resolve, reject) => {
    let html = "";
    // what is still unfinished then is left to the browser (React's fallback), as a streamed render would
    const timer = setTimeout(() => stream.destroy(new Error(`The page took over ${timeoutMs} ms to render.`)), timeoutMs);
    stream.push = (piece: string | null) => {
      if (piece === null) {
        clearTimeout(timer);
        resolve(html);
      } else html += piece;
      return true;
    };
    // an error outside every Suspense boundary ends the render: Remix then draws the error boundary
    stream.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
