// Reading an upload form as it streams: each file part goes straight to a file on disk (never whole in memory)
// and is cut at its own limit; the small text fields are kept, also those posted after a refused file, so the
// page keeps what was chosen. The design upload (/upload and its API calls, routes/upload/design-form.server.ts)
// and the library upload (/upload-model) both read their forms here.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Busboy } from "@fastify/busboy";
import { parseFormData } from "@remix-run/form-data-parser";
import type { AppError } from "~/domain/app-error";

const ONE_MIB = 1024 * 1024;
/** Everything but the files: a few short text fields. */
const MAX_FIELDS_BYTES = ONE_MIB;
/** After refusing a file, read at most this much more so the browser receives the answer instead of a reset connection. */
const DRAIN_LIMIT_BYTES = 80 * ONE_MIB;

/** An uploaded file as it arrived, in a file of its own until it is stored (then removed). */
export interface IncomingFile {
  path: string;
  size: number;
  /** the name the uploader's browser gave it */
  name: string;
}

export interface FilePartRule {
  /** the part is cut past this many bytes, and the form refused with `tooLarge` */
  maxBytes: number;
  tooLarge: AppError;
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
}

export interface StreamedForm {
  fields: FormData;
  /** the files that arrived, by field (an empty file input sends none) */
  files: Map<string, IncomingFile>;
  /** the body could not be taken (too large, unreadable); `fields` then holds the text fields that arrived */
  error: AppError | null;
  /** removes the incoming files; call it once they are stored or refused */
  discard: () => Promise<void>;
}

/**
 * Parses a form as it streams: only the spec's fields may carry a file, each written to disk as it comes and
 * refused the moment it passes its limit. A refused body comes back with its error and the fields that could
 * be read, and its files already removed.
 */
export async function readStreamedForm(request: Request, spec: StreamedFormSpec): Promise<StreamedForm> {
  const fileFields = Object.keys(spec.files);
  const maxFileBytes = fileFields.reduce((sum, name) => sum + spec.files[name]!.maxBytes, 0);
  const contentType = request.headers.get("content-type") ?? "";
  const noFiles = async (): Promise<void> => {};
  if (!request.body || !/^multipart\/form-data/i.test(contentType) || !/boundary=/i.test(contentType)) {
    try {
      const fields = await parseFormData(request, { maxFiles: 0, maxFileSize: 0, maxTotalSize: MAX_FIELDS_BYTES });
      for (const name of fileFields) fields.delete(name);
      return { fields, files: new Map(), error: spec.notMultipart, discard: noFiles };
    } catch {
      return { fields: new FormData(), files: new Map(), error: spec.notMultipart ?? spec.unreadable, discard: noFiles };
    }
  }

  const fields = new FormData();
  let error: AppError | null = null;
  const refuse = (next: AppError) => (error ??= next);
  const written: Array<Promise<[string, IncomingFile] | null>> = [];
  const paths: string[] = [];
  const discard = async () => {
    await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => {})));
  };

  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({
      headers: { "content-type": contentType },
      limits: {
        files: fileFields.length,
        fileSize: Math.max(...fileFields.map((name) => spec.files[name]!.maxBytes)),
        fields: 100,
        parts: 100,
        fieldSize: 64 * 1024,
        headerPairs: 20,
      },
    });
  } catch {
    return { fields, files: new Map(), error: spec.unreadable, discard };
  }
  parser.on("field", (name: string, value: string) => {
    if (!fileFields.includes(name)) fields.append(name, value);
  });
  parser.on("file", (name: string, stream: Readable & { truncated?: boolean }, fileName: string | undefined) => {
    const rule = spec.files[name];
    if (!rule || !fileFields.includes(name)) {
      stream.resume();
      return;
    }
    const path = spec.incomingPath();
    paths.push(path);
    let size = 0;
    let cut = false;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // each field's own limit; busboy cuts at the largest of them
      if (size > rule.maxBytes && !cut) {
        cut = true;
        refuse(rule.tooLarge);
      }
    });
    stream.on("limit", () => refuse(rule.tooLarge));
    written.push(
      pipeline(stream, createWriteStream(path)).then(
        () => {
          // a file input left empty still sends an empty part without a name
          if (stream.truncated || cut || (size === 0 && !fileName)) return null;
          return [name, { path, size, name: fileName || spec.defaultName }] as [string, IncomingFile];
        },
        () => null,
      ),
    );
  });
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
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxFileBytes + MAX_FIELDS_BYTES) refuse(Object.values(spec.files)[0]!.tooLarge);
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
  const arrived = (await Promise.all(written)).filter((f): f is [string, IncomingFile] => f !== null);
  if (error) {
    await discard();
    return { fields, files: new Map(), error, discard };
  }
  // the first file of each field (busboy's file limit keeps it to one each unless a field repeats)
  const files = new Map<string, IncomingFile>();
  for (const [name, file] of arrived) if (!files.has(name)) files.set(name, file);
  return { fields, files, error: null, discard };
}
