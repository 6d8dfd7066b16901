import { createElement, Suspense, type ReactNode } from "react";
import { renderToPipeableStream, type PipeableStream } from "react-dom/server";
import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it, vi } from "vitest";
import { renderWholeDocument } from "../../app/utils/whole-document.server";

// A part that is ready only after a promise settles, as Remix's hydration data is.
function later(ready: Promise<string>) {
  const state: { value?: string } = {};
  void ready.then((value) => (state.value = value));
  return function Later() {
    if (state.value === undefined) throw ready;
    return createElement("script", { nonce: "n" }, state.value);
  };
}

/** React's streaming renderer, read once everything is ready: the HTML browsers got before. */
function streamedWhenReady(element: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream: PipeableStream = renderToPipeableStream(element, {
      onAllReady() {
        const body = new PassThrough();
        stream.pipe(body);
        resolve(text(body));
      },
      onShellError: reject,
    });
  });
}

function page(children: ReactNode) {
  return createElement(
    "html",
    null,
    createElement("body", null, createElement("h1", { className: "title" }, "Printer Dashboard & <stock>"), children),
  );
}

describe("the whole document's render", () => {
  it("waits for every boundary and gives the streaming renderer's HTML, doctype included, with no scripts of React's", async () => {
    const element = () => {
      const Later = later(new Promise((resolve) => setTimeout(() => resolve("window.data = 1"), 5)));
      return page(createElement(Suspense, { fallback: createElement("p", null, "Loading") }, createElement(Later)));
    };
    const html = await renderWholeDocument(element(), 1000);
    expect(html).toBe(await streamedWhenReady(element()));
    expect(html.startsWith("<!DOCTYPE html><html>")).toBe(true);
    expect(html).toContain('<h1 class="title">Printer Dashboard &amp; &lt;stock&gt;</h1>');
    expect(html).toContain('<script nonce="n">window.data = 1</script>');
    expect(html).not.toContain("Loading");
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("reads a render that had nothing to wait for", async () => {
    expect(await renderWholeDocument(page(createElement("p", null, "Ready")), 1000)).toBe(
      '<!DOCTYPE html><html><body><h1 class="title">Printer Dashboard &amp; &lt;stock&gt;</h1><p>Ready</p></body></html>',
    );
  });

  it("draws in one pass a document with nothing to wait for, and leaves a boundary that fails to the browser", async () => {
    function Broken(): ReactNode {
      throw new Error("no stock");
    }
    const complaint = vi.spyOn(console, "error").mockImplementation(() => {});
    const element = page(
      createElement(
        "div",
        null,
        createElement(Suspense, { fallback: createElement("p", null, "Loading") }, createElement(Broken)),
      ),
    );
    const html = await renderWholeDocument(element, 1000);
    expect(html).toBe(await streamedWhenReady(element));
    expect(html).toContain("<p>Loading</p>");
    complaint.mockRestore();
  });

  it("refuses a render that fails outside every boundary, so that Remix can draw its error boundary", async () => {
    function Broken(): ReactNode {
      throw new Error("no printer");
    }
    const Later = later(new Promise((resolve) => setTimeout(() => resolve("x"), 5)));
    await expect(renderWholeDocument(page(createElement(Broken)), 1000)).rejects.toThrow("no printer");
    const afterWaiting = page(
      createElement("div", null, createElement(Suspense, { fallback: null }, createElement(Later)), createElement(Broken)),
    );
    await expect(renderWholeDocument(afterWaiting, 1000)).rejects.toThrow("no printer");
  });

  it("leaves to the browser what is unfinished at the time limit", async () => {
    const Never = later(new Promise(() => {}));
    // React's development build complains of the task it dropped; the production build is silent
    const complaint = vi.spyOn(console, "error").mockImplementation(() => {});
    const started = Date.now();
    const html = await renderWholeDocument(
      page(createElement(Suspense, { fallback: createElement("p", null, "Loading") }, createElement(Never))),
      50,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(html).toContain("<p>Loading</p>");
    expect(html).toContain('<h1 class="title">');
    expect(String(complaint.mock.calls[0]?.[0])).toContain("abortable task");
  });
});
