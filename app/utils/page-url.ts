// Loaders and actions get the request as it arrived (future.v8_passThroughRequests): a client navigation's
// data request names the page with a ".data" suffix ("/_.data" for one with a trailing slash) and may carry the
// framework's `_routes` and `index` parameters. pageUrl is the page's own address, as a document request has it.

/** The address of the page a request is for, without the framework's data-request suffix and parameters. */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.endsWith("/_.data")) url.pathname = url.pathname.slice(0, -"_.data".length);
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length) || "/";
  // rewriting the query would re-encode it ("?a=/x" becomes "?a=%2Fx"): only when there is something to take out
  if (url.searchParams.has("_routes") || url.searchParams.getAll("index").includes("")) {
    url.searchParams.delete("_routes");
    const kept = url.searchParams.getAll("index").filter(Boolean);
    url.searchParams.delete("index");
    for (const value of kept) url.searchParams.append("index", value);
  }
  return url;
}
