// What the live streams (/events) hear: one shared poller per process reads the newest message
// and notification ids from the database and tells the streams of the users they concern. It
// learns from the database, not from this process's memory, so a message written through
// another machine reaches a stream held open on this one. The per-user cap counts the streams of every
// process (rows of live_streams, leases this process renews, each taken before its stream opens); the
// per-address and per-machine caps count this process's own, an IPv6 client by its /64.
import { randomUUID } from "node:crypto";
import { isIPv6 } from "node:net";
import { AppError } from "~/domain/app-error";
import { getClient, isBusyError, unlessWriteLocked } from "~/utils/db.server";
import { reachedOwnerSql } from "./orders/jobs.server";
import { syncWithPrimary } from "~/utils/replica.server";

export type LiveEvent = { kind: "message"; id: number; jobId: number } | { kind: "notification"; id: number };
type Listener = (event: LiveEvent) => void;

/** Streams one user may hold open on all server processes together (tabs, devices). */
export const MAX_STREAMS_PER_USER = 6;
/** A stream's row counts this long unless its process renews it (every third of it): a dead process's streams free up. */
export const STREAM_LEASE_MS = 60_000;
/** Streams one process holds in all; the proxy's hard limit leaves room beside them (docs/deployment.md). */
export const MAX_STREAMS_PER_MACHINE = 200;
/** A tenth of a process's streams for one client address (a household or an office shares one; IPv6 by its /64). */
export const MAX_STREAMS_PER_ADDRESS = MAX_STREAMS_PER_MACHINE / 10;

export interface StreamCaps {
  perUser: number;
  perAddress: number;
  perMachine: number;
}

const STREAM_CAPS: StreamCaps = {
  perUser: MAX_STREAMS_PER_USER,
  perAddress: MAX_STREAMS_PER_ADDRESS,
  perMachine: MAX_STREAMS_PER_MACHINE,
};
/** A refused page reopens with its own backoff; this is for other clients. */
const RETRY_SECONDS = 60;
/** Rows one poll reads at most; the rest wait for the next tick. */
const BATCH = 500;

function pollMs() {
  const value = Number(process.env.LIVE_POLL_MS);
  return Number.isFinite(value) && value >= 50 ? value : 1000;
}

interface Cursor {
  message: number;
  notification: number;
}

const busy = () =>
  new AppError("busy", "Live updates are busy right now. The page will reconnect by itself.", {
    retryAfterSeconds: RETRY_SECONDS,
  });

const tooManyForUser = () =>
  new AppError("rate_limited", "Too many live connections are open. Close a tab and try again.", {
    retryAfterSeconds: RETRY_SECONDS,
  });

export class LiveHub {
  private listeners = new Map<number, Set<Listener>>();
  private byAddress = new Map<string, number>();
  private total = 0;
  private cursor: Cursor | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private polling: Promise<void> | null = null;
  /** this process's rows in live_streams */
  private leases = new Set<string>();
  private renewedAt = 0;

  constructor(
    private readonly caps: StreamCaps = STREAM_CAPS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cursor as a token: a stream sends it on connect so a reconnecting page sees it missed something. */
  token(): string {
    return this.cursor ? `${this.cursor.message}:${this.cursor.notification}` : "0:0";
  }

  streamCount(userId: number): number {
    return this.listeners.get(userId)?.size ?? 0;
  }

  /** Streams open from one client address, or on this process in all. */
  openStreams(address?: string): number {
    return address === undefined ? this.total : (this.byAddress.get(addressShare(address)) ?? 0);
  }

  /**
   * Listens for a user's events. Past the per-user or per-address bound it throws AppError("rate_limited"),
   * past the process's bound AppError("busy"); the page's client reopens later either way.
   */
  async subscribe(stream: { userId: number; address: string }, listener: Listener): Promise<() => void> {
    const { userId } = stream;
    const address = addressShare(stream.address);
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    if (set.size >= this.caps.perUser) throw tooManyForUser();
    if (this.openStreams(address) >= this.caps.perAddress) {
      throw new AppError("rate_limited", "Too many live connections are open from your network. Close a tab and try again.", {
        retryAfterSeconds: RETRY_SECONDS,
      });
    }
    if (this.total >= this.caps.perMachine) throw busy();
    // this process's places are taken before the first await, so streams opening together cannot pass a cap
    // each of them saw unreached; each stream its own entry, even when two share one listener function
    const entry: Listener = (event) => listener(event);
    set.add(entry);
    this.listeners.set(userId, set);
    this.byAddress.set(address, this.openStreams(address) + 1);
    this.total += 1;
    let lease: string | undefined;
    let open = true;
    const unsubscribe = () => {
      if (!open) return;
      open = false;
      set.delete(entry);
      if (set.size === 0) this.listeners.delete(userId);
      const left = this.openStreams(address) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
      this.total -= 1;
      if (lease) void this.releaseUserPlace(lease);
      if (this.listeners.size === 0) this.stop();
    };
    try {
      lease = await this.takeUserPlace(userId);
      // the first subscriber sets the cursor, so nothing written after this point is missed
      if (!this.cursor) await this.poll();
    } catch (error) {
      unsubscribe();
      throw error;
    }
    this.schedule();
    return unsubscribe;
  }

  /**
   * Counts a stream against its user's cap over all processes, in one statement (two processes cannot both
   * take the last place), before the stream opens. A held write lock is waited for like any write; past the
   * wait the stream is refused as busy, never opened uncounted (that let one user hold 8 of 6 on two processes).
   */
  private async takeUserPlace(userId: number): Promise<string> {
    const id = randomUUID();
    const now = this.now();
    const client = await getClient();
    const result = await client
      .execute({
        sql: `INSERT INTO live_streams (id, user_id, expires_at)
              SELECT ?1, ?2, ?3 WHERE (SELECT count(*) FROM live_streams WHERE user_id = ?2 AND expires_at > ?4) < ?5`,
        args: [id, userId, now + STREAM_LEASE_MS, now, this.caps.perUser],
      })
      .catch((error: unknown) => {
        throw isBusyError(error) ? busy() : error;
      });
    if (result.rowsAffected === 0) throw tooManyForUser();
    // the first lease starts the renewal clock: a lease just taken needs no renewal on the next tick
    if (this.leases.size === 0) this.renewedAt = now;
    this.leases.add(id);
    return id;
  }

  private async releaseUserPlace(id: string) {
    this.leases.delete(id);
    try {
      const client = await getClient();
      // left behind while the write lock is held: the row expires with its lease
      await unlessWriteLocked(
        () => client.execute({ sql: "DELETE FROM live_streams WHERE id = ?", args: [id] }),
        () => null,
      );
    } catch (error) {
      console.error("live events: a stream's place was not released", error instanceof Error ? error.message : error);
    }
  }

  /** Renews this process's leases every third of their length, and drops every process's expired rows. */
  private async renewLeases() {
    const now = this.now();
    if (this.leases.size === 0 || now - this.renewedAt < STREAM_LEASE_MS / 3) return;
    this.renewedAt = now;
    const ids = [...this.leases];
    const client = await getClient();
    await unlessWriteLocked(
      () =>
        client.batch(
          [
            {
              sql: `UPDATE live_streams SET expires_at = ? WHERE id IN (${ids.map(() => "?").join(", ")})`,
              args: [now + STREAM_LEASE_MS, ...ids],
            },
            { sql: "DELETE FROM live_streams WHERE expires_at <= ?", args: [now] },
          ],
          "write",
        ),
      // tried again on the next tick
      () => (this.renewedAt = 0),
    );
  }

  private schedule() {
    if (this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void Promise.all([this.poll(), this.renewLeases()])
        .catch((error: unknown) => console.error("live events: poll failed", error instanceof Error ? error.message : error))
        .finally(() => this.schedule());
    }, pollMs());
    this.timer.unref?.();
  }

