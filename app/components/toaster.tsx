import { useEffect, useMemo, useRef, useState } from "react";

export interface ToastData {
  title: string;
  description?: string;
  variant: "default" | "destructive";
}

const DISPLAY_MS = 5000;
const SWIPE_PX = 50;

/** One toast at a time; hides after 5 s (CSS does it without JavaScript), F8 focuses it, swipe right dismisses. */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [visible, setVisible] = useState<ToastData | null>(toast);
  const region = useRef<HTMLOListElement>(null);
  const startX = useRef<number | null>(null);

  // a new toast shows; a later reload without one (e.g. a live update) leaves the shown one be
  useEffect(() => {
    if (toast) setVisible(toast);
  }, [toast]);
  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => setVisible(null), DISPLAY_MS + 300);
    return () => clearTimeout(timer);
  }, [visible]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") region.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const destructive = visible?.variant === "destructive";
  return (
    <ol
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      // 1 rem from the right edge and, on a phone, from the left one too
      className="pointer-events-none fixed top-20 right-4 z-[100] flex w-[calc(100%-2rem)] max-w-[420px] flex-col gap-2 outline-none"
    >
      {visible ? (
        <li
          role={destructive ? "alert" : "status"}
          aria-live={destructive ? "assertive" : "polite"}
          data-testid="toast"
          className={`toast-auto-hide pointer-events-auto relative rounded-lg border p-4 pr-10 shadow-lg ${destructive ? "border-red-300 bg-red-600 text-white" : "border-slate-200 bg-white text-slate-900"}`}
          onPointerDown={(e) => (startX.current = e.clientX)}
          onPointerUp={(e) => {
            if (startX.current !== null && e.clientX - startX.current > SWIPE_PX) setVisible(null);
            startX.current = null;
          }}
        >
          <p className="text-sm font-semibold">{visible.title}</p>
          {visible.description ? <p className="mt-1 text-sm opacity-90">{visible.description}</p> : null}
          <button
            type="button"
            onClick={() => setVisible(null)}
            className="absolute top-2 right-2 rounded p-1 text-current opacity-70 hover:opacity-100"
            aria-label="Dismiss"
          >
            ×
          </button>
        </li>
      ) : null}
    </ol>
  );
}

/**
 * A refused form post raised as a destructive toast beside the page's own message. Made once per reason, so
 * the page re-rendering (a choice changed) never raises a dismissed toast again.
 */
export function FailureToast({ title, description }: { title: string; description: string }) {
  const toast = useMemo<ToastData>(() => ({ title, description, variant: "destructive" }), [title, description]);
  return <Toaster toast={toast} />;
}
