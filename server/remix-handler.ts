// Express → Remix, as @remix-run/express does it, except that the body the app reads is the
// counted, route-limited stream of ./request-body.ts.
import { createRequestHandler } from "@remix-run/node";
import type { ServerBuild } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { withRequestScope } from "../app/utils/request-scope.server";
import { requestState, type RequestState } from "../app/utils/request-state";
import { cachedPage, pageCacheKey } from "./page-cache";
import { countedBody } from "./request-body";

/**
 * True when a proxy we know of sets the X-Forwarded-* headers (TRUST_PROXY=fly, true or 1); otherwise anyone
 * could. Any other value, "false" and "0" included, leaves it off.
 */
export function behindTrustedProxy() {
  const value = (process.env.TRUST_PROXY ?? "").trim().toLowerCase();
  return value === "fly" || value === "true" || value === "1";
}

/** The host the browser used: X-Forwarded-Host only behind a trusted proxy, else Host. */
export function publicHost(req: ExpressRequest): string {
  const forwarded = behindTrustedProxy() ? req.get("x-forwarded-host") : undefined;
  return (forwarded ?? req.get("host") ?? "").split(",")[0].trim();
}

function publicProtocol(req: ExpressRequest): string {
  const forwarded = behindTrustedProxy() ? req.get("x-forwarded-proto")?.split(",")[0].trim() : undefined;
  return forwarded === "https" || forwarded === "http" ? forwarded : req.protocol;
}

export function createRemixRequest(req: ExpressRequest, res: ExpressResponse): Request | null {
  const url = new URL(`${publicProtocol(req)}://${publicHost(req) || "localhost"}${req.originalUrl}`);
  const controller = new AbortController();
  // abort loaders and actions once no answer can be written (closed before finished), or the body was cut
  let finished = false;
  res.on("finish", () => (finished = true));
  res.on("close", () => {
    if (!finished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = countedBody(req, res, () => controller.abort());
    if (!body) return null;
    init.body = body;
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** The writable side of a response: Node's, with compression's flush when it compresses. */
type ResponseSink = Pick<ExpressResponse, "write" | "end" | "destroy" | "cork" | "uncork"> & { flush?: () => void };

/**
 * Writes a body as it streams, the chunks of one event-loop turn together: one socket write (and one
 * compression flush) per turn, where writing each chunk as it came cost a system call, and a flush, per chunk.
 */
export async function writeBodyByTurn(body: ReadableStream<Uint8Array>, res: ResponseSink) {
  const reader = body.getReader();
  let corked = false;
  let ended = false;
  const flushTurn = () => {
    corked = false;
    // end() has written and uncorked everything
    if (ended) return;
    res.flush?.();
    res.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!corked) {
        corked = true;
        res.cork();
        setImmediate(flushTurn);
      }
      res.write(value);
    }
    ended = true;
    res.end();
  } catch (error) {
    ended = true;
    res.destroy(error as Error);
    throw error;
  }
}

async function sendRemixResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (response.body) await writeBodyByTurn(response.body, res);
  else res.end();
}

const BUSY_MESSAGE = "The site is busy right now. Please try again in a few seconds.";
const BUSY_RETRY_SECONDS = 2;

/**
 * A request whose loader or action met a held write lock or a read-only database answers 503 with
 * Retry-After instead of 500: the API with {message}, pages with the error page Remix rendered
 * ("Please try again in a moment"). Null when the request did not meet a busy database.
 */
export function busyAnswer(path: string, response: Response, state: RequestState): Response | null {
  if (!state.databaseBusy || response.status < 500) return null;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(BUSY_RETRY_SECONDS));
  headers.set("Cache-Control", "no-store");
  if (path.startsWith("/api/")) {
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify({ message: BUSY_MESSAGE }), { status: 503, headers });
  }
  return new Response(response.body, { status: 503, headers });
}

/**
 * A known /api address asked with a method it does not answer (a POST where there is only a
 * loader, a GET where there is only an action) answers 405 with JSON {message}, not the
 * framework's bare error. Null for every other response.
 */
export function apiMethodAnswer(path: string, method: string, response: Response): Response | null {
  if (!path.startsWith("/api/") || !response.headers.has("X-Remix-Error")) return null;
  const readWithoutLoader = response.status === 400 && (method === "GET" || method === "HEAD");
  if (response.status !== 405 && !readWithoutLoader) return null;
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { "Cache-Control": "no-store" } });
}

export function remixHandler(build: ServerBuild | (() => Promise<ServerBuild>), mode: string) {
  const handle = createRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = createRemixRequest(req, res);
      if (!request) return; // refused with 413 already
      const state = requestState();
      const cspNonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : undefined;
      // a read-only request's loaders share one memo (the session's user is looked up once, not per loader)
      const readOnly = req.method === "GET" || req.method === "HEAD";
      const render = () =>
        readOnly
          ? withRequestScope(() => handle(request, { requestState: state, cspNonce }))
          : handle(request, { requestState: state, cspNonce });
      const cacheKey = pageCacheKey({ method: req.method, path: req.path, url: req.originalUrl, headers: request.headers });
      const response = cacheKey ? await cachedPage(cacheKey, cspNonce, render) : await render();
      // a body cut at its limit was answered with 413 while the app was still reading it
      if (res.headersSent) return;
      await sendRemixResponse(
        res,
        busyAnswer(req.path, response, state) ?? apiMethodAnswer(req.path, req.method, response) ?? response,
      );
    } catch (error) {
      if (res.headersSent) return;
      next(error);
    }
  };
}
