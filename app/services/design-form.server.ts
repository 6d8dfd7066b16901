// Reading the design upload form as it streams: the file part goes straight to a file on disk (never whole in
// memory) and is cut at 50 MB; the small settings fields are kept, also those posted after a refused file, so
// the page keeps what the customer chose.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Busboy } from "@fastify/busboy";
import { parseFormData } from "@remix-run/form-data-parser";
import { AppError } from "~/domain/app-error";
import { MAX_DESIGN_BYTES, MESSAGES } from "~/domain/design-settings";
import { incomingUploadPath } from "./storage.server";

/** The form field that carries the design file. */
export const FILE_FIELD = "file";
const ONE_MIB = 1024 * 1024;
/** Everything but the file: a few short settings fields. */
const MAX_FIELDS_BYTES = ONE_MIB;
/** After refusing a file, read at most this much more so the browser receives the answer instead of a reset connection. */
const DRAIN_LIMIT_BYTES = 80 * ONE_MIB;

/** An uploaded design as it arrived, in a file of its own until it is stored (then removed). */
export interface IncomingDesign {
  path: string;
  size: number;
  /** the name the customer's browser gave it */
  name: string;
}

export interface DesignForm {
  fields: FormData;
  file: IncomingDesign | null;
  /** the body could not be taken (too large, unreadable); `fields` then holds the text fields that arrived */
  error: AppError | null;
  /** removes the incoming file; call it once the design is stored or refused */
  discard: () => Promise<void>;
}

const fileError = (code: "invalid" | "too_large", message: string) => new AppError(code, message, { field: FILE_FIELD });

/**
 * Parses the form as it streams: only the `file` field may carry a file, written to disk as it comes and refused
 * the moment it passes 50 MB. A refused body comes back with its error and the fields that could be read.
 */
export async function readDesignForm(request: Request): Promise<DesignForm> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body || !/^multipart\/form-data/i.test(contentType) || !/boundary=/i.test(contentType)) {
    try {
      const fields = await parseFormData(request, { maxFiles: 0, maxFileSize: 0, maxTotalSize: MAX_FIELDS_BYTES });
      fields.delete(FILE_FIELD);
      return { fields, file: null, error: null, discard: async () => {} };
    } catch {
      return {
        fields: new FormData(),
        file: null,
        error: fileError("invalid", "Send the design as a multipart/form-data form."),
        discard: async () => {},
      };
    }
  }

  const fields = new FormData();
  let error: AppError | null = null;
  const refuse = (next: AppError) => (error ??= next);
  const written: Array<Promise<IncomingDesign | null>> = [];
  const paths: string[] = [];
  const discard = async () => {
    await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => {})));
  };

  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fileSize: MAX_DESIGN_BYTES, fields: 100, parts: 100, fieldSize: 64 * 1024, headerPairs: 20 },
    });
  } catch {
    return { fields, file: null, error: fileError("invalid", "The upload could not be read. Please try again."), discard };
  }
  parser.on("field", (name: string, value: string) => {
    if (name !== FILE_FIELD) fields.append(name, value);
  });
  parser.on("file", (name: string, stream: Readable & { truncated?: boolean }, fileName: string | undefined) => {
    if (name !== FILE_FIELD) {
      stream.resume();
      return;
    }
    const path = incomingUploadPath();
    paths.push(path);
    let size = 0;
    stream.on("data", (chunk: Buffer) => (size += chunk.length));
    stream.on("limit", () => refuse(fileError("too_large", MESSAGES.tooLarge)));
    written.push(
      pipeline(stream, createWriteStream(path)).then(
        () => {
          // a file input left empty still sends an empty part without a name
          if (stream.truncated || (size === 0 && !fileName)) return null;
          return { path, size, name: fileName || "design" };
        },
        () => null,
      ),
    );
  });
  parser.on("filesLimit", () => refuse(fileError("invalid", "Please upload one design file at a time.")));
  parser.on("partsLimit", () => refuse(fileError("invalid", "The upload could not be read. Please try again.")));
  const finished = new Promise<void>((resolve) => {
    parser.on("finish", () => resolve());
    parser.on("error", () => {
      refuse(fileError("invalid", "The upload could not be read. Please try again."));
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
      if (total > MAX_DESIGN_BYTES + MAX_FIELDS_BYTES) refuse(fileError("too_large", MESSAGES.tooLarge));
      if (total > DRAIN_LIMIT_BYTES) {
        void reader.cancel().catch(() => {});
        break;
      }
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished]);
    }
  } catch {
    refuse(fileError("invalid", "The upload could not be read. Please try again."));
  }
  parser.end();
  // a cut body never finishes parsing: what was written so far is all there is
  if (total <= DRAIN_LIMIT_BYTES) await finished;
  else parser.destroy();
  const files = (await Promise.all(written)).filter((f): f is IncomingDesign => f !== null);
  if (error) {
    await discard();
    return { fields, file: null, error, discard };
  }
  return { fields, file: files[0] ?? null, error: null, discard };
}
