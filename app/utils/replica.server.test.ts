import { describe, expect, it, vi } from "vitest";
import { readFromPrimaryOnMiss, ReplicaSync } from "./replica.server";

/** A replica whose syncs finish when the test says so; `primary` is what a sync brings in. */
function fakeReplica() {
  const state = { local: null as string | null, primary: null as string | null, syncs: 0 };
  const pending: Array<() => void> = [];
  const sync = new ReplicaSync(
    () =>
      new Promise<void>((resolve) => {
        state.syncs += 1;
        const seenAtStart = state.primary;
        pending.push(() => {
          state.local = seenAtStart;
          resolve();
        });
      }),
  );
  const finishSync = async () => {
    await vi.waitFor(() => expect(pending.length).toBeGreaterThan(0));
    pending.shift()!();
  };
  return { state, sync, finishSync };
}

describe("reads that another machine may have just written", () => {
  it("without a replica, a miss is the answer: nothing syncs", async () => {
    const read = vi.fn(async () => undefined);
    expect(await readFromPrimaryOnMiss(read, null)).toBeNull();
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("on a replica, a hit answers at once and a miss syncs once and reads again", async () => {
    const { state, sync, finishSync } = fakeReplica();
    state.local = "old session";
    expect(await readFromPrimaryOnMiss(async () => state.local, sync)).toBe("old session");
    expect(state.syncs).toBe(0);

    state.local = null;
    state.primary = "session started on another machine";
    const found = readFromPrimaryOnMiss(async () => state.local, sync);
    await finishSync();
    expect(await found).toBe("session started on another machine");
    expect(state.syncs).toBe(1);
  });

  it("callers at once share one sync; one arriving while it runs waits for a sync that starts after its call", async () => {
    const { state, sync, finishSync } = fakeReplica();
    state.primary = "first write";
    const together = [sync.fresh(), sync.fresh()];
    await vi.waitFor(() => expect(state.syncs).toBe(1));
    // written after the running sync began: the late callers need the next one
    state.primary = "second write";
    const late = [sync.fresh(), sync.fresh()];
    await finishSync();
    await Promise.all(together);
    expect(state.local).toBe("first write");
    await finishSync();
    await Promise.all(late);
    expect(state.local).toBe("second write");
    expect(state.syncs).toBe(2);
  });

  it("a failed sync is logged and the read answers what the replica has", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = new ReplicaSync(async () => {
      throw new Error("primary unreachable");
    });
    expect(await readFromPrimaryOnMiss(async () => null, failing)).toBeNull();
    expect(errors).toHaveBeenCalledWith("database: the replica could not sync", "primary unreachable");
    // the next miss tries again
    expect(await readFromPrimaryOnMiss(async () => null, failing)).toBeNull();
    expect(errors).toHaveBeenCalledTimes(2);
  });
});
