// msw for third-party HTTP: tests (through tests/setup/msw.ts) and the dev server's mock mode
// (MOCKS=true) share these handlers.
import { setupServer } from "msw/node";
import type { RequestHandler } from "msw";
import { thingiverseHandlers } from "./thingiverse";

export const handlers: RequestHandler[] = [...thingiverseHandlers];

/** The dev server's mock mode: requests to our own server pass through; anything else unknown is reported. */
export function startMockServer() {
  const server = setupServer(...handlers);
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (!/^(localhost|127\.0\.0\.1)$/.test(new URL(request.url).hostname)) print.warning();
    },
  });
  return server;
}
