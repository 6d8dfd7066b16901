// With JavaScript, a signed-in page listens to its live stream (/events) and reloads its data
// when something changed for the user: new messages appear in an open thread, the header's
// counts move. The stream is reopened with backoff whenever the browser gives it up (see
// live-stream.ts). Without JavaScript nothing here runs and each page load is complete.
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { createReloadGate, keepLiveStream } from "./live-stream";

export const LIVE_EVENTS_URL = "/events";

export function LiveUpdates() {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const gate = useRef<ReturnType<typeof createReloadGate> | null>(null);
  gate.current ??= createReloadGate(() => revalidate.current());
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");

  // a reload waits for a navigation or form post under way (see createReloadGate)
  useEffect(() => gate.current?.setBusy(busy), [busy]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastReady: string | null = null;
    const soon = () => {
      // a burst of events (a message and its notification) reloads once
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => gate.current?.request(), 150);
    };
    const stop = keepLiveStream(
      LIVE_EVENTS_URL,
      {
        onChange: soon,
        onReady(token) {
          // a reconnect whose cursor moved may have missed events while the stream was down
          if (lastReady !== null && lastReady !== token) soon();
          lastReady = token;
        },
      },
      { open: (url) => new EventSource(url) },
    );
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return null;
}
