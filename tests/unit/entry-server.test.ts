import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// React's render is replaced by one that lets the test say when the shell and the whole document are ready
const render = vi.hoisted(() => ({
  options: undefined as undefined | Record<string, (...args: unknown[]) => void>,
  abort: vi.fn(),
  pipe: vi.fn(),
}));
vi.mock("react-dom/server", () => ({
  renderToPipeableStream: (_element: unknown, options: Record<string, (...args: unknown[]) => void>) => {
    render.options = options;
    return { pipe: render.pipe, abort: render.abort };
  },
}));

const { default: handleRequest, streamTimeout } = await import("../../app/entry.server");

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

function documentRequest(userAgent: string) {
  const request = new Request("http://localhost/dashboard", { headers: { "user-agent": userAgent } });
  const context = { cspNonce: "nonce" } as unknown as AppLoadContext;
  return handleRequest(request, 200, new Headers(), {} as EntryContext, context) as Promise<Response>;
}

beforeEach(() => {
  vi.useFakeTimers();
  render.abort.mockClear();
  render.pipe.mockClear();
});
afterEach(() => vi.useRealTimers());

describe("the document's render", () => {
  it("streams to browsers from the shell, and a finished render leaves no timer to abort it", async () => {
    const answer = documentRequest(BROWSER);
    render.options!.onShellReady!();
    expect((await answer).status).toBe(200);
    expect(render.pipe).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(1);
    render.options!.onAllReady!();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(streamTimeout + 2000);
    expect(render.abort).not.toHaveBeenCalled();
  });

  it("gives bots the whole document at once", async () => {
    let answered = false;
    const answer = documentRequest(BOT).then((response) => ((answered = true), response));
    render.options!.onShellReady!();
    await Promise.resolve();
    expect(answered).toBe(false);
    render.options!.onAllReady!();
    expect((await answer).headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(render.pipe).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends the body without closing it, and closes it when the reader goes away", async () => {
    const closed = vi.fn();
    const answer = documentRequest(BROWSER);
    render.options!.onShellReady!();
    const destination = render.pipe.mock.calls[0]![0] as import("node:stream").PassThrough;
    destination.on("close", closed);
    destination.end("<!DOCTYPE html><p>done</p>");
    expect(await (await answer).text()).toBe("<!DOCTYPE html><p>done</p>");
    await vi.runAllTimersAsync();
    expect(closed).not.toHaveBeenCalled();

    const second = documentRequest(BROWSER);
    render.options!.onShellReady!();
    const body = render.pipe.mock.calls[1]![0] as import("node:stream").PassThrough;
    body.on("close", closed);
    body.write("<!DOCTYPE html>");
    await (await second).body!.cancel();
    await vi.runAllTimersAsync();
    expect(closed).toHaveBeenCalledOnce();
  });

  it("aborts a render still unfinished after the stream timeout", async () => {
    const answer = documentRequest(BROWSER);
    render.options!.onShellReady!();
    await answer;
    vi.advanceTimersByTime(streamTimeout + 1000);
    expect(render.abort).toHaveBeenCalledOnce();
  });
});
