// ZIP container of a 3MF package: the central directory is checked before anything is inflated, then the wanted
// entries are streamed through an inflater in ZIP order, every inflated byte counted against the zip-bomb limit.

import { Unzip, UnzipInflate, type AsyncFlateStreamHandler, type UnzipDecoder } from "fflate";
import { MeshError, notAPackage } from "./errors";
import { hasNativeInflate, inflateNative, type InflatedChunk } from "./inflate";

export const MAX_ZIP_ENTRIES = 1000;
export const MAX_INFLATED_BYTES = 500 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 100;
/** Compressed bytes fed to the inflater per step; bounds how far one step can overshoot the inflate limit. */
const FEED_CHUNK = 16 * 1024;

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  size: number;
}

/** Reads the end-of-central-directory record and the directory itself, refusing oversized or lying archives early. */
export function readZipDirectory(bytes: Uint8Array): ZipEntryInfo[] {
  const len = bytes.length;
  if (len < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 3 || bytes[3] !== 4) {
    throw notAPackage("it is not a ZIP archive");
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = len - 22; i >= Math.max(0, len - 22 - 65535); i--) {
    if (dv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notAPackage("its ZIP directory is missing (the file may be truncated)");
  let entries = dv.getUint16(eocd + 10, true);
  let cdSize = dv.getUint32(eocd + 12, true);
  let cdOffset = dv.getUint32(eocd + 16, true);
  if (entries === 0xffff || cdOffset === 0xffffffff) {
    // ZIP64: the real counts sit in the ZIP64 end record named by the locator just before the classic one
    const loc = eocd - 20;
    if (loc < 0 || dv.getUint32(loc, true) !== 0x07064b50) throw notAPackage("its ZIP64 directory is missing");
    const rec = Number(dv.getBigUint64(loc + 8, true));
    if (rec + 56 > len || dv.getUint32(rec, true) !== 0x06064b50) throw notAPackage("its ZIP64 directory is damaged");
    const e64 = Number(dv.getBigUint64(rec + 32, true));
    if (e64 > MAX_ZIP_ENTRIES) throw tooManyEntries(e64);
    entries = e64;
    cdSize = Number(dv.getBigUint64(rec + 40, true));
    cdOffset = Number(dv.getBigUint64(rec + 48, true));
  }
  if (entries > MAX_ZIP_ENTRIES) throw tooManyEntries(entries);
  if (cdOffset + cdSize > eocd) throw notAPackage("its ZIP directory points outside the file (the file may be truncated)");
  const out: ZipEntryInfo[] = [];
  const decoder = new TextDecoder();
  let p = cdOffset;
  let declaredTotal = 0;
  for (let k = 0; k < entries; k++) {
    if (p + 46 > len || dv.getUint32(p, true) !== 0x02014b50) throw notAPackage("its ZIP directory is damaged");
    let compressedSize = dv.getUint32(p + 20, true);
    let size = dv.getUint32(p + 24, true);
    const nameLen = dv.getUint16(p + 28, true);
    const extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    if (size === 0xffffffff || compressedSize === 0xffffffff) {
      // look for the ZIP64 extra field carrying the real sizes
      let e = p + 46 + nameLen;
      const eEnd = e + extraLen;
      while (e + 4 <= eEnd) {
        const id = dv.getUint16(e, true);
        const sz = dv.getUint16(e + 2, true);
        if (id === 1) {
          let f = e + 4;
          if (size === 0xffffffff && f + 8 <= e + 4 + sz) {
            size = Number(dv.getBigUint64(f, true));
            f += 8;
          }
          if (compressedSize === 0xffffffff && f + 8 <= e + 4 + sz) compressedSize = Number(dv.getBigUint64(f, true));
          break;
        }
        e += 4 + sz;
      }
    }
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    declaredTotal += size;
    out.push({ name, compressedSize, size });
    p += 46 + nameLen + extraLen + commentLen;
  }
  if (declaredTotal > inflateLimit(len)) throw zipBomb();
  return out;
}

function inflateLimit(packageBytes: number): number {
  return Math.min(MAX_INFLATED_BYTES, MAX_INFLATE_RATIO * packageBytes);
}

function tooManyEntries(n: number): MeshError {
  return new MeshError(
    `This 3MF file declares ${n.toLocaleString("en-US")} entries; at most ${MAX_ZIP_ENTRIES} are allowed.`,
    "too-many-entries",
  );
}

function zipBomb(): MeshError {
  return new MeshError(
    `This 3MF file expands to more than ${MAX_INFLATE_RATIO} times its size (or past 500 MB) and was refused.`,
    "zip-bomb",
  );
}

/** Opens an entry by its name in the ZIP: where its inflated bytes go, or null to leave it unread. */
export type OpenEntry = (name: string) => InflatedChunk | null;

interface DeferredEntry {
  name: string;
  /** ZIP compression method: 0 stored, 8 deflate */
  method: number;
  /** the container could not hand this entry over (unknown compression) */
  broken: boolean;
  sink: InflatedChunk;
  chunks: Uint8Array[];
  compressed: number;
}

/**
 * Checks the directory, then streams every entry `open` wants to its sink, in ZIP order; the first error (a damaged
 * entry, the zip-bomb limit, or one a sink throws) stops everything. Returns the directory.
 */
export async function readZipEntries(bytes: Uint8Array, open: OpenEntry): Promise<ZipEntryInfo[]> {
  const directory = readZipDirectory(bytes);
  const limit = inflateLimit(bytes.length);
  const native = hasNativeInflate();
  let inflated = 0;
  let failure: unknown = null;
  /** deflated entries whose compressed bytes are complete, waiting for the platform inflater (in ZIP order) */
  const queue: DeferredEntry[] = [];

  /** One inflated chunk of a wanted entry; throws on the zip-bomb limit, like every entry error. */
  const consume = (sink: InflatedChunk, data: Uint8Array, final: boolean): void => {
    inflated += data.length;
    if (inflated > limit) throw zipBomb();
    sink(data, final);
  };

  const unzip = new Unzip((file) => {
    if (failure) return;
    const sink = open(file.name);
    if (!sink) return;
    if (native) {
      // every wanted entry goes through the queue, so parts are read in ZIP order as before; deflated bytes arrive
      // untouched from the pass-through decoder (views into `bytes`, no copy) and are inflated after this push
      const job: DeferredEntry = { name: file.name, method: file.compression, broken: false, sink, chunks: [], compressed: 0 };
      file.ondata = (err, data, final) => {
        if (job.broken) return;
        if (err) job.broken = true;
        else if (data.length > 0) {
          job.chunks.push(data);
          job.compressed += data.length;
        }
        if (final || err) queue.push(job);
      };
      file.start();
      return;
    }
    file.ondata = (err, data, final) => {
      if (failure) return;
      try {
        if (err) throw notAPackage(`the part ${file.name} cannot be decompressed`);
        consume(sink, data, final);
      } catch (e) {
        failure = e;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(native ? DeflatePassThrough : UnzipInflate);

  /** Inflates the queued entries one after another; the first error stops everything, as in the synchronous path. */
  const drain = async (): Promise<void> => {
    while (queue.length > 0 && !failure) {
      const job = queue.shift() as DeferredEntry;
      try {
        if (job.broken) throw notAPackage(`the part ${job.name} cannot be decompressed`);
        if (job.method === 8 && job.compressed > 0) {
          await inflateNative(job.name, job.chunks, (data, final) => consume(job.sink, data, final));
        } else {
          // stored data, or an empty deflated entry (empty data to fflate too, not a broken stream)
          for (const c of job.chunks) consume(job.sink, c, false);
          consume(job.sink, new Uint8Array(0), true);
        }
      } catch (e) {
        failure = e;
      }
    }
  };

  let containerError: unknown = null;
  try {
    for (let off = 0; off < bytes.length && !failure; off += FEED_CHUNK) {
      const end = Math.min(bytes.length, off + FEED_CHUNK);
      unzip.push(bytes.subarray(off, end), end === bytes.length);
      if (queue.length > 0) await drain();
    }
  } catch (e) {
    containerError = e instanceof MeshError ? e : notAPackage("its ZIP data is damaged or truncated");
  }
  // entries completed before a container error are still read first, so their errors win as they did when inflated inline
  if (queue.length > 0) await drain();
  if (!failure) failure = containerError;
  if (failure) throw failure;
  return directory;
}

/** Hands deflated entry bytes through untouched, so the platform inflater can take them instead of fflate's JS one. */
class DeflatePassThrough implements UnzipDecoder {
  static compression = 8;
  ondata: AsyncFlateStreamHandler = () => {};
  push(chunk: Uint8Array, final: boolean): void {
    // fflate types its chunks as ArrayBuffer-backed; they are views of the package bytes either way
    this.ondata(null, chunk as Uint8Array<ArrayBuffer>, final);
  }
}
