// Reading an upload form as it streams: each file part goes straight to a file on disk (never whole in memory)
// and is cut at its own limit; the small text fields are kept, also those posted after a refused file, so the
// page keeps what was chosen. Before a byte is read the form reserves its most on the scratch disk's budget, and
// every way out removes its files and gives the place back (decision 016). The design upload (/upload and its
// API calls), the library upload (/upload-model) and the claim form's photos read their forms here.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { parseFormData } from "@remix-run/form-data-parser";
import { AppError, isAppError } from "~/domain/app-error";

const ONE_MIB = 1024 * 1024;
/** Everything but the files: a few short text fields. */
const MAX_FIELDS_BYTES = ONE_MIB;
/** After refusing a file, read at most this much more so the browser receives the answer instead of a reset connection. */
const DRAIN_LIMIT_BYTES = 80 * ONE_MIB;
/** A file that could not be written (the disk full, the scratch folder gone): the machine's trouble, not the file's. */
const UNWRITABLE = new AppError("busy", "The upload could not be saved right now. Please try again in a minute.", {
  retryAfterSeconds: 60,
});

/** An uploaded file as it arrived, in a file of its own until it is stored (then removed). */
export interface IncomingFile {
  path: string;
  size: number;
  /** the name the uploader's browser gave it */
  name: string;
  /** the type the uploader's browser gave it */
  type: string;
}

export interface FilePartRule {
  /** the part is cut past this many bytes, and the form refused with `tooLarge` */
  maxBytes: number;
  tooLarge: AppError;
  /** how many files the field may carry (one unless said) */
  count?: number;
}

/** A place on the scratch disk's budget, given back by release(). */
export interface ScratchPlace {
  release(): void;
}

export interface StreamedFormSpec {
  /** the fields that may carry a file, each with its limit; file parts of other fields are skipped */
  files: Record<string, FilePartRule>;
  /** the refusal of a body that cannot be read (broken multipart, too many parts) */
  unreadable: AppError;
  /** the refusal of more file parts than `files` names */
  tooManyFiles: AppError;
  /** the refusal of a body that is not multipart; null takes its text fields (a form posted without files) */
  notMultipart: AppError | null;
  /** the name a file part without one is given */
  defaultName: string;
  /** a fresh path for each incoming file (the storage's incoming folder) */
  incomingPath: () => string;
  /** reserves scratch bytes before any is written; throws an AppError (busy) when there is no room */
  reserve: (bytes: number) => Promise<ScratchPlace>;
}

export interface StreamedForm {
  fields: FormData;
  /** the first file that arrived in each field (an empty file input sends none) */
  files: Map<string, IncomingFile>;
  /** every file that arrived, by field, in the order they came */
  fileLists: Map<string, IncomingFile[]>;
  /** the body could not be taken (too large, unreadable, no scratch room); `fields` then holds the text fields that arrived */
  error: AppError | null;
  /** removes the incoming files and gives their scratch place back; call it once they are stored or refused */
  discard: () => Promise<void>;
}

/** The scratch a form may fill: every file field at its limit, or the declared length when that is less. */
function scratchWanted(request: Request, spec: StreamedFormSpec): number {
  const most = Object.values(spec.files).reduce((sum, rule) => sum + rule.maxBytes * (rule.count ?? 1), 0);
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, most) : most;
}

/**
 * Parses a form as it streams: only the spec's fields may carry a file, each written to disk as it comes and
 * refused the moment it passes its limit. A refused body comes back with its error and the fields that could
 * be read, and its files already removed. A form the scratch budget has no room for is refused before its body
 * is read.
 */
