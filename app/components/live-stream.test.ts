import { describe, expect, it } from "vitest";
import { createReloadGate, keepLiveStream, reconnectDelayMs, RECONNECT_MAX_MS, type EventSourceLike } from "./live-stream";

class FakeSource implements EventSourceLike {
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: { data: string }) => void)[]>();
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data: string) {
    this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  /** the browser's answer to a refused or failed stream (429, 502, 503): closed for good */
  refuse() {
    this.readyState = 2;
    this.onerror?.(new Event("error"));
  }
  /** a dropped connection the browser retries by itself */
  drop() {
    this.readyState = 0;
    this.onerror?.(new Event("error"));
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

function harness() {
  const sources: FakeSource[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const seen: string[] = [];
  const stop = keepLiveStream(
    "/events",
    { onChange: (data) => seen.push(`change:${data}`), onReady: (token) => seen.push(`ready:${token}`) },
    {
      open: () => {
        const source = new FakeSource();
        sources.push(source);
        return source;
      },
      setTimer: (fn, ms) => {
        const timer = { fn, ms, cleared: false };
        timers.push(timer);
        return timer;
      },
      clearTimer: (handle) => ((handle as { cleared: boolean }).cleared = true),
      random: () => 1,
    },
  );
  const fire = () => {
    const timer = timers.shift()!;
    if (!timer.cleared) timer.fn();
    return timer.ms;
  };
  return { sources, timers, seen, stop, fire };
}

describe("the live stream reconnects", () => {
  it("reopens a refused stream after a delay, and a new message still arrives", () => {
    const { sources, seen, fire } = harness();
    sources[0]!.emit("ready", "t1");
    sources[0]!.refuse(); // e.g. 429 past the per-user cap
    expect(sources[0]!.closed).toBe(true);
    expect(sources).toHaveLength(1);
    expect(fire()).toBe(1000);
    expect(sources).toHaveLength(2);
    sources[1]!.emit("ready", "t2");
    sources[1]!.emit("change", '{"kind":"message"}');
    expect(seen).toEqual(["ready:t1", "ready:t2", 'change:{"kind":"message"}']);
  });

  it("backs off while refusals repeat and starts over once a stream opens", () => {
    const { sources, fire } = harness();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      sources.at(-1)!.refuse();
      waits.push(fire());
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    sources.at(-1)!.emit("ready", "t");
    sources.at(-1)!.refuse();
    expect(fire()).toBe(1000);
  });

  it("leaves a dropped connection to the browser's own retry", () => {
    const { sources, timers } = harness();
    sources[0]!.drop();
    expect(timers).toHaveLength(0);
    expect(sources[0]!.closed).toBe(false);
  });

  it("stops for good when the page goes away", () => {
    const { sources, timers, stop } = harness();
    sources[0]!.refuse();
    stop();
    expect(timers[0]!.cleared).toBe(true);
  });
});

describe("reconnectDelayMs", () => {
  it("doubles up to a minute, jittered between half and all of it", () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
    expect(reconnectDelayMs(0, () => 1)).toBe(1000);
    expect(reconnectDelayMs(3, () => 1)).toBe(8000);
    expect(reconnectDelayMs(30, () => 1)).toBe(RECONNECT_MAX_MS);
  });
});

describe("createReloadGate", () => {
  it("reloads at once when the page is idle", () => {
    let reloads = 0;
    const gate = createReloadGate(() => reloads++);
    gate.request();
    expect(reloads).toBe(1);
  });

  it("holds reloads asked for during a navigation and makes one when it ends", () => {
    let reloads = 0;
    const gate = createReloadGate(() => reloads++);
    gate.setBusy(true);
    gate.request();
    gate.request();
    expect(reloads).toBe(0);
    gate.setBusy(true);
    expect(reloads).toBe(0);
    gate.setBusy(false);
    expect(reloads).toBe(1);
    // nothing left over
    gate.setBusy(true);
    gate.setBusy(false);
    expect(reloads).toBe(1);
  });
});
