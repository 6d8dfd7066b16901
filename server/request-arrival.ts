// A request must arrive at a fair pace, and the bodies still arriving are bounded (decision 030).
// Node cuts headers that take too long and any request past an overall cap (headersTimeout,
// requestTimeout); the guard here cuts a body that stays below a minimum rate after a grace period
// or goes silent or passes its deadline (which grows with what its route may take), and refuses a body
// when its client address, or the machine, already holds too many that are still arriving. A request
// answered before its body arrived frees its place at once; the rest is drained under bounds of its own.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { ServerOptions } from "node:http";
import { clientAddressOf } from "./client-address";
import { bodyLimitFor, refuseRequest, type Refusal } from "./request-body";

export interface ArrivalRules {
  /** all the headers within this long (Node's headersTimeout) */
  headersMs: number;
  /** the whole request, body included, within this long (Node's requestTimeout) */
  requestMs: number;
  /** a body's first moments, before the minimum rate applies */
  graceMs: number;
  /** after the grace, a body's average rate while it waits on the client */
  minBytesPerSecond: number;
  /** the longest silence in the middle of a body */
  idleMs: number;
  /** a body's deadline: this long, plus its most (the route's limit, or its declared length when less) at... */
  deadlineBaseMs: number;
  /** ...this rate, so a few KB/s can't hold a large form's place for half an hour */
  deadlineBytesPerSecond: number;
  /** after an early answer, the rest of the body read and dropped: at most this many bytes... */
  drainBytes: number;
  /** ...within this long, then the connection closes */
  drainMs: number;
  /** bodies still arriving that one client address may hold */
  perAddress: number;
  /** bodies still arriving that the machine holds in all */
  total: number;
  /** how often bodies are checked (and Node checks its own timeouts) */
  checkMs: number;
}

const KB = 1024;

/**
 * A 60 MB upload at the minimum rate would take two hours; its deadline asks 64 KB/s (about 16 minutes),
 * a claim's 21 MB about 6 minutes, a 16 KB text form 30 s. A body trickling a byte every few seconds is cut
 * after the grace; one sent fast and then kept open a byte at a time, at its deadline.
 */
export const ARRIVAL_RULES: ArrivalRules = {
  headersMs: 10_000,
  requestMs: 30 * 60_000,
  graceMs: 10_000,
  minBytesPerSecond: 8 * KB,
  idleMs: 30_000,
  deadlineBaseMs: 30_000,
  deadlineBytesPerSecond: 64 * KB,
  drainBytes: 1024 * KB,
  drainMs: 5000,
  perAddress: 8,
  total: 100,
  checkMs: 1000,
};

/** The Node server options that hold the headers and the whole request to the rules. */
export function httpServerOptions(rules: ArrivalRules): ServerOptions {
  return {
    headersTimeout: rules.headersMs,
    requestTimeout: rules.requestMs,
    connectionsCheckingInterval: rules.checkMs,
  };
}

const SLOW: Refusal = {
  status: 408,
  message: "The request took too long to arrive. Check your connection and try again.",
};
const ADDRESS_FULL: Refusal = {
  status: 429,
  message: "Too many requests from your connection are still arriving. Wait for one to finish and try again.",
  retryAfterSeconds: 10,
};
const MACHINE_FULL: Refusal = {
  status: 503,
  message: "The site is busy receiving other requests. Please try again in a few seconds.",
  retryAfterSeconds: 5,
};

interface Arrival {
  req: ExpressRequest;
  res: ExpressResponse;
  address: string;
  startedAt: number;
  /** the socket's bytesRead when the body began (body bytes read along with the headers are not counted) */
  base: number;
  bytes: number;
  lastProgressAt: number;
  lastCheckAt: number;
  /** time the app held the body back (a reader slower than the client), not counted against the client */
  heldMs: number;
  /** the client's time the whole body may take */
  deadlineMs: number;
}

/** A request carries a body when it says so: a length above zero, or chunks. */
function hasBody(req: ExpressRequest): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

