// A one-second micro-cache of the public listing pages for signed-out visitors. Their HTML is the
// same for every such visitor, so under load one render serves everyone who asks within the same
// second, concurrent misses share one render, and a page up to five seconds old is served while
// one request renders the next. Signed-in visitors (any Cookie), other pages,
// answers other than 200 and answers that set a cookie are never cached. Each answer still gets
// its own CSP nonce: the cached document's nonce is replaced by this response's.

export const CACHED_PAGES = new Set(["/", "/models", "/browse", "/printers"]);
const TTL_MS = 1000;
/** a page up to this old is still served while one request renders its successor */
const STALE_MS = 5000;
const MAX_ENTRIES = 500;

interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  nonce: string;
  storedAt: number;
}

const entries = new Map<string, CachedPage>();
/** renders in progress: the page when it may be shared, else the one Response for its own request */
const rendering = new Map<string, Promise<CachedPage | Response | null>>();

/** The cache key for a request that may be served from the cache, or null. */
export function pageCacheKey(input: { method: string; path: string; url: string; headers: Headers }): string | null {
  if (input.method !== "GET" || !CACHED_PAGES.has(input.path)) return null;
  if (input.headers.has("cookie") || input.headers.has("authorization")) return null;
  // documents only: single-fetch data requests end in .data and are not listed
  return input.url;
}

/** This response's copy of a cached page: the stored nonce swapped for the response's own. */
export function answerFrom(entry: CachedPage, nonce: string | undefined): Response {
  const body = nonce && entry.nonce ? entry.body.replaceAll(`nonce="${entry.nonce}"`, `nonce="${nonce}"`) : entry.body;
  return new Response(body, { status: entry.status, headers: entry.headers });
}

async function renderAndKeep(key: string, nonce: string | undefined, render: () => Promise<Response>, now: number) {
  const response = await render();
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || response.headers.has("set-cookie") || !type.startsWith("text/html")) return response;
  const entry: CachedPage = {
    status: response.status,
    headers: [...response.headers.entries()],
    body: await response.text(),
    nonce: nonce ?? "",
    storedAt: now,
  };
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, entry);
  return entry;
}

/**
 * The page from the cache when fresh; otherwise renders it once (concurrent requests for the
 * same key wait for that render) and keeps it when it may be shared.
 */
export async function cachedPage(
  key: string,
  nonce: string | undefined,
  render: () => Promise<Response>,
  now = Date.now(),
): Promise<Response> {
  const hit = entries.get(key);
  if (hit && now - hit.storedAt < TTL_MS) return answerFrom(hit, nonce);
  const pending = rendering.get(key);
  if (hit && now - hit.storedAt < STALE_MS) {
    // stale while revalidating: nobody waits for the refresh, which this request starts if none runs
    if (!pending) {
      const refresh = renderAndKeep(key, nonce, render, now)
        .catch(() => null)
        .finally(() => rendering.delete(key));
      rendering.set(key, refresh);
    }
    return answerFrom(hit, nonce);
  }
  if (pending) {
    const shared = await pending;
    // the render in progress could not be shared (or failed): this request renders its own
    return shared && !(shared instanceof Response) ? answerFrom(shared, nonce) : render();
  }
  const mine = renderAndKeep(key, nonce, render, now).finally(() => rendering.delete(key));
  rendering.set(key, mine);
  const result = await mine;
  return result instanceof Response ? result : answerFrom(result, nonce);
}

export function clearPageCache() {
  entries.clear();
}