export async function readStreamedForm(request: Request, spec: StreamedFormSpec): Promise<StreamedForm> {
  const contentType = request.headers.get("content-type") ?? "";
  const noFiles = async (): Promise<void> => {};
  if (!request.body || !/^multipart\/form-data/i.test(contentType) || !/boundary=/i.test(contentType)) {
    return readWithoutFiles(request, spec);
  }
  const wanted = scratchWanted(request, spec);
  let place: ScratchPlace;
  try {
    place = wanted > 0 ? await spec.reserve(wanted) : { release: () => {} };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { fields: new FormData(), files: new Map(), fileLists: new Map(), error, discard: noFiles };
  }
  const paths: string[] = [];
  const discard = async () => {
    await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => {})));
    place.release();
  };
  try {
    const { fields, arrived, error } = await parseMultipart(request.body, contentType, spec, paths);
    if (error) {
      await discard();
      return { fields, files: new Map(), fileLists: new Map(), error, discard };
    }
    const fileLists = new Map<string, IncomingFile[]>();
    for (const [name, file] of arrived) fileLists.set(name, [...(fileLists.get(name) ?? []), file]);
    const files = new Map([...fileLists].map(([name, list]) => [name, list[0]!] as const));
    return { fields, files, fileLists, error: null, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** A form posted without multipart: its text fields, no files. */
async function readWithoutFiles(request: Request, spec: StreamedFormSpec): Promise<StreamedForm> {
  const discard = async (): Promise<void> => {};
  try {
    const fields = await parseFormData(request, { maxFiles: 0, maxFileSize: 0, maxTotalSize: MAX_FIELDS_BYTES });
    for (const name of Object.keys(spec.files)) fields.delete(name);
    return { fields, files: new Map(), fileLists: new Map(), error: spec.notMultipart, discard };
  } catch {
    return {
      fields: new FormData(),
      files: new Map(),
      fileLists: new Map(),
      error: spec.notMultipart ?? spec.unreadable,
      discard,
    };
  }
}

interface WrittenPart {
  done: Promise<[string, IncomingFile] | null>;
  /** stops a part whose stream will not end (the body was cut or broken) */
  abandon: () => void;
}

/**
 * One file part written to disk: only its first `maxBytes` are written, the rest read and dropped, so a cut or a
 * failed write never stalls the parser; a write error refuses the form as the machine's trouble.
 */
function writePart(
  name: string,
  stream: Readable & { truncated?: boolean },
  fileName: string | undefined,
  type: string,
  rule: FilePartRule,
  spec: StreamedFormSpec,
  refuse: (error: AppError) => void,
  paths: string[],
): WrittenPart {
  let path: string;
  try {
    path = spec.incomingPath();
  } catch {
    refuse(UNWRITABLE);
    stream.resume();
    return { done: Promise.resolve(null), abandon: () => {} };
  }
  paths.push(path);
  const out = createWriteStream(path);
  let size = 0;
  let failed = false;
  let cut = false;
  const fail = () => {
    if (failed) return;
    failed = true;
    refuse(UNWRITABLE);
    out.destroy();
    stream.resume();
  };
  out.on("error", fail);
  stream.on("data", (chunk: Buffer) => {
    size += chunk.length;
    // each field's own limit; busboy cuts at the largest of them
    if (size > rule.maxBytes && !cut) {
      cut = true;
      refuse(rule.tooLarge);
    }
    if (cut || failed) return;
    if (!out.write(chunk)) {
      stream.pause();
      out.once("drain", () => stream.resume());
    }
  });
  stream.on("limit", () => refuse(rule.tooLarge));
  stream.once("error", fail);
  stream.once("end", () => out.end());
  const done = new Promise<[string, IncomingFile] | null>((resolve) => {
    out.once("close", () => {
      // a file input left empty still sends an empty part without a name
      if (failed || cut || stream.truncated || (size === 0 && !fileName)) return resolve(null);
      resolve([name, { path, size, name: fileName || spec.defaultName, type }]);
    });
  });
  return { done, abandon: () => !out.writableFinished && !out.writableEnded && fail() };
}

async function parseMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  spec: StreamedFormSpec,
  paths: string[],
): Promise<{ fields: FormData; arrived: Array<[string, IncomingFile]>; error: AppError | null }> {
  const fileFields = Object.keys(spec.files);
  const maxFileBytes = fileFields.reduce((sum, name) => sum + spec.files[name]!.maxBytes * (spec.files[name]!.count ?? 1), 0);
  const fields = new FormData();
  let error: AppError | null = null;
  const refuse = (next: AppError) => (error ??= next);
  const parts: WrittenPart[] = [];
  const counts = new Map<string, number>();

  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({
      headers: { "content-type": contentType },
      limits: {
        files: fileFields.reduce((sum, name) => sum + (spec.files[name]!.count ?? 1), 0),
        fileSize: Math.max(0, ...fileFields.map((name) => spec.files[name]!.maxBytes)),
        fields: 100,
        parts: 100,
        fieldSize: 64 * 1024,
        headerPairs: 20,
      },
    });
  } catch {
    return { fields, arrived: [], error: spec.unreadable };
  }
  parser.on("field", (name: string, value: string) => {
    if (!fileFields.includes(name)) fields.append(name, value);
  });
  parser.on(
    "file",
    (name: string, stream: Readable & { truncated?: boolean }, fileName: string | undefined, _encoding: string, type: string) => {
      const rule = fileFields.includes(name) ? spec.files[name] : undefined;
      if (!rule) {
        stream.resume();
        return;
      }
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      if (count > (rule.count ?? 1)) {
        refuse(spec.tooManyFiles);
        stream.resume();
        return;
      }
      parts.push(writePart(name, stream, fileName, type || "application/octet-stream", rule, spec, refuse, paths));
    },
  );
  parser.on("filesLimit", () => refuse(spec.tooManyFiles));
  parser.on("partsLimit", () => refuse(spec.unreadable));
  const finished = new Promise<void>((resolve) => {
    parser.on("finish", () => resolve());
    parser.on("error", () => {
      refuse(spec.unreadable);
      resolve();
    });
  });

  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxFileBytes + MAX_FIELDS_BYTES) refuse(Object.values(spec.files)[0]?.tooLarge ?? spec.unreadable);
      if (total > DRAIN_LIMIT_BYTES) {
        void reader.cancel().catch(() => {});
        break;
      }
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished]);
    }
  } catch {
    refuse(spec.unreadable);
  }
  parser.end();
  // a cut body never finishes parsing: what was written so far is all there is
  if (total <= DRAIN_LIMIT_BYTES) await finished;
  else parser.destroy();
  // a part whose body was cut or broken never ends: it is given up rather than waited for
  if (error) for (const part of parts) part.abandon();
  const arrived = (await Promise.all(parts.map((part) => part.done))).filter((f): f is [string, IncomingFile] => f !== null);
  return { fields, arrived, error };
}
