// The analysis pool's waiting line: one queue per owner, served round-robin, with the work waiting counted in
// jobs and in bytes so one user's uploads cannot fill the line for everyone.
import { AppError } from "~/domain/app-error";

/** More uploads are waiting for analysis than the pool takes; the request may be retried shortly. */
export class AnalysisBusyError extends AppError {
  constructor() {
    super("busy", "The analysis service is busy; please try again in a minute.", { retryAfterSeconds: 60 });
  }
}

export interface QueuedItem {
  owner: string;
  /** bytes of the file this job reads */
  size: number;
}

export interface QueueLimits {
  /** jobs that may wait */
  maxWaiting: number;
  /** bytes of files that may wait in all */
  maxWaitingBytes: number;
  /** bytes of one owner's files that may wait */
  maxWaitingBytesPerOwner: number;
}

export class FairQueue<T extends QueuedItem> {
  /** one queue per owner, in the order owners take turns */
  private queues = new Map<string, T[]>();
  private waitingCount = 0;
  private waitingBytes = 0;

  get count(): number {
    return this.waitingCount;
  }

  get bytes(): number {
    return this.waitingBytes;
  }

  /** Full only when the queued work as a whole, or this owner's share of it, is past its bound. */
  isFull(owner: string, size: number, limits: QueueLimits): boolean {
    const ownerBytes = (this.queues.get(owner) ?? []).reduce((n, p) => n + p.size, 0);
    return (
      this.waitingCount >= limits.maxWaiting ||
      (this.waitingCount > 0 && this.waitingBytes + size > limits.maxWaitingBytes) ||
      (ownerBytes > 0 && ownerBytes + size > limits.maxWaitingBytesPerOwner)
    );
  }

  /** Adds an item at the back of its owner's queue, or at the front with `first`. */
  enqueue(item: T, first = false) {
    const queue = this.queues.get(item.owner);
    if (queue) {
      if (first) queue.unshift(item);
      else queue.push(item);
    } else this.queues.set(item.owner, [item]);
    this.waitingCount += 1;
    this.waitingBytes += item.size;
  }

  /** The next item, round-robin between owners: the owner served goes to the back of the turn order. */
  dequeue(): T | undefined {
    for (const [owner, queue] of this.queues) {
      const item = queue.shift();
      this.queues.delete(owner);
      if (queue.length > 0) this.queues.set(owner, queue);
      if (!item) continue;
      this.waitingCount -= 1;
      this.waitingBytes -= item.size;
      return item;
    }
    return undefined;
  }

  /** Takes every waiting item, in turn order. */
  drain(): T[] {
    const all: T[] = [];
    for (let next = this.dequeue(); next; next = this.dequeue()) all.push(next);
    return all;
  }
}