export class ArrivalGuard {
  private arrivals = new Set<Arrival>();
  private byAddress = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly rules: ArrivalRules = ARRIVAL_RULES) {}

  /** Bodies still arriving, from one address or in all. */
  unfinished(address?: string): number {
    return address === undefined ? this.arrivals.size : (this.byAddress.get(address) ?? 0);
  }

  /** Express middleware; it runs after setClientAddress and before anything that reads a body. */
  readonly middleware = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const address = clientAddressOf(req);
    if (this.unfinished(address) >= this.rules.perAddress) return refuseRequest(req, res, ADDRESS_FULL);
    if (this.unfinished() >= this.rules.total) return refuseRequest(req, res, MACHINE_FULL);
    this.track(req, res, address);
    next();
  };

  private track(req: ExpressRequest, res: ExpressResponse, address: string) {
    const now = Date.now();
    const arrival: Arrival = {
      req,
      res,
      address,
      startedAt: now,
      base: req.socket.bytesRead,
      bytes: 0,
      lastProgressAt: now,
      lastCheckAt: now,
      heldMs: 0,
      deadlineMs: this.deadlineOf(req),
    };
    this.arrivals.add(arrival);
    this.byAddress.set(address, this.unfinished(address) + 1);
    const release = () => this.release(arrival);
    // read to its end, or the request or its socket closed (a cut, an error, the client gone)
    req.once("end", release);
    req.once("close", release);
    // answered before the body arrived: its place is free once the answer is out, and the rest drained
    res.once("finish", () => {
      if (req.complete || !this.arrivals.has(arrival)) return;
      this.release(arrival);
      this.drain(req);
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.rules.checkMs);
      this.timer.unref();
    }
  }

  /** Base time plus the body's most (its route's limit, or its declared length when less) at the deadline's rate. */
  private deadlineOf(req: ExpressRequest): number {
    const declared = Number(req.headers["content-length"]);
    const limit = bodyLimitFor(req.path).bytes;
    const most = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limit) : limit;
    return this.rules.deadlineBaseMs + (most * 1000) / this.rules.deadlineBytesPerSecond;
  }

  /** Reads and drops the rest of an answered request's body, within its own bytes and time; past either, closes the connection. */
  private drain(req: ExpressRequest) {
    const { socket } = req;
    // Node may already be dropping the body itself (its data events then never come): count the socket's bytes
    const base = socket.bytesRead;
    const startedAt = Date.now();
    const timer = setInterval(() => {
      if (req.complete || socket.destroyed) return clearInterval(timer);
      if (socket.bytesRead - base > this.rules.drainBytes || Date.now() - startedAt > this.rules.drainMs) {
        clearInterval(timer);
        socket.destroy();
      }
    }, this.rules.checkMs);
    timer.unref();
    socket.once("close", () => clearInterval(timer));
    req.unpipe();
    req.resume();
  }

  private release(arrival: Arrival) {
    if (!this.arrivals.delete(arrival)) return;
    const left = this.unfinished(arrival.address) - 1;
    if (left > 0) this.byAddress.set(arrival.address, left);
    else this.byAddress.delete(arrival.address);
    if (this.arrivals.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private check() {
    const now = Date.now();
    for (const arrival of this.arrivals) {
      const { req } = arrival;
      if (req.complete || req.destroyed) {
        this.release(arrival);
        continue;
      }
      const bytes = req.socket.bytesRead - arrival.base;
      if (bytes > arrival.bytes) {
        arrival.bytes = bytes;
        arrival.lastProgressAt = now;
      }
      // paused by a reader that is behind: the wait is ours, so neither rule counts it
      if (req.readableFlowing === false) {
        arrival.heldMs += now - arrival.lastCheckAt;
        arrival.lastProgressAt = now;
      }
      arrival.lastCheckAt = now;
      const clientMs = now - arrival.startedAt - arrival.heldMs;
      const allowedMs = this.rules.graceMs + (arrival.bytes * 1000) / this.rules.minBytesPerSecond;
      const late = clientMs > allowedMs || clientMs > arrival.deadlineMs;
      if (late || now - arrival.lastProgressAt > this.rules.idleMs) {
        this.release(arrival);
        refuseRequest(req, arrival.res, SLOW);
      }
    }
  }
}
