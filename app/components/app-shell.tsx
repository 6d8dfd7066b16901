// The installable app's page side: registers the service worker (/sw.js) on every page, offers
// the browser's install prompt in a banner until it is dismissed (remembered in localStorage),
// and asks the service worker to drop its caches when the user signs out.
import { useEffect, useRef, useState } from "react";

export const INSTALL_DISMISSED_KEY = "printnear-install-dismissed";

interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

function clearCaches() {
  navigator.serviceWorker?.controller?.postMessage({ type: "clear-caches" });
  // also from the page, in case no worker controls it yet
  if ("caches" in window) void caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key))));
}

export function AppShell({ signedIn }: { signedIn: boolean }) {
  const [prompt, setPrompt] = useState<InstallPromptEvent | null>(null);
  const wasSignedIn = useRef(signedIn);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // the page works the same without it
    });
  }, []);

  useEffect(() => {
    if (wasSignedIn.current && !signedIn) clearCaches();
    wasSignedIn.current = signedIn;
  }, [signedIn]);

  useEffect(() => {
    const onPrompt = (event: Event) => {
      event.preventDefault();
      if (localStorage.getItem(INSTALL_DISMISSED_KEY)) return;
      setPrompt(event as InstallPromptEvent);
    };
    const onInstalled = () => setPrompt(null);
    window.addEventListener("beforeinstallprompt", onPrompt);
    window.addEventListener("appinstalled", onInstalled);
    return () => {
      window.removeEventListener("beforeinstallprompt", onPrompt);
      window.removeEventListener("appinstalled", onInstalled);
    };
  }, []);

  if (!prompt) return null;
  const dismiss = () => {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
    setPrompt(null);
  };
  return (
    <div
      role="region"
      aria-label="Install the app"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-md items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
      data-testid="install-banner"
    >
      <img src="/icons/icon-192.png" alt="" width={40} height={40} className="rounded-md" />
      <p className="flex-1 text-sm">
        <span className="font-semibold">Install Printnear</span>
        <br />
        Keep your orders and messages one tap away.
      </p>
      <button
        type="button"
        className="btn-primary"
        onClick={async () => {
          await prompt.prompt();
          await prompt.userChoice.catch(() => null);
          setPrompt(null);
        }}
      >
        Install
      </button>
      <button type="button" className="btn-ghost" onClick={dismiss} aria-label="Dismiss install banner">
        Not now
      </button>
    </div>
  );
}
