// What the server learns about one request while React Router handles it: given in the request's router
// context, set by entry.server's handleError, read by server/app-handler.ts to shape the answer.
import { createContext, RouterContextProvider, type RouterContext } from "react-router";

export interface RequestState {
  /** a loader or action failed because another connection held the database's write lock, or it was read-only */
  databaseBusy: boolean;
  /** the router itself refused the request: a method the route does not take (no action, no loader) */
  refusedByRouter: boolean;
}

export function requestState(): RequestState {
  return { databaseBusy: false, refusedByRouter: false };
}

declare global {
  // one pair of keys for the server (run from source) and the app build (bundled apart from it)
  var __printnearRequestContexts:
    { state: RouterContext<RequestState | null>; cspNonce: RouterContext<string | null> } | undefined;
}

globalThis.__printnearRequestContexts ??= {
  state: createContext<RequestState | null>(null),
  cspNonce: createContext<string | null>(null),
};

/** This request's state (null outside the server: tests, scripts). */
export const requestStateContext = globalThis.__printnearRequestContexts.state;
/** The Content-Security-Policy nonce of this answer, for the framework's inline scripts. */
export const cspNonceContext = globalThis.__printnearRequestContexts.cspNonce;

/** The router context the server gives each request. */
export function requestContext(state: RequestState, cspNonce: string | undefined): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestStateContext, state);
  context.set(cspNonceContext, cspNonce ?? null);
  return context;
}
