// The scratch disk's own budget (decision 016): arriving uploads and claim photos reserve their most before a byte
// is written, so held uploads can never fill the volume the database writes to. Past the budget, or when the
// volume's free space would fall under its floor, an upload is refused with AppError "busy" (503, Retry-After).
import { mkdirSync } from "node:fs";
import { readdir, rm, statfs } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "~/domain/app-error";
import { storageConfig } from "./config.server";

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;
/** twenty 50 MB designs arriving at once */
export const DEFAULT_SCRATCH_BUDGET_BYTES = 1024 * MIB;
/** room the database keeps for its own writes (WAL, checkpoints) however full the scratch is */
export const DEFAULT_SCRATCH_MIN_FREE_BYTES = 512 * MIB;
export const SCRATCH_BUSY_MESSAGE = "The site is receiving many uploads right now. Please try again in a minute.";
const RETRY_AFTER_SECONDS = 60;

export interface ScratchConfig {
  directory: string;
  /** bytes all arriving uploads of this process may hold on disk at once */
  budgetBytes: number;
  /** free bytes the scratch directory's volume keeps, counting every reservation as fully written */
  minFreeBytes: number;
}

function bytesSetting(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number of bytes.`);
  return value;
}

export function scratchConfig(env: Env = process.env): ScratchConfig {
  return {
    directory: storageConfig(env).scratchDirectory,
    budgetBytes: bytesSetting(env, "SCRATCH_BUDGET_BYTES", DEFAULT_SCRATCH_BUDGET_BYTES),
    minFreeBytes: bytesSetting(env, "SCRATCH_MIN_FREE_BYTES", DEFAULT_SCRATCH_MIN_FREE_BYTES),
  };
}

/** A place in the budget; release() gives it back (once, however often it is called). */
export interface ScratchReservation {
  readonly bytes: number;
  release(): void;
}

export class ScratchBudget {
  private reserved = 0;

  constructor(readonly config: ScratchConfig) {}

  /** Bytes reserved by uploads still arriving or waiting to be stored. */
  inFlight(): number {
    return this.reserved;
  }

  /** Reserves `bytes` of scratch, or throws AppError "busy" when the budget or the volume's floor would be passed. */
  async reserve(bytes: number): Promise<ScratchReservation> {
    const wanted = Math.max(0, Math.ceil(bytes));
    if (this.reserved + wanted > this.config.budgetBytes) throw busy();
    // taken before the free-space check awaits, so two uploads checking at once both count
    this.reserved += wanted;
    let released = false;
    const reservation: ScratchReservation = {
      bytes: wanted,
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= wanted;
      },
    };
    try {
      mkdirSync(this.config.directory, { recursive: true });
      const volume = await statfs(this.config.directory);
      // files already written count twice here (in the volume's use and in their reservation): the safe side
      if (volume.bavail * volume.bsize - this.reserved < this.config.minFreeBytes) throw busy();
    } catch (error) {
      reservation.release();
      throw error instanceof AppError ? error : busy(error);
    }
    return reservation;
  }
}

function busy(cause?: unknown): AppError {
  return new AppError("busy", SCRATCH_BUSY_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}

declare global {
  var __printnearScratchBudget: ScratchBudget | undefined;
}

/** This process's scratch budget, from the environment. */
export function scratchBudget(): ScratchBudget {
  globalThis.__printnearScratchBudget ??= new ScratchBudget(scratchConfig());
  return globalThis.__printnearScratchBudget;
}

/**
 * Removes what a crash or a cut left in the scratch directory; run at start, before the server listens (one
 * process per machine owns its volume's scratch). Returns how many entries were removed.
 */
export async function sweepScratch(directory = storageConfig().scratchDirectory): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0;
  }
  await Promise.all(names.map((name) => rm(join(directory, name), { recursive: true, force: true })));
  return names.length;
}
