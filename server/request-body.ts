// Every request body is counted as it streams and cut at its route's limit, before any loader or
// action reads it: chunked or not, multipart or not. The Remix request handed to the app reads
// from this counted stream, so `request.formData()` in an action can never hold more than the limit.
import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { Transform, type TransformCallback } from "node:stream";

const KB = 1024;
const MB = 1024 * KB;

export interface BodyLimit {
  bytes: number;
  /** what the user is told when the body is larger */
  message: string;
}

const FORM: BodyLimit = { bytes: 16 * KB, message: "This form is too large to send. Shorten it and try again." };
const LONG_TEXT: BodyLimit = { bytes: 64 * KB, message: "Your message is too long to send. Shorten it and try again." };
/** an admin's newsletter: subject, segment and HTML */
const NEWSLETTER: BodyLimit = { bytes: 256 * KB, message: "This newsletter is too long to send. Shorten it and try again." };
const API_JSON: BodyLimit = { bytes: 256 * KB, message: "Request body too large." };
const WEBHOOK: BodyLimit = { bytes: 1 * MB, message: "Request body too large." };
/** a 50 MB design plus its settings; the streaming parsers enforce the exact file limit */
const DESIGN_UPLOAD: BodyLimit = { bytes: 60 * MB, message: "File size exceeds 50MB limit" };
/** a 5 MB printer photo plus the printer's fields */
const PRINTER_PHOTO: BodyLimit = { bytes: 6 * MB, message: "The photo must be at most 5 MB." };

/** up to four 5 MB photos plus the claim's fields */
const CLAIM_PHOTOS: BodyLimit = { bytes: 21 * MB, message: "Each photo must be 5 MB or smaller." };

/** The limits by route, first match wins; everything else is a text form with FORM's limit. */
const LIMITS: Array<[RegExp, BodyLimit]> = [
  [/^\/(upload|upload-model|api\/upload-design|api\/save-draft)$/, DESIGN_UPLOAD],
  [/^\/(add-printer|printers\/[^/]+\/edit)$/, PRINTER_PHOTO],
  [/^\/(order\/[^/]+\/claim|api\/print-jobs\/[^/]+\/claims)$/, CLAIM_PHOTOS],
  [/^\/api\/webhooks\//, WEBHOOK],
  [/^\/api\//, API_JSON],
  [/^\/(contact|help)$/, LONG_TEXT],
  [/^\/admin\/newsletter$/, NEWSLETTER],
];

/** The body limit for a request path (Remix's single-fetch ".data" suffix and "_root" index included). */
export function bodyLimitFor(path: string): BodyLimit {
  let route = path.replace(/\.data$/, "");
  if (route === "/_root") route = "/";
  if (route.length > 1) route = route.replace(/\/+$/, "");
  return LIMITS.find(([pattern]) => pattern.test(route))?.[1] ?? FORM;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: BodyLimit) {
    super(limit.message);
    this.name = "BodyTooLargeError";
  }
}

export interface Refusal {
  status: number;
  /** what the user is told */
  message: string;
  retryAfterSeconds?: number;
}

/**
 * Answers a request whose body will not be read (JSON {message} on the API, plain text elsewhere) and
 * closes the connection, so the rest of the body is never read. An answer already under way is cut.
 */
export function refuseRequest(req: ExpressRequest, res: ExpressResponse, refusal: Refusal) {
  // stop reading; the socket goes once the answer is out
  req.unpipe();
  req.pause();
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.status(refusal.status).set("Connection", "close");
  if (refusal.retryAfterSeconds !== undefined) res.set("Retry-After", String(refusal.retryAfterSeconds));
  res.once("finish", () => req.socket.destroy());
  if (req.path.startsWith("/api/") || req.accepts(["html", "json"]) === "json") res.json({ message: refusal.message });
  else res.type("text/plain").send(refusal.message);
}

/** Answers 413 and closes the connection, so the rest of the body is never read. */
export function refuseBody(req: ExpressRequest, res: ExpressResponse, limit: BodyLimit) {
  refuseRequest(req, res, { status: 413, message: limit.message });
}

/**
 * The request's body as a web stream that stops at the route's limit: past it the stream errors
 * (the action's read fails) and the client gets 413 at once. A declared Content-Length over the
 * limit is refused before a byte is read.
 */
export function countedBody(
  req: ExpressRequest,
  res: ExpressResponse,
  onCut: () => void = () => {},
): ReadableStream<Uint8Array> | null {
  const limit = bodyLimitFor(req.path);
  const declared = req.get("content-length");
  if (declared !== undefined && !(Number(declared) <= limit.bytes)) {
    refuseBody(req, res, limit);
    return null;
  }
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > limit.bytes) {
        refuseBody(req, res, limit);
        onCut();
        callback(new BodyTooLargeError(limit));
        return;
      }
      callback(null, chunk);
    },
  });
  req.on("error", (error) => counter.destroy(error));
  // a body cut short (408, the client gone) fails the app's read, so its scratch files are removed, never left waiting
  req.once("close", () => {
    if (!req.complete) counter.destroy(new Error("The request body was cut short."));
  });
  return createReadableStreamFromReadable(req.pipe(counter));
}
