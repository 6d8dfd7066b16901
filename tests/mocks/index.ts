// msw for third-party HTTP: tests and the dev server's mock mode (MOCKS=true) share these handlers.
import { setupServer } from "msw/node";
import type { RequestHandler } from "msw";
import { shippoHandlers } from "./shippo";
import { stripeHandlers } from "./stripe";
import { thingiverseHandlers } from "./thingiverse";

export const handlers: RequestHandler[] = [...thingiverseHandlers, ...stripeHandlers, ...shippoHandlers];

let started = false;
export function startMockServer(extra: RequestHandler[] = []) {
  const server = setupServer(...extra, ...handlers);
  if (!started) {
    // requests to our own server (localhost) pass through; anything else unknown is reported
    server.listen({
      onUnhandledRequest: (request, print) => {
        if (!new URL(request.url).hostname.match(/^(localhost|127\.0\.0\.1)$/)) print.warning();
      },
    });
    started = true;
  }
  return server;
}
