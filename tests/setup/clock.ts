// Tests move the clock instead of sleeping: only Date is faked, so timers, I/O and the database run as usual.
import { vi } from "vitest";

/** Runs `work` while Date reads `ms` (a lease run out, a retry come due), then gives the real clock back. */
export async function atTime<T>(ms: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: ms });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
