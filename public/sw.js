// Printnear's service worker. Hashed build assets (/assets/*) are served cache-first: their
// names change with their content. Page navigations go to the network, with the offline page
// when it is unreachable; pages themselves are never cached, so one user's pages can't be shown
// to another. /api answers, the live stream and non-GET requests are left to the network.
// the build writes its own version here, so a new build's worker replaces the old one's caches
const VERSION = "dev";
const STATIC_CACHE = `printnear-static-v${VERSION}`;
const SHELL_CACHE = `printnear-shell-v${VERSION}`;
const OFFLINE_URL = "/offline.html";
const SHELL_FILES = [OFFLINE_URL, "/offline.css", "/icons/icon-192.png", "/favicon.svg"];

async function cacheShell() {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll(SHELL_FILES);
}

self.addEventListener("install", (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

// Caches of earlier versions (the previous build's hashed assets and shell) are dropped here.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key !== STATIC_CACHE && key !== SHELL_CACHE).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

// Sign-out: the page asks for every cache to go (the offline page comes back at once).
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "clear-caches") {
    event.waitUntil(
      caches
        .keys()
        .then((keys) => Promise.all(keys.map((key) => caches.delete(key))))
        .then(cacheShell),
    );
  }
});

async function assetCacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

async function navigationNetworkFirst(request) {
  try {
    return await fetch(request);
  } catch {
    const offline = await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE });
    return offline || new Response("You're offline.", { status: 503, headers: { "content-type": "text/plain" } });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/events") return;
  if (request.mode === "navigate") {
    event.respondWith(navigationNetworkFirst(request));
    return;
  }
  if (url.pathname.startsWith("/assets/")) event.respondWith(assetCacheFirst(request));
});
