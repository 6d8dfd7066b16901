import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Keeps a page's data fresh while `active`: with JavaScript it re-runs the loaders every
 * `everyMs`; without it, the page reloads itself (a refresh meta tag only a script-less browser reads).
 */
export function LiveRefresh({ active, everyMs = 1000 }: { active: boolean; everyMs?: number }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, revalidator]);
  if (!active) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(Math.max(1, Math.round(everyMs / 1000) + 1))} />
    </noscript>
  );
}
