// What the server learns about one request while React Router handles it: given in the request's router
// context, set by entry.server's handleError, read by server/app-handler.ts to shape the answer.
import { createContext, RouterContextProvider } from "react-router";

export interface RequestState {
  /** a loader or action failed because another connection held the database's write lock, or it was read-only */
  databaseBusy: boolean;
  /** the router itself refused the request: a method the route does not take (no action, no loader) */
  refusedByRouter: boolean;
}

export function requestState(): RequestState {
  return { databaseBusy: false, refusedByRouter: false };
}

/** This request's state (absent outside the server: tests, scripts). */
export const requestStateContext = createContext<RequestState | null>(null);
/** The Content-Security-Policy nonce of this answer, for the framework's inline scripts. */
export const cspNonceContext = createContext<string | undefined>(undefined);

/** The router context the server gives each request. */
export function requestContext(state: RequestState, cspNonce: string | undefined): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestStateContext, state);
  context.set(cspNonceContext, cspNonce);
  return context;
}
