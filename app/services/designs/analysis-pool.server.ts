// Model analysis off the request thread: a small pool of worker threads runs the engine (parse, measure,
// preview) so a 48 MB STL's seconds of CPU do not freeze every other request. Bounded queue, a time limit
// per job, MeshError kept across the thread boundary; in-thread only when workers cannot start at all.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AppError } from "~/domain/app-error";
import { MAX_DESIGN_BYTES } from "~/domain/upload-limits";
import {
  analyzeMesh,
  MeshError,
  parseModel,
  renderPreviewPng,
  resolveOptions,
  type AnalysisOptions,
  type AnalysisResult,
  type MeshErrorCode,
} from "~/domain/mesh";
import { AnalysisBusyError, FairQueue } from "./analysis-queue.server";

export { AnalysisBusyError };

export interface PreviewSize {
  width: number;
  height: number;
}

export interface AnalysisJob {
  /** the file's bytes, or `path`: a stored file the worker reads itself (the request thread never holds it) */
  bytes?: Uint8Array;
  path?: string;
  /** the stored file's size in bytes (with `path`) */
  size?: number;
  fileName: string;
  /** whose upload this is: waiting jobs are served round-robin between owners */
  owner?: string;
  options?: AnalysisOptions;
  /** render a PNG preview of this size as well; null or absent: no preview */
  preview?: PreviewSize | null;
}

export interface AnalysisOutput {
  analysis: AnalysisResult;
  /** null when no preview was asked for or rendering it failed (logged) */
  preview: Uint8Array | null;
}

export interface AnalysisPoolOptions {
  /** worker threads; default 1 or 2 (one core stays for requests) */
  size?: number;
  /** jobs that may wait for a free worker; one more is refused with AnalysisBusyError */
  maxWaiting?: number;
  /** bytes of files that may wait in all (the work queued, by what it costs); past it, AnalysisBusyError */
  maxWaitingBytes?: number;
  /** bytes of one owner's files that may wait, so one user cannot fill the queue for everyone */
  maxWaitingBytesPerOwner?: number;
  /** a job running longer is stopped: its worker is terminated and replaced */
  timeoutMs?: number;
  /** the worker entry; tests point it elsewhere */
  workerUrl?: URL | null;
}

export const POOL_DEFAULTS = {
  size: Math.max(1, Math.min(2, availableParallelism() - 1)),
  // waiting jobs hold a path, not the file: the bound is the work queued, not the memory
  maxWaiting: 256,
  maxWaitingBytes: 16 * MAX_DESIGN_BYTES,
  maxWaitingBytesPerOwner: 4 * MAX_DESIGN_BYTES,
  timeoutMs: 20_000,
};

/** The file took longer than the per-job limit to read (treated like a file built to exhaust the reader). */
export class AnalysisTimeoutError extends AppError {
  constructor(limitMs: number) {
    const seconds = limitMs / 1000;
    super(
      "invalid",
      `This file took longer than ${seconds === 1 ? "1 second" : `${seconds} seconds`} to analyse; please simplify it before uploading.`,
    );
  }
}

