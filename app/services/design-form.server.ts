// Reading the design upload form as it streams: the file part is cut at 50 MB, and when a body is refused the
// small settings fields are recovered from its start and end so the page keeps what the customer chose.
import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxTotalSizeExceededError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { AppError } from "~/domain/app-error";
import { MAX_DESIGN_BYTES, MESSAGES } from "~/domain/design-settings";

/** The form field that carries the design file. */
export const FILE_FIELD = "file";
const ONE_MIB = 1024 * 1024;
/** Bytes of the body kept from its start and its end, to recover the small settings fields when the file is refused. */
const KEEP_BYTES = 64 * 1024;
/** After refusing a file, read at most this much more so the browser receives the answer instead of a reset connection. */
const DRAIN_LIMIT_BYTES = 80 * ONE_MIB;

export type DesignIntent = "save" | "submit";

export interface DesignForm {
  fields: FormData;
  file: File | null;
  /** the body could not be taken (too large, unreadable); `fields` then holds what could be recovered of the text fields */
  error: AppError | null;
}

const refused = (fields: FormData, code: "invalid" | "too_large", message: string): DesignForm => ({
  fields,
  file: null,
  error: new AppError(code, message, { field: FILE_FIELD }),
});

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** The complete text parts found in a piece of a multipart body (a file part, or a cut one, is skipped). */
export function textPartsIn(bytes: Uint8Array, boundary: string, into: FormData): void {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const delimiter = encoder.encode(`--${boundary}`);
  const headerEnd = encoder.encode("\r\n\r\n");
  const starts: number[] = [];
  for (let at = indexOf(bytes, delimiter, 0); at >= 0; at = indexOf(bytes, delimiter, at + delimiter.length)) starts.push(at);
  // a part counts only when the next delimiter closes it
  for (let k = 0; k + 1 < starts.length; k++) {
    const partStart = starts[k] + delimiter.length + 2;
    const partEnd = starts[k + 1] - 2;
    if (partEnd <= partStart) continue;
    const part = bytes.subarray(partStart, partEnd);
    const split = indexOf(part, headerEnd, 0);
    if (split < 0) continue;
    const headers = decoder.decode(part.subarray(0, split));
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? "";
    if (/filename\*?=/i.test(disposition)) continue;
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (!name || name === FILE_FIELD) continue;
    into.append(name, decoder.decode(part.subarray(split + headerEnd.length)));
  }
}

async function drainKeepingTail(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let drained = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done || !value) break;
    drained += value.byteLength;
    kept.push(value);
    keptBytes += value.byteLength;
    while (kept.length > 1 && keptBytes - kept[0].byteLength >= KEEP_BYTES) keptBytes -= kept.shift()!.byteLength;
    if (drained > DRAIN_LIMIT_BYTES) {
      void reader.cancel().catch(() => {});
      return new Uint8Array(0);
    }
  }
  const all = concat(kept);
  return all.subarray(Math.max(0, all.length - KEEP_BYTES));
}

/**
 * Parses the form as it streams: the file part is refused the moment it passes 50 MB, and only the
 * `file` field may carry a file. A refused body comes back with its error and what could be recovered of the other fields.
 */
export async function readDesignForm(request: Request): Promise<DesignForm> {
  const contentType = request.headers.get("content-type") ?? "";
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  const limits = {
    maxFiles: 1,
    maxFileSize: MAX_DESIGN_BYTES,
    maxTotalSize: MAX_DESIGN_BYTES + ONE_MIB,
    maxParts: 100,
    maxHeaderSize: 8 * 1024,
  };

  if (!request.body || !boundary || !/^multipart\/form-data/i.test(contentType)) {
    try {
      const fields = await parseFormData(request, { ...limits, maxTotalSize: ONE_MIB });
      fields.delete(FILE_FIELD);
      return { fields, file: null, error: null };
    } catch {
      return refused(new FormData(), "invalid", "Send the design as a multipart/form-data form.");
    }
  }

  const source = request.body.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) return controller.close();
      if (headBytes < KEEP_BYTES) {
        head.push(value.subarray(0, KEEP_BYTES - headBytes));
        headBytes += Math.min(value.byteLength, KEEP_BYTES - headBytes);
      }
      controller.enqueue(value);
    },
  });
  const proxied = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: "half",
  } as RequestInit & { duplex: "half" });

  try {
    const fields = await parseFormData(proxied, limits, (upload) => {
      if (upload.fieldName !== FILE_FIELD) return null;
      // a file input left empty still sends an empty part without a name (the parser calls it "file-upload")
      if (upload.size === 0 && (upload.name === "" || upload.name === "file-upload")) return null;
      return upload;
    });
    const value = fields.get(FILE_FIELD);
    fields.delete(FILE_FIELD);
    return { fields, file: value instanceof File ? value : null, error: null };
  } catch (error) {
    const tooLarge = error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError;
    // drain through the parser's own stream: a second reader on the Node body can stall its pause/resume pump
    const rest = proxied.body && !proxied.body.locked ? proxied.body.getReader() : source;
    const tail = await drainKeepingTail(rest);
    const fields = new FormData();
    textPartsIn(concat(head), boundary, fields);
    textPartsIn(tail, boundary, fields);
    if (tooLarge) return refused(fields, "too_large", MESSAGES.tooLarge);
    if (error instanceof MaxFilesExceededError) return refused(fields, "invalid", "Please upload one design file at a time.");
    if (error instanceof FormDataParseError || (error instanceof Error && /multipart|header/i.test(error.name))) {
      return refused(fields, "invalid", "The upload could not be read. Please try again.");
    }
    throw error;
  }
}
