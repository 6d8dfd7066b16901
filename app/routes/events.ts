// GET /events: the signed-in user's live stream (Server-Sent Events). It says only "something
// changed for you" (a message in one of their conversations, a notification); the page then
// reloads its data through its loaders, which keep every access rule. Past a cap on streams (per
// user, per address, per machine) it answers 429 or 503 and the page's client reopens later.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import { isAppError } from "~/domain/app-error";
import { liveHub, type LiveEvent } from "~/services/live-events.server";
import { apiError, methodNotAllowed } from "~/utils/api.server";
import { apiErrorResponse } from "~/utils/app-error.server";
import { clientIp } from "~/utils/rate-limit.server";
import { getSessionUser } from "~/utils/session.server";

const PING_MS = 25_000;
/** A stream ends after this long and the browser reconnects, so no connection lives for ever. */
const STREAM_MS = 10 * 60_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (!user) return apiError(401, "Not authenticated");
  const hub = liveHub();
  const queued: LiveEvent[] = [];
  let deliver: ((event: LiveEvent) => void) | null = null;
  let unsubscribe: () => void;
  try {
    unsubscribe = await hub.subscribe({ userId: user.id, address: clientIp(request) }, (event) =>
      deliver ? deliver(event) : queued.push(event),
    );
  } catch (error) {
    if (isAppError(error)) return apiErrorResponse(error);
    throw error;
  }
  return eventStream(
    request.signal,
    (send, close) => {
      deliver = (event) => send({ event: "change", data: JSON.stringify(event) });
      send({ event: "ready", data: hub.token() });
      for (const event of queued.splice(0)) deliver(event);
      const ping = setInterval(() => send({ event: "ping", data: String(Date.now()) }), PING_MS);
      const end = setTimeout(close, STREAM_MS);
      return () => {
        clearInterval(ping);
        clearTimeout(end);
        unsubscribe();
      };
    },
    { headers: { "X-Accel-Buffering": "no" } },
  );
}

// a stream is only read: any other method gets 405 with Allow (Remix's own answer would be an error page)
export async function action() {
  return methodNotAllowed("GET");
}
