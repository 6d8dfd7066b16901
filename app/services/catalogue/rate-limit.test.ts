import { describe, expect, it } from "vitest";
import { CatalogueCancelledError, CatalogueRateLimitError, CatalogueUnavailableError } from "./errors";
import { SlidingWindowRateLimiter, THINGIVERSE_RATE_LIMIT, type Clock } from "./rate-limit";

function fakeClock(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
  return {
    clock,
    sleeps,
    advance: (ms: number) => (t += ms),
    get now() {
      return t;
    },
  };
}

describe("SlidingWindowRateLimiter", () => {
  it("allows exactly `limit` requests per window, then frees slots as old ones age out", () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({ limit: 3, windowMs: 1000, clock: c.clock });
    expect(rl.tryAcquire()).toEqual({ ok: true }); // t=0
    c.advance(100);
    expect(rl.tryAcquire()).toEqual({ ok: true }); // t=100
    c.advance(100);
    expect(rl.tryAcquire()).toEqual({ ok: true }); // t=200
    expect(rl.remaining()).toBe(0);

    // Oldest grant (t=0) leaves the window at t=1000: from t=200 that is 800 ms away.
    expect(rl.tryAcquire()).toEqual({ ok: false, retryAfterMs: 800 });
    c.advance(799); // t=999: still inside
    expect(rl.tryAcquire()).toEqual({ ok: false, retryAfterMs: 1 });
    c.advance(1); // t=1000: the t=0 grant has expired (window is [t, t+1000))
    expect(rl.tryAcquire()).toEqual({ ok: true });
    expect(rl.tryAcquire()).toEqual({ ok: false, retryAfterMs: 100 }); // t=100 grant expires at 1100
  });

  it("is a sliding window, not a fixed one: a burst at the end of one window still blocks the next", () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({ limit: 2, windowMs: 1000, clock: c.clock });
    c.advance(990);
    expect(rl.tryAcquire().ok).toBe(true);
    expect(rl.tryAcquire().ok).toBe(true);
    c.advance(20); // a fixed window would have reset at t=1000
    expect(rl.tryAcquire()).toEqual({ ok: false, retryAfterMs: 980 });
  });

  it("acquire() waits for a slot when the wait is short", async () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({ limit: 1, windowMs: 1000, maxWaitMs: 2000, clock: c.clock });
    await rl.acquire();
    c.advance(400);
    await rl.acquire(); // must sleep 600 ms
    expect(c.sleeps).toEqual([600]);
  });

  it("acquire() refuses at once, with a typed error, when the wait would be too long", async () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({
      limit: 2,
      windowMs: 60_000,
      maxWaitMs: 2_000,
      clock: c.clock,
      source: "thingiverse",
    });
    await rl.acquire();
    await rl.acquire();
    c.advance(10_000);
    const err = await rl.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogueRateLimitError);
    expect(err).toBeInstanceOf(CatalogueUnavailableError); // callers catching the base class see it too
    expect((err as CatalogueRateLimitError).retryAfterMs).toBe(50_000);
    expect((err as CatalogueRateLimitError).source).toBe("thingiverse");
    expect(c.sleeps).toEqual([]); // refused without sleeping
  });

  it("the Thingiverse budget is 300 per 5 minutes", () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({ ...THINGIVERSE_RATE_LIMIT, clock: c.clock });
    for (let i = 0; i < 300; i++) {
      expect(rl.tryAcquire().ok).toBe(true);
      c.advance(500); // 300 requests over 150 s
    }
    // t = 150 s; the first grant (t=0) expires at 300 s.
    expect(rl.tryAcquire()).toEqual({ ok: false, retryAfterMs: 150_000 });
    c.advance(150_000);
    expect(rl.tryAcquire().ok).toBe(true);
    expect(rl.tryAcquire().ok).toBe(false); // the second grant (t=0.5 s) needs 500 ms more
  });

  it("rejects nonsense configuration", () => {
    expect(() => new SlidingWindowRateLimiter({ limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => new SlidingWindowRateLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});

describe("waiting for budget", () => {
  it("waits in short slices and gives up as soon as the caller is cancelled", async () => {
    const c = fakeClock();
    const rl = new SlidingWindowRateLimiter({ limit: 1, windowMs: 300_000, maxWaitMs: 300_000, clock: c.clock });
    await rl.acquire();
    // the caller is cancelled during the third slice of its wait
    const err = await rl.acquire({ isCancelled: () => c.sleeps.length >= 3, sliceMs: 1_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogueCancelledError);
    expect(Math.max(...c.sleeps)).toBeLessThanOrEqual(1_000);
    expect(c.sleeps).toEqual([1_000, 1_000, 1_000]);
  });
});
