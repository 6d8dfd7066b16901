// The file-storage interface on an S3-compatible bucket (Tigris, AWS S3, s3rver in tests). Listing, checking
// and removing are @remix-run/file-storage-s3's; reading and writing are our own because that package holds
// each whole object in memory both ways: here a download streams from the bucket as the client reads it, and
// a stored upload streams from its scratch file, signed with the same aws4fetch (UNSIGNED-PAYLOAD).
import type { FileStorage } from "@remix-run/file-storage";
import { createS3FileStorage } from "@remix-run/file-storage-s3";
import { LazyFile, type LazyContent } from "@remix-run/lazy-file";
import { AwsClient } from "aws4fetch";
import { AppError, isAppError } from "~/domain/app-error";
import { fetchFunctionWithinLimits, fetchWithinLimits, progressing, type SilenceLimits } from "~/utils/limited-fetch.server";
import type { BucketConfig } from "./config.server";

/**
 * A bucket that is down is given up within worstAnswerMs (8.25 s: two tries of 4 s of silence), leaving the
 * rest of a request within 10 s; a download whose body sends nothing for 10 s is cut.
 */
export const BUCKET_LIMITS: SilenceLimits = { answerMs: 4_000, stallMs: 10_000, attempts: 2, retryPauseMs: 250 };

export const STORAGE_UNAVAILABLE = "File storage is not answering right now. Please try again in a minute.";
const RETRY_AFTER_SECONDS = 60;

/** The bucket is down, silent or failing: one AppError the routes answer with 503 and Retry-After. */
function storageUnavailable(cause: unknown): AppError {
  return isAppError(cause)
    ? cause
    : new AppError("unavailable", STORAGE_UNAVAILABLE, { retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}

export function createBucketStorage(config: BucketConfig, limits: SilenceLimits = BUCKET_LIMITS): FileStorage {
  const aws = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    sessionToken: config.sessionToken,
    service: "s3",
    region: config.region,
  });
  const objectUrl = objectUrlFor(config);

  function send(key: string, init: { method: string; headers?: HeadersInit; body?: () => ReadableStream<Uint8Array> }) {
    const headers = new Headers(init.headers);
    headers.set("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD");
    return fetchWithinLimits(
      (progress) =>
        aws.sign(objectUrl(key), {
          method: init.method,
          headers,
          // a fresh stream for each try, its chunks counted as progress
          ...(init.body ? { body: progressing(init.body(), progress), duplex: "half" } : {}),
        } as RequestInit),
      limits,
      storageUnavailable,
    );
  }

  // listing, checking and removing keep to the same limits
  const listing = createS3FileStorage({
    bucket: config.bucket,
    region: config.region,
    endpoint: config.endpoint,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    sessionToken: config.sessionToken,
    fetch: fetchFunctionWithinLimits(limits, storageUnavailable),
  });

  async function get(key: string): Promise<File | null> {
    const response = await send(key, { method: "GET" });
    if (response.status === 404) {
      await drain(response);
      return null;
    }
    await assertOk(response, `GET ${key}`);
    const size = Number(response.headers.get("content-length"));
    if (!Number.isSafeInteger(size)) {
      void response.body?.cancel().catch(() => {});
      throw new Error(`The bucket answered GET ${key} without its length.`);
    }
    // the open answer serves the first whole read; a range or a second read asks the bucket again
    let body = response.body;
    const content: LazyContent = {
      byteLength: size,
      stream(start = 0, end = size) {
        if (body && start === 0 && end >= size) {
          const whole = body as ReadableStream<Uint8Array<ArrayBuffer>>;
          body = null;
          return whole;
        }
        return streamLater(() => ranged(key, start, end));
      },
    };
    return new LazyFile(content, decodedName(response.headers.get("x-amz-meta-file-name")) ?? lastSegment(key), {
      type: response.headers.get("content-type") ?? "",
      lastModified: Number(response.headers.get("x-amz-meta-file-last-modified")) || Date.now(),
    }) as File;
  }

  async function ranged(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
    if (end <= start) return new Blob([]).stream() as ReadableStream<Uint8Array<ArrayBuffer>>;
    const response = await send(key, { method: "GET", headers: { Range: `bytes=${start}-${end - 1}` } });
    await assertOk(response, `GET ${key} (range)`);
    return response.body as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  async function set(key: string, file: File): Promise<void> {
    const headers = new Headers({
      "Content-Length": String(file.size),
      // the metadata names file-storage-s3 reads back when it lists
      "X-Amz-Meta-File-Name": encodeURIComponent(file.name),
      "X-Amz-Meta-File-Last-Modified": String(file.lastModified),
    });
    if (file.type) headers.set("Content-Type", file.type);
    const response = await send(key, { method: "PUT", headers, body: () => file.stream() });
    await assertOk(response, `PUT ${key}`);
    await drain(response);
  }

  return {
    get,
    set,
    async put(key, file) {
      await set(key, file);
      const stored = await get(key);
      if (!stored) throw new Error(`The bucket lost ${key} right after storing it.`);
      return stored;
    },
    has: (key) => listing.has(key),
    remove: (key) => listing.remove(key),
    list: (options) => listing.list(options),
  };
}

/** Path-style URLs with an endpoint (as file-storage-s3 builds them), virtual-hosted ones on AWS itself. */
function objectUrlFor(config: BucketConfig): (key: string) => URL {
  const endpoint = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
  const base = endpoint.pathname.replace(/\/+$/, "");
  return (key) => {
    const url = new URL(endpoint);
    const path = key.split("/").map(encodeURIComponent).join("/");
    if (config.endpoint) url.pathname = `${base}/${encodeURIComponent(config.bucket)}/${path}`;
    else {
      url.hostname = `${config.bucket}.${endpoint.hostname}`;
      url.pathname = `${base}/${path}`;
    }
    return url;
  };
}

/** A stream whose source is opened when it is first read. */
function streamLater(open: () => Promise<ReadableStream<Uint8Array<ArrayBuffer>>>): ReadableStream<Uint8Array<ArrayBuffer>> {
  let reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | undefined;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      reader ??= (await open()).getReader();
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

async function assertOk(response: Response, what: string): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  throw new Error(`The bucket refused ${what}: ${response.status}${code ? ` ${code}` : ""}`);
}

/** Reads a short answer to its end, so its connection goes back to the pool. */
async function drain(response: Response) {
  await response.arrayBuffer().catch(() => {});
}

function decodedName(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const lastSegment = (key: string) => key.slice(key.lastIndexOf("/") + 1) || key;
