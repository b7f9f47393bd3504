// The referee's service worker (registered by static/js/scoresheet.js, served at /tulos/sw.js):
// a reload or a second tab while the network is away shows the scoresheet from the device.
//
// Its scope is one match's secret link (/tulos/<token>/): it controls that link's pages only, so it
// never sees, let alone keeps, another user's page. It keeps the device's last copy of the sheet
// (the link's own page, the latest one the server sent) and of the files that page loads (/static/),
// in the Cache API, and answers from that copy only when the network fails. Everything else (every
// POST, every other address) goes to the network untouched. The server marks the sheet no-store so no
// shared cache keeps it; this copy is the device's own, gone when the browser's site data is cleared.
"use strict";

const SHEET = new URL(self.registration.scope).pathname; // "/tulos/<token>/"
const CACHE = `tuppi-poytakirja-${SHEET}`;

const isSheet = (url) => url.origin === self.location.origin && url.pathname === SHEET;
const isStatic = (url) => url.origin === self.location.origin && url.pathname.startsWith("/static/");

async function keepSheet(response) {
  const cache = await caches.open(CACHE);
  await cache.put(SHEET, response.clone());
  const html = await response.text();
  const files = [...html.matchAll(/(?:src|href)="(\/static\/[^"?#]+)"/g)].map((m) => m[1]);
  await Promise.all([...new Set(files)].map((file) => cache.add(file).catch(() => {})));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    fetch(SHEET, { credentials: "same-origin" })
      .then((response) => (response.ok ? keepSheet(response) : null))
      .catch(() => {})
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function fromNetwork(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && request.mode === "navigate" && isSheet(url) && !url.search) {
      await keepSheet(response.clone()); // the latest sheet the server sent is the device's copy
    } else if (response.ok && isStatic(url)) {
      const cache = await caches.open(CACHE);
      await cache.put(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    // Offline: the link's page (any of its addresses: a correction's ?muokkaa= too) is the kept sheet.
    const kept = await cache.match(request.mode === "navigate" ? SHEET : url.pathname);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET") return;
  if (event.request.mode === "navigate" ? !url.pathname.startsWith(SHEET) : !(isSheet(url) || isStatic(url))) return;
  event.respondWith(fromNetwork(event.request, url));
});
