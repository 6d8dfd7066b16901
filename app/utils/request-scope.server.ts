// One request's memo, shared by all of its loaders. For an address with a query Remix hands every loader its own
// copy of the Request (it strips its internal query parameters; server/loader-requests.ts spares the copies only
// for an address without one), so a cache keyed by the Request object misses from one loader to the
// next; server/remix-handler.ts runs each read-only request (GET, HEAD) inside a scope instead, and
// getSessionUser keeps the signed-in user there, looked up once per request. Writes get no scope: an action
// may change the user, and the loaders after it must see the change.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestScope {
  /** the session's user by Cookie header */
  sessionUsers: Map<string, Promise<unknown>>;
}

declare global {
  // one instance for the server (run from source) and the app build (bundled apart from it)
  var __printnearRequestScope: AsyncLocalStorage<RequestScope> | undefined;
}

function storage(): AsyncLocalStorage<RequestScope> {
  globalThis.__printnearRequestScope ??= new AsyncLocalStorage<RequestScope>();
  return globalThis.__printnearRequestScope;
}

/** Runs a read-only request's handling inside a fresh scope. */
export function withRequestScope<T>(run: () => T): T {
  return storage().run({ sessionUsers: new Map() }, run);
}

/** The scope of the request being handled, or undefined (writes, tests, scripts). */
export function currentRequestScope(): RequestScope | undefined {
  return storage().getStore();
}
