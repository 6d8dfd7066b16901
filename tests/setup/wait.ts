// Waiting for a condition instead of sleeping a fixed time (vitest and Playwright alike).

/**
 * Reads until `ok` holds and resolves to that value; a read that throws (a server not up yet) counts as not yet.
 * Fails after `timeoutMs` with the last value or error.
 */
export async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    let last: unknown;
    try {
      const value = await read();
      if (ok(value)) return value;
      last = value;
    } catch (error) {
      last = error instanceof Error ? error.message : error;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