  private stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // with nobody listening the cursor goes stale; the next subscriber starts afresh
    this.cursor = null;
  }

  /** One tick: two cheap max(id) reads, and the new rows only when something changed. */
  poll(): Promise<void> {
    this.polling ??= this.readChanges().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async readChanges() {
    // on a replica, messages written through other machines arrive with a sync: one per tick while streams are open
    await syncWithPrimary();
    const client = await getClient();
    const latest = await client.execute(
      "SELECT (SELECT coalesce(max(id), 0) FROM messages) AS m, (SELECT coalesce(max(id), 0) FROM notifications) AS n",
    );
    const now: Cursor = { message: Number(latest.rows[0]?.m ?? 0), notification: Number(latest.rows[0]?.n ?? 0) };
    const before = this.cursor;
    if (!before) {
      this.cursor = now;
      return;
    }
    const next = { ...before };
    if (now.message > before.message) {
      const rows = await client.execute({
        // an order's owner hears of its messages only once it was paid
        sql: `SELECT m.id, m.job_id, j.customer_id, CASE WHEN ${reachedOwnerSql("j")} THEN p.owner_id END AS owner_id FROM messages m
              JOIN print_jobs j ON j.id = m.job_id LEFT JOIN printers p ON p.id = j.printer_id
              WHERE m.id > ? ORDER BY m.id LIMIT ${BATCH}`,
        args: [before.message],
      });
      for (const row of rows.rows) {
        const event: LiveEvent = { kind: "message", id: Number(row.id), jobId: Number(row.job_id) };
        this.emit(Number(row.customer_id), event);
        if (row.owner_id != null && Number(row.owner_id) !== Number(row.customer_id)) this.emit(Number(row.owner_id), event);
        next.message = Number(row.id);
      }
      if (rows.rows.length < BATCH) next.message = now.message;
    }
    if (now.notification > before.notification) {
      const rows = await client.execute({
        sql: `SELECT id, user_id FROM notifications WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        args: [before.notification],
      });
      for (const row of rows.rows) {
        this.emit(Number(row.user_id), { kind: "notification", id: Number(row.id) });
        next.notification = Number(row.id);
      }
      if (rows.rows.length < BATCH) next.notification = now.notification;
    }
    if (this.cursor) this.cursor = next;
  }

  private emit(userId: number, event: LiveEvent) {
    for (const listener of this.listeners.get(userId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        console.error("live events: a stream failed", error instanceof Error ? error.message : error);
      }
    }
  }
}

declare global {
  // one hub across dev-server reloads
  var __printnearLiveHub: LiveHub | undefined;
}

export function liveHub(): LiveHub {
  globalThis.__printnearLiveHub ??= new LiveHub();
  return globalThis.__printnearLiveHub;
}

/**
 * The address a stream counts against: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an IPv6 one
 * by its /64, the block one subscriber is given, so a client cannot spread its streams over its own addresses.
 */
export function addressShare(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  const bare = address.split("%")[0];
  if (!isIPv6(bare)) return address;
  const groupsOf = (part: string) =>
    part ? part.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group])) : [];
  const [head, tail] = bare.toLowerCase().split("::");
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill("0"), ...after];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}
