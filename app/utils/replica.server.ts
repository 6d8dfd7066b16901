// Reading what another machine wrote when this one reads an embedded replica (decision 035): the replica syncs
// on demand where a flow cannot wait for its interval. Without a replica every call here is the plain read.
import { databaseConfig, getClient } from "./db.server";

/**
 * An embedded replica learns of writes made through other machines when it syncs: every
 * DATABASE_SYNC_INTERVAL_SECONDS, or on demand here. `fresh()` resolves after a sync that started after the call,
 * so a read after it sees what the primary held when it was called; callers waiting at once share one sync.
 */
export class ReplicaSync {
  private running: Promise<void> | null = null;
  private begun = false;
  private queued: Promise<void> | null = null;

  constructor(private readonly sync: () => Promise<unknown>) {}

  fresh(): Promise<void> {
    if (!this.running) return (this.running = this.start());
    // callers before it begins share it; once it has begun, it may miss what a caller wants: one more follows
    if (!this.begun) return this.running;
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return (this.running ??= this.start());
      });
    return this.queued;
  }

  private start(): Promise<void> {
    this.begun = false;
    return Promise.resolve()
      .then(() => {
        this.begun = true;
        return this.sync();
      })
      .then(() => {})
      .finally(() => {
        this.running = null;
      });
  }
}

declare global {
  // null when this process reads the database itself (a local file, or the remote database)
  var __printnearReplicaSync: ReplicaSync | null | undefined;
}

function replicaSync(): ReplicaSync | null {
  if (globalThis.__printnearReplicaSync === undefined) {
    globalThis.__printnearReplicaSync = databaseConfig().syncUrl ? new ReplicaSync(async () => (await getClient()).sync()) : null;
  }
  return globalThis.__printnearReplicaSync;
}

/** Brings this machine's replica up to the primary; nothing to do without a replica. A failed sync is logged, not thrown. */
export async function syncWithPrimary(sync = replicaSync()): Promise<void> {
  try {
    await sync?.fresh();
  } catch (error) {
    console.error("database: the replica could not sync", error instanceof Error ? error.message : error);
  }
}

/**
 * Reads something another machine may have just written (a session, a job, a model, by id): when a replica finds
 * nothing, it syncs once and reads again. Lists are not read this way: they may lag by the sync interval.
 */
export async function readFromPrimaryOnMiss<T>(
  read: () => Promise<T | null | undefined>,
  sync = replicaSync(),
): Promise<T | null> {
  const found = await read();
  if (found != null || !sync) return found ?? null;
  await syncWithPrimary(sync);
  return (await read()) ?? null;
}
