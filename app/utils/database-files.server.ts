// The database's -shm and -wal files, checked before a connection is handed out (decision 031). SQLite maps the
// -shm into memory: once it is cut shorter than the mapping, or can no longer be written (an immutable flag, a
// read-only remount), the next statement that touches it kills the process with SIGBUS, which nothing in Node
// can catch or log. A check finds such a fault first and answers 503 instead; it narrows the window, it cannot
// close it (a fault between the check and the statement still crashes).
import { accessSync, closeSync, constants, openSync, readFileSync, statSync, writeSync } from "node:fs";

/** SQLite grows the -shm a region at a time: any other length is a cut (or a file not yet set up by anyone). */
const SHM_REGION = 32_768;

/** How long a check's finding holds: a stat and an access cost about 10 µs, too much for every query. */
export const FILES_CHECK_MS = 100;

/** Thrown instead of touching a database file that would crash the process: the server answers 503. */
export class DatabaseFileFault extends Error {
  readonly code = "DATABASE_FILE_FAULT";
  constructor(message: string) {
    super(message);
    this.name = "DatabaseFileFault";
  }
}

interface FilesState {
  checkedAt: number;
  fault: DatabaseFileFault | null;
  /** The largest -shm seen: where /proc/self/maps cannot be read, a shrink is taken for a cut. */
  largestShm: number;
}

declare global {
  // per database file, one finding for the server and the app build
  var __printnearDatabaseFiles: Map<string, FilesState> | undefined;
}

/** Throws a DatabaseFileFault while the database's -shm or -wal would crash the process or cannot be written. */
export function checkDatabaseFiles(path: string, now = Date.now()) {
  globalThis.__printnearDatabaseFiles ??= new Map();
  let state = globalThis.__printnearDatabaseFiles.get(path);
  if (!state) globalThis.__printnearDatabaseFiles.set(path, (state = { checkedAt: -Infinity, fault: null, largestShm: 0 }));
  if (now - state.checkedAt >= FILES_CHECK_MS) {
    const previous = state.fault;
    state.checkedAt = now;
    state.fault = faultOf(path, state);
    if (state.fault && !previous) console.error(`database file fault: ${state.fault.message}; answering 503`);
    if (!state.fault && previous) console.warn("database files usable again");
  }
  if (state.fault) throw state.fault;
}

/** Lets the next check look at the files at once, not after FILES_CHECK_MS (tests). */
export function forgetDatabaseFilesChecks() {
  for (const state of globalThis.__printnearDatabaseFiles?.values() ?? []) state.checkedAt = -Infinity;
}

function faultOf(path: string, state: FilesState): DatabaseFileFault | null {
  for (const suffix of ["-wal", "-shm"]) {
    const file = `${path}${suffix}`;
    const stats = statSync(file, { throwIfNoEntry: false });
    // none yet: SQLite creates it, and answers an error of its own if it cannot
    if (!stats) continue;
    if (!stats.isFile()) return new DatabaseFileFault(`${suffix} is not a regular file`);
    try {
      // unlike the permission bits, the immutable flag and a read-only mount stop root as well
      accessSync(file, constants.W_OK);
    } catch (error) {
      return new DatabaseFileFault(`${suffix} cannot be written (${(error as NodeJS.ErrnoException).code})`);
    }
    if (suffix === "-shm") return shmCut(file, stats.size, stats.ino, state);
  }
  return null;
}

/**
 * A -shm cut shorter than this process maps: it is written back to its mapped length with zeros, as SQLite
 * itself extends the file for a region it maps, and SQLite then rebuilds its index of the WAL from the -wal
 * (nothing committed is lost). A fault only if that write fails.
 */
function shmCut(file: string, size: number, inode: number, state: FilesState): DatabaseFileFault | null {
  const suspect = size === 0 || size % SHM_REGION !== 0 || size < state.largestShm;
  const mapped = suspect ? mappedLength(inode, state.largestShm) : 0;
  if (size >= mapped) {
    state.largestShm = Math.max(state.largestShm, size);
    return null;
  }
  try {
    const fd = openSync(file, "r+");
    try {
      // written, not only lengthened: a hole would need a block when the mapping first writes it
      writeSync(fd, Buffer.alloc(mapped - size), 0, mapped - size, size);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return new DatabaseFileFault(
      `-shm was cut to ${size} of ${mapped} mapped bytes and cannot be written back (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  console.error(`database file fault: -shm was cut to ${size} of ${mapped} mapped bytes; written back with zeros`);
  state.largestShm = mapped;
  return null;
}

/** How far this process maps the file of `inode` (Linux: /proc/self/maps); elsewhere, the largest size seen. */
function mappedLength(inode: number, largestSeen: number): number {
  let maps: string;
  try {
    maps = readFileSync("/proc/self/maps", "utf8");
  } catch {
    return largestSeen;
  }
  let end = 0;
  for (const line of maps.split("\n")) {
    // start-end perms offset dev inode path
    const [range, , offset, , ino] = line.split(/\s+/);
    if (ino !== String(inode) || !range || !line.includes("-shm")) continue;
    const [start, stop] = range.split("-").map((hex) => parseInt(hex, 16));
    end = Math.max(end, parseInt(offset!, 16) + (stop! - start!));
  }
  return end;
}
