// What the server learns about one request while Remix handles it: passed as the load context,
// set by entry.server's handleError, read by server/remix-handler.ts to shape the answer.

export interface RequestState {
  /** a loader or action failed because another connection held the database's write lock, or it was read-only */
  databaseBusy: boolean;
}

export function requestState(): RequestState {
  return { databaseBusy: false };
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestState?: RequestState;
    /** the Content-Security-Policy nonce of this answer, for Remix's inline scripts */
    cspNonce?: string;
  }
}
