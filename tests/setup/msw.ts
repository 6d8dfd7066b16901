// The one msw server of the test run: every test file's third-party HTTP goes through it. The
// shared setup starts it before each file and resets a test's own handlers (server.use) after it.
import { setupServer } from "msw/node";
import { handlers } from "../mocks/index";

export const server = setupServer(...handlers);

/** Requests to our own server (localhost) pass through; any other unknown request fails loudly. */
export function listen() {
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (!/^(localhost|127\.0\.0\.1)$/.test(new URL(request.url).hostname)) print.error();
    },
  });
}
