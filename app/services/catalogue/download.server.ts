// Downloading a file from a model-sharing site: https only, from the site's own hosts, every
// redirect checked again, the bearer token only where the site wants it, and the bytes counted as
// they stream so a body past the cap is cut off whatever its Content-Length said.
import { AppError } from "~/domain/app-error";
import { FILE_TOO_LARGE_MESSAGE } from "~/domain/upload-limits";

const MAX_REDIRECTS = 5;
const DOWNLOAD_TIMEOUT_MS = 60_000;

const UNREACHABLE = "The model's file could not be downloaded. Please try again later.";

export interface DownloadRules {
  /** hosts a file may come from, redirects included */
  hosts: readonly string[];
  /** hosts that get the bearer token (never a CDN) */
  tokenHosts: readonly string[];
  token?: string;
  maxBytes: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** awaited before each request to a token host (the site's API spends its request budget) */
  beforeTokenHostRequest?: () => Promise<void>;
}

/** The URL when it is https on one of the hosts (no credentials, default port), else null. */
export function allowedUrl(raw: string, hosts: readonly string[]): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || (url.port && url.port !== "443")) return null;
  return hosts.includes(url.hostname.toLowerCase()) ? url : null;
}

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, controller: AbortController): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      throw new AppError("unavailable", UNREACHABLE, { cause: error });
    }
    if (next.done) break;
    received += next.value.byteLength;
    if (received > maxBytes) {
      controller.abort();
      // not awaited: a teed body (msw, proxies) settles its cancel only when every branch is cancelled
      void reader.cancel().catch(() => {});
      throw new AppError("too_large", FILE_TOO_LARGE_MESSAGE);
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Fetches a file under the rules, following redirects by hand so every hop is checked. Throws AppError. */
export async function downloadChecked(rawUrl: string, rules: DownloadRules): Promise<Uint8Array> {
  const doFetch = rules.fetch ?? ((input, init) => fetch(input, init));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), rules.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  try {
    let url = allowedUrl(rawUrl, rules.hosts);
    for (let hop = 0; ; hop++) {
      if (!url) throw new AppError("invalid", "The model's file is hosted somewhere we do not download from.");
      if (rules.tokenHosts.includes(url.hostname)) await rules.beforeTokenHostRequest?.();
      const headers: Record<string, string> = { accept: "application/octet-stream, */*" };
      if (rules.token && rules.tokenHosts.includes(url.hostname)) headers.authorization = `Bearer ${rules.token}`;
      let response: Response;
      try {
        response = await doFetch(url.href, { headers, redirect: "manual", signal: controller.signal });
      } catch (error) {
        throw new AppError("unavailable", UNREACHABLE, { cause: error });
      }
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get("location");
        void response.body?.cancel().catch(() => {});
        if (!location || hop >= MAX_REDIRECTS) throw new AppError("unavailable", "The model's file could not be downloaded.");
        url = allowedUrl(new URL(location, url).href, rules.hosts);
        continue;
      }
      if (!response.ok || !response.body) {
        void response.body?.cancel().catch(() => {});
        throw new AppError("unavailable", UNREACHABLE);
      }
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > rules.maxBytes) {
        void response.body.cancel().catch(() => {});
        throw new AppError("too_large", FILE_TOO_LARGE_MESSAGE);
      }
      return await readCapped(response.body, rules.maxBytes, controller);
    }
  } finally {
    clearTimeout(timer);
  }
}