interface SerializedError {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

type WorkerReply =
  | { type: "ready" }
  | { id: number; ok: true; analysis: AnalysisResult; preview: Uint8Array | null; previewError: SerializedError | null }
  | { id: number; ok: false; error: SerializedError };

/** A MeshError comes back as a MeshError with its code and message; anything else as a plain Error. */
function rebuildError(serialized: SerializedError): Error {
  if (serialized.name === "MeshError" && serialized.code)
    return new MeshError(serialized.message, serialized.code as MeshErrorCode);
  const error = new Error(serialized.message);
  error.name = serialized.name || "Error";
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

/** The engine on this thread: the fallback when no worker can start. */
export async function analyzeInThread(job: AnalysisJob): Promise<AnalysisOutput> {
  const options = job.options ?? {};
  resolveOptions(options);
  const bytes = job.bytes ?? new Uint8Array(await readFile(job.path!));
  const mesh = await parseModel(bytes, job.fileName);
  const analysis = analyzeMesh(mesh, options);
  let preview: Uint8Array | null = null;
  if (job.preview) {
    try {
      preview = renderPreviewPng(mesh, job.preview);
    } catch (error) {
      console.error("preview rendering failed", error);
    }
  }
  return { analysis, preview };
}

/**
 * The worker entry beside this module when it runs from source (tsx, vitest), or under the working directory
 * when it runs from the server build (build/server/index.js has no app/ beside it; the server starts in the
 * project folder, as the Dockerfile does).
 */
export function defaultWorkerUrl(): URL | null {
  const candidates = [
    new URL("./analysis-pool.worker.mjs", import.meta.url),
    pathToFileURL(resolve("app/services/designs/analysis-pool.worker.mjs")),
  ];
  return candidates.find((url) => url.protocol === "file:" && existsSync(fileURLToPath(url))) ?? null;
}

interface Pending {
  id: number;
  job: AnalysisJob;
  owner: string;
  size: number;
  resolve: (output: AnalysisOutput) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  retired: boolean;
  current: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
}

export class AnalysisPool {
  readonly size: number;
  readonly maxWaiting: number;
  readonly timeoutMs: number;
  private readonly workerUrl: URL | null;
  readonly maxWaitingBytes: number;
  readonly maxWaitingBytesPerOwner: number;
  private slots: Slot[] = [];
  private waiting = new FairQueue<Pending>();
  private nextId = 1;
  private started = false;
  private closed = false;
  /** set when workers cannot start: jobs then run on the calling thread */
  private inThread = false;

  constructor(options: AnalysisPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? POOL_DEFAULTS.size));
    this.maxWaiting = Math.max(0, Math.floor(options.maxWaiting ?? POOL_DEFAULTS.maxWaiting));
    this.maxWaitingBytes = Math.max(0, options.maxWaitingBytes ?? POOL_DEFAULTS.maxWaitingBytes);
    this.maxWaitingBytesPerOwner = Math.max(0, options.maxWaitingBytesPerOwner ?? POOL_DEFAULTS.maxWaitingBytesPerOwner);
    this.timeoutMs = Math.max(1, options.timeoutMs ?? POOL_DEFAULTS.timeoutMs);
    this.workerUrl = options.workerUrl === undefined ? defaultWorkerUrl() : options.workerUrl;
  }

  /** Whether jobs run in worker threads (false once the pool fell back to the calling thread). */
  get usesWorkers(): boolean {
    return !this.inThread;
  }

  get stats() {
    return {
      workers: this.slots.length,
      ready: this.slots.filter((s) => s.ready).length,
      running: this.slots.filter((s) => s.current).length,
      waiting: this.waiting.count,
      waitingBytes: this.waiting.bytes,
      inThread: this.inThread,
    };
  }

  /**
   * Analyses a file in a worker. The bytes are copied and the copy's buffer is transferred, so the caller's
   * bytes stay usable (they are stored, or measured for the size estimate, after the analysis).
   */
  run(job: AnalysisJob): Promise<AnalysisOutput> {
    if (this.closed) return Promise.reject(new Error("The analysis pool is closed."));
    this.start();
    if (this.inThread) return analyzeInThread(job);
    const owner = job.owner ?? "";
    const size = job.bytes?.byteLength ?? job.size ?? 0;
    const idleWorker = this.slots.some((s) => s.ready && !s.current);
    if (!idleWorker) {
      if (this.waiting.isFull(owner, size, this)) return Promise.reject(new AnalysisBusyError());
    }
    return new Promise<AnalysisOutput>((resolve, reject) => {
      this.waiting.enqueue({ id: this.nextId++, job, owner, size, resolve, reject });
      this.pump();
    });
  }

  /** Stops the workers; waiting jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.drain()) pending.reject(new Error("The analysis pool is closed."));
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map((slot) => {
        slot.retired = true;
        if (slot.timer) clearTimeout(slot.timer);
        slot.current?.reject(new Error("The analysis pool is closed."));
        slot.current = null;
        return slot.worker.terminate();
      }),
    );
  }

  private start() {
    if (this.started) return;
    this.started = true;
    if (!this.workerUrl) {
      this.fallBack(new Error("the worker entry app/services/designs/analysis-pool.worker.mjs was not found"));
      return;
    }
    for (let k = 0; k < this.size && !this.inThread; k++) this.spawn();
  }

  private spawn() {
    let worker: Worker;
    try {
      worker = new Worker(this.workerUrl!);
    } catch (error) {
      this.fallBack(error);
      return;
    }
    // an idle pool must not keep a process alive (see holdProcess)
    worker.unref();
    const slot: Slot = { worker, ready: false, retired: false, current: null, timer: null };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on("error", (error) => this.onGone(slot, error));
    worker.on("exit", (code) => this.onGone(slot, new Error(`The analysis worker stopped unexpectedly (exit code ${code}).`)));
  }

  private onReply(slot: Slot, reply: WorkerReply) {
    if (slot.retired) return;
    if ("type" in reply) {
      slot.ready = true;
      this.pump();
      return;
    }
    const pending = slot.current;
    if (!pending || pending.id !== reply.id) return;
    this.release(slot);
    if (reply.ok) {
      if (reply.previewError) console.error("preview rendering failed", rebuildError(reply.previewError));
      pending.resolve({ analysis: reply.analysis, preview: reply.preview });
    } else {
      pending.reject(rebuildError(reply.error));
    }
    this.pump();
  }

  /** A worker failed or exited on its own: a failure before it ever started means workers cannot run here. */
  private onGone(slot: Slot, error: Error) {
    if (slot.retired) return;
    slot.retired = true;
    this.slots = this.slots.filter((s) => s !== slot);
    const pending = slot.current;
    this.release(slot);
    void slot.worker.terminate();
    if (!slot.ready) {
      // it never took a job: whatever is waiting is still intact
      this.fallBack(error);
      return;
    }
    console.error("analysis worker failed", error);
    pending?.reject(new Error("The analysis engine stopped unexpectedly while reading this file."));
    if (!this.closed) this.spawn();
    this.pump();
  }

