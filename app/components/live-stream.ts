// The browser side of the live stream: one EventSource that is opened again, with growing
// delays, whenever the browser gives it up. A browser reconnects an EventSource by itself only
// after a dropped connection; an answer that is not a stream (429 past the per-user cap of
// streams, a 502 or 503 from a proxy or a restarting machine) closes it for good, so this reopens it.

/** What the stream needs of an EventSource (the browser's, or a stand-in in tests). */
export interface EventSourceLike {
  readonly readyState: number;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
}

/** EventSource.CLOSED */
const CLOSED = 2;

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 60_000;

/** The wait before reopening after `failures` closed streams in a row: doubling from 1 s up to a minute, with jitter. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, failures));
  // between half and all of the ceiling, so many pages refused at once don't come back together
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface LiveStreamHandlers {
  /** something changed for the user */
  onChange(data: string): void;
  /** the stream is open; `token` is the server's cursor at that moment */
  onReady(token: string): void;
}

export interface LiveStreamOptions {
  open(url: string): EventSourceLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  random?: () => number;
}

/** Opens the stream and keeps it open until the returned function is called. */
export function keepLiveStream(url: string, handlers: LiveStreamHandlers, options: LiveStreamOptions): () => void {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let source: EventSourceLike | null = null;
  let retry: unknown = null;
  let failures = 0;
  let stopped = false;

  const connect = () => {
    retry = null;
    if (stopped) return;
    const current = options.open(url);
    source = current;
    current.addEventListener("ready", (event) => {
      failures = 0;
      handlers.onReady(event.data);
    });
    current.addEventListener("change", (event) => handlers.onChange(event.data));
    current.onerror = () => {
      // still CONNECTING: the browser is retrying on its own; CLOSED: it gave up, so we reopen
      if (stopped || current.readyState !== CLOSED || source !== current) return;
      current.close();
      source = null;
      retry = setTimer(connect, reconnectDelayMs(failures++, options.random));
    };
  };
  connect();

  return () => {
    stopped = true;
    if (retry !== null) clearTimer(retry);
    source?.close();
    source = null;
  };
}

/**
 * Holds the reloads the stream asks for while the page is busy (a navigation or a form post under way) and
 * makes one when it is idle again. Reloading in the middle of a post-and-redirect would cancel the redirect's
 * page load after the server had already handed over its one-time toast, so the toast would be lost.
 */
export function createReloadGate(reload: () => void) {
  let busy = false;
  let pending = false;
  return {
    /** a reload now, or once the page is idle */
    request() {
      if (busy) pending = true;
      else reload();
    },
    setBusy(next: boolean) {
      busy = next;
      if (!busy && pending) {
        pending = false;
        reload();
      }
    },
  };
}
