// With JavaScript, a signed-in page listens to its live stream (/events) and reloads its data
// when something changed for the user: new messages appear in an open thread, the header's
// counts move. Without JavaScript nothing here runs and each page load is complete.
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useEventSource } from "remix-utils/sse/react";

export const LIVE_EVENTS_URL = "/events";

export function LiveUpdates() {
  // the two hooks share one EventSource; the browser reconnects it by itself after a drop
  const change = useEventSource(LIVE_EVENTS_URL, { event: "change" });
  const ready = useEventSource(LIVE_EVENTS_URL, { event: "ready" });
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const lastReady = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  function soon() {
    // a burst of events (a message and its notification) reloads once
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => revalidate.current(), 150);
  }

  useEffect(() => {
    if (change) soon();
  }, [change]);

  useEffect(() => {
    if (!ready) return;
    // a reconnect whose cursor moved may have missed events while the stream was down
    if (lastReady.current !== null && lastReady.current !== ready) soon();
    lastReady.current = ready;
  }, [ready]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return null;
}