  private release(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
  }

  private pump() {
    if (this.inThread) {
      for (const pending of this.waiting.drain()) analyzeInThread(pending.job).then(pending.resolve, pending.reject);
      return;
    }
    for (const slot of this.slots) {
      if (this.waiting.count === 0) break;
      if (!slot.ready || slot.retired || slot.current) continue;
      this.dispatch(slot, this.waiting.dequeue()!);
    }
    this.holdProcess();
  }

  /** Workers keep the process alive only while a job is waiting or running (a script awaiting a job must not exit). */
  private holdProcess() {
    const busy = this.waiting.count > 0 || this.slots.some((s) => s.current);
    for (const slot of this.slots) {
      if (busy) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private dispatch(slot: Slot, pending: Pending) {
    slot.current = pending;
    const { job } = pending;
    const bytes = job.bytes ? new Uint8Array(job.bytes) : null;
    slot.worker.postMessage(
      {
        id: pending.id,
        bytes,
        path: job.path ?? null,
        fileName: job.fileName,
        options: job.options ?? {},
        preview: job.preview ?? null,
      },
      bytes ? [bytes.buffer] : [],
    );
    slot.timer = setTimeout(() => this.timedOut(slot), this.timeoutMs);
  }

  /** The job is refused; its worker may be stuck in a tight loop, so it is terminated and replaced. */
  private timedOut(slot: Slot) {
    const pending = slot.current;
    if (!pending || slot.retired) return;
    slot.retired = true;
    this.slots = this.slots.filter((s) => s !== slot);
    this.release(slot);
    void slot.worker.terminate();
    pending.reject(new AnalysisTimeoutError(this.timeoutMs));
    if (!this.closed) this.spawn();
    this.pump();
  }

  private fallBack(error: unknown) {
    if (!this.inThread) {
      this.inThread = true;
      console.error("analysis workers cannot start; analysing on the request thread instead", error);
    }
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.retired = true;
      void slot.worker.terminate();
      // a job handed to a worker that then failed to start is run here, from the caller's own bytes
      if (slot.current) this.waiting.enqueue(slot.current, true);
      this.release(slot);
    }
    this.pump();
  }
}

declare global {
  var __printnearAnalysisPool: AnalysisPool | undefined;
}

// When the development server reloads this module (the engine was edited), the old workers still run the
// old engine and throw the old MeshError class: stop them, and start fresh ones on the next job.
void globalThis.__printnearAnalysisPool?.close();
globalThis.__printnearAnalysisPool = undefined;

/** The server's one pool, started on the first job. */
export function getAnalysisPool(): AnalysisPool {
  globalThis.__printnearAnalysisPool ??= new AnalysisPool();
  return globalThis.__printnearAnalysisPool;
}

/** Parse, measure and (optionally) preview a model file in the pool: its bytes, or a stored file's path and size. */
export function analyzeOffThread(
  file: Uint8Array | { path: string; size: number },
  fileName: string,
  options: AnalysisOptions = {},
  extra: { preview?: PreviewSize | null; owner?: string } = {},
): Promise<AnalysisOutput> {
  const source = file instanceof Uint8Array ? { bytes: file } : { path: file.path, size: file.size };
  return getAnalysisPool().run({ ...source, fileName, options, preview: extra.preview ?? null, owner: extra.owner });
}
