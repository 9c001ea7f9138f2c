// ImQuiz service worker: the app shell is precached per build, banks are served
// stale-while-revalidate. The cache name carries the build fingerprint (filled in by
// scripts/assemble-site.sh), so a new build never mixes its JS and wasm with an old build's:
// the new worker installs a complete new shell, takes over on the next load, and deletes the old.
'use strict';
const BUILD = '__IMQUIZ_BUILD__';
const SHELL_CACHE = 'imquiz-shell-' + BUILD;
const BANK_CACHE = 'imquiz-banks';
// Relative to the worker's own URL, so a deployment under any sub-path works.
const SHELL = ['./', 'index.html', 'boot.js', 'a11y.js', 'app.css', 'imquiz.js', 'imquiz.wasm',
               'fonts/imquiz-sans.ttf', 'manifest.webmanifest', 'icon.svg', 'icon-maskable.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) =>
    Promise.all(SHELL.map((path) => cache.add(new Request(path, { cache: 'reload' })).catch(() => null)))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith('imquiz-shell-') && name !== SHELL_CACHE)
    .map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});

function isBank(url) { return url.pathname.includes('/quizzes/') && url.pathname.endsWith('.json'); }

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isBank(url)) {
    // Stale-while-revalidate: answer from the cache at once when we can, refresh it in the
    // background; a failed refresh keeps the cached copy (offline).
    event.respondWith(caches.open(BANK_CACHE).then(async (cache) => {
      const cached = await cache.match(request, { ignoreSearch: true });
      const network = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) { event.waitUntil(network.catch(() => null)); return cached; }
      return network;
    }));
    return;
  }
  // App shell: this build's cache first; the navigation itself falls back to index.html.
  event.respondWith(caches.open(SHELL_CACHE).then(async (cache) => {
    const cached = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
    if (cached) return cached;
    try {
      return await fetch(request);
    } catch (error) {
      if (request.mode === 'navigate') {
        const shell = await cache.match('index.html');
        if (shell) return shell;
      }
      throw error;
    }
  }));
});
