/** True when a state-changing request comes from another site (browser-sent Origin / Sec-Fetch-Site). */
export function isCrossSiteRequest(input: { origin?: string | null; secFetchSite?: string | null; host: string }) {
  if (input.secFetchSite === "cross-site") return true;
  if (!input.origin) return false; // not a browser form post (curl, server-to-server)
  if (input.origin === "null") return true;
  try {
    return new URL(input.origin).host !== input.host;
  } catch {
    return true;
  }
}
