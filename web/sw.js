// ImQuiz service worker: offline after the first visit.
//
// - The app shell (page, scripts, wasm, font, icons) is precached per build, in a cache named
//   after the build's fingerprint (filled in by scripts/assemble-site.sh), and served cache-first.
//   Install fails unless every shell file arrived and the fingerprinted ones hash to this build,
//   so one cache never holds the JS of one build and the wasm of another (a deploy in progress).
// - Update policy: no skipWaiting. A new build installs in the background while the old one keeps
//   serving every open ImQuiz page of this deployment (a reload included), so a running page never
//   gets files from two builds. It takes over once no page of the deployment is open (the next
//   visit after closing the tab, or the next course page in an LMS), then deletes the old cache.
// - The catalog and banks (and the files of typeset formulas the catalog names with them) are
//   data, not build: stale-while-revalidate. The cached copy answers at
//   once (a start does not wait for the network) while a fresh copy replaces it for the next load,
//   so an author's edit reaches a learner one visit late, and offline the cached copy is all there
//   is. Progress is keyed by the bank's fingerprint: an attempt started on the old content is handled
//   as after any edit (quizzes/README.md, Editing a published bank). Only a copy that can serve
//   offline replaces one: a 200, not redirected, served as JSON, that parses (a host's "maintenance"
//   page answered with 200 must not become the offline catalog). A bank leaves the cache when a
//   fresh catalog no longer lists it, never on one failed request (a 404 in the middle of a deploy).
//   Keys are whole URLs, query included: `?v=evil` on a server that varies by query is cached as
//   that URL, never as the plain file. Without a cached copy: the network. They are precached at
//   install too, because the first visit fetched them before this worker existed.
// - A Markdown bank's images (files under quizzes/ that its texts show) are data too, kept the
//   same way (only a 2xx served as PNG, JPEG, WebP or SVG replaces a copy) and as long as a
//   cached bank the catalog lists still names them: an author's new picture replaces the old one
//   a visit late, a picture no bank shows any more goes with the next fresh catalog.
// - The page's own response headers (CSP, frame-ancestors) are the server's, one load late: each
//   navigation answered from the cache fetches index.html again in the background and, when it is
//   still this build's page, stores it with the headers the server sends now. A learner offline
//   keeps the headers of the last online load.
// - Cache names carry the deployment's path: two copies of ImQuiz under different paths of one
//   origin share Cache Storage and must not delete each other's caches.
'use strict';
const BUILD = '__IMQUIZ_BUILD__';
const SCOPE = new URL(self.registration.scope).pathname;
const SHELL_PREFIX = 'imquiz-shell:' + SCOPE + ':';
const SHELL_CACHE = SHELL_PREFIX + BUILD;
const DATA_CACHE = 'imquiz-data:' + SCOPE;
const CATALOG = 'quizzes/index.json';
// The shell is what index.html references (scripts, styles, preloads, manifest, icon) plus the
// manifest's icons, found at install: a file added to the page is in the offline copy without
// anyone remembering to list it here. These are needed whatever the page says (boot.js inserts
// the scripts):
const ESSENTIAL = ['index.html', 'boot.js', 'imquiz.js', 'imquiz.wasm', 'fonts/imquiz-sans.ttf', 'a11y.js', 'text-field.js'];
// The files the build fingerprint is computed from, in this order (scripts/assemble-site.sh reads
// this line): every file of the shell that the build makes, so that a change to any of them is a
// new build, which is the only way a learner's offline copy of it is ever replaced.
const FINGERPRINTED = ['imquiz.js', 'imquiz.wasm', 'boot.js', 'index.html', 'a11y.js', 'text-field.js', 'app.css'];
// Parts of the shell only Markdown banks need (the rich player and its page script and styles,
// md4c's module, the faces of rich text, Prism, MathJax): never precached, so a learner of plain
// banks never downloads them, and kept in this build's cache once used, so a Markdown bank opened
// once works offline. They are not in the fingerprint's files (a learner would otherwise download
// them at every install to check it), but their hash is: scripts/assemble-site.sh writes it into
// boot.js, which is fingerprinted, so a change to any of them is a new build and a new cache.
const ON_FIRST_USE = ['imquiz-rich.js', 'imquiz-rich.wasm', 'rich.js', 'rich.css', 'imquiz-markdown.wasm',
  'fonts/imquiz-sans-bold.ttf', 'fonts/imquiz-sans-italic.ttf', 'fonts/imquiz-sans-bold-italic.ttf',
  'fonts/imquiz-mono.ttf', 'imquiz-highlight.js', 'imquiz-math.js'].map((path) => new URL(path, self.location.href).href);

const here = (path) => new URL(path, self.location.href).href;
const isDataUrl = (href) => new URL(href).pathname.startsWith(SCOPE + 'quizzes/');

function referencedBy(html) {
  const found = [];
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)) {
    const url = new URL(match[1], self.location.href);
    if (url.origin === self.location.origin && !isDataUrl(url.href)) found.push(url.href);
  }
  return found;
}

async function fetchFresh(href) {
  const response = await fetch(new Request(href, { cache: 'reload' }));
  if (!response.ok) throw new Error(`${href}: the server answered ${response.status}`);
  return response;
}

async function fingerprint(responses) {
  const bodies = await Promise.all(FINGERPRINTED.map((path) => responses.get(here(path)).clone().arrayBuffer()));
  const joined = new Uint8Array(bodies.reduce((sum, body) => sum + body.byteLength, 0));
  let offset = 0;
  for (const body of bodies) { joined.set(new Uint8Array(body), offset); offset += body.byteLength; }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, BUILD.length);
}

async function precacheShell() {
  const responses = new Map();   // absolute URL -> Response
  const index = await fetchFresh(here('index.html'));
  responses.set(here('index.html'), index);
  const wanted = new Set(ESSENTIAL.map(here).concat(referencedBy(await index.clone().text())));
  wanted.delete(here('index.html'));
  await Promise.all(Array.from(wanted, async (href) => responses.set(href, await fetchFresh(href))));
  for (const [href, response] of Array.from(responses)) {
    if (!new URL(href).pathname.endsWith('.webmanifest')) continue;
    const manifest = await response.clone().json().catch(() => ({}));
    const icons = (Array.isArray(manifest.icons) ? manifest.icons : [])
      .map((icon) => icon && typeof icon.src === 'string' && new URL(icon.src, href))
      .filter((url) => url && url.origin === self.location.origin && !responses.has(url.href));
    await Promise.all(icons.map(async (url) => responses.set(url.href, await fetchFresh(url.href))));
  }
  if (!BUILD.startsWith('__')) {   // an unassembled development copy has no fingerprint
    const found = await fingerprint(responses);
    if (found !== BUILD) throw new Error(`the files on the server are not build ${BUILD} (found ${found}): a deploy in progress?`);
  }
  const cache = await caches.open(SHELL_CACHE);
  await cache.put(here('./'), index.clone());   // the deployment's own URL
  await Promise.all(Array.from(responses, ([href, response]) => cache.put(href, response)));
}

// The parsed JSON of a response worth keeping as the offline copy, or undefined: a 2xx from this
// origin, not redirected (a login or error page elsewhere), with a JSON Content-Type, that parses.
async function offlineWorthy(response) {
  if (!response || !response.ok || response.redirected || response.type !== 'basic') return undefined;
  if (!/^(application\/([\w.-]+\+)?json|text\/json)\s*(;|$)/i.test(response.headers.get('Content-Type') || '')) return undefined;
  try { return JSON.parse(await response.clone().text()); } catch (error) { return undefined; }
}

// An image response worth keeping offline: as offlineWorthy, with an image type of the four.
function imageWorthy(response) {
  return !!response && response.ok && !response.redirected && response.type === 'basic' &&
    /^image\/(png|jpeg|webp|svg\+xml)\s*(;|$)/i.test(response.headers.get('Content-Type') || '');
}
const isImagePath = (pathname) => /\.(png|jpe?g|webp|svg)$/i.test(pathname);

// The images a bank's texts show, as absolute URLs under quizzes/ of this origin: every
// `![alt](source)` in its strings. Markdown is md4c's business in the app; this only has to find
// the files to keep, and keeping one too many costs a few kilobytes.
function imagesOf(bank, bankHref) {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(/!\[[^\]]*\]\(\s*<?([^\s)>]+)/g)) {
        const url = new URL(match[1], bankHref);
        if (url.origin === self.location.origin && isDataUrl(url.href) && isImagePath(url.pathname)) found.add(url.href);
      }
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  if (bank && bank.textFormat === 'markdown') walk(bank);
  return Array.from(found);
}

// The bank files a catalog lists, as absolute URLs of this origin; with `formulas`, the files of
// their formulas typeset ahead of time (an entry's "formulas") too: data kept like the banks.
function listedBanks(catalog, formulas = false) {
  const base = new URL(CATALOG, self.location.href);
  const banks = catalog && Array.isArray(catalog.banks) ? catalog.banks : [];
  const urls = [];
  for (const entry of banks) {
    if (!entry) continue;
    for (const file of formulas ? [entry.file, entry.formulas] : [entry.file]) {
      if (typeof file !== 'string') continue;
      const url = new URL(file, base);
      if (url.origin === self.location.origin && isDataUrl(url.href)) urls.push(url.href);
    }
  }
  return urls;
}

// A fresh catalog decides what stays offline: itself and the banks it lists. Anything else in the
// data cache (a removed bank, a bank= draft, a query variant) goes.
async function keepOnlyListed(cache, catalog) {
  const banks = listedBanks(catalog);
  const keep = new Set([here(CATALOG)].concat(listedBanks(catalog, true)));
  for (const href of banks) {
    const cached = await cache.match(href);
    const bank = cached ? await cached.json().catch(() => null) : null;
    imagesOf(bank, href).forEach((image) => keep.add(image));
  }
  const requests = await cache.keys();
  await Promise.all(requests.filter((request) => !keep.has(request.url)).map((request) => cache.delete(request)));
}

// Best effort: a bank that cannot be fetched now is cached the next time the page loads it.
async function precacheData() {
  try {
    const cache = await caches.open(DATA_CACHE);
    const catalogResponse = await fetch(new Request(CATALOG, { cache: 'no-cache' }));
    const catalog = await offlineWorthy(catalogResponse);
    if (catalog === undefined) return;
    await cache.put(here(CATALOG), catalogResponse);
    await Promise.all(listedBanks(catalog, true).map(async (href) => {
      const response = await fetch(new Request(href, { cache: 'no-cache' })).catch(() => null);
      const bank = await offlineWorthy(response);
      if (bank === undefined) return;
      await cache.put(href, response);
      await Promise.all(imagesOf(bank, href).map(async (image) => {
        const picture = await fetch(new Request(image, { cache: 'no-cache' })).catch(() => null);
        if (imageWorthy(picture)) await cache.put(image, picture);
      }));
    }));
  } catch (error) { /* unreadable catalog: the page reports it */ }
}

self.addEventListener('install', (event) => {
  event.waitUntil(precacheShell().then(precacheData));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE)
    .map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});

function isData(url) {
  return url.pathname.startsWith(SCOPE + 'quizzes/') && (url.pathname.endsWith('.json') || isImagePath(url.pathname));
}

// Stale-while-revalidate (see the top): the cached copy if there is one, the network otherwise;
// either way the network's answer refreshes the cache for the next load.
async function staleWhileRevalidate(event) {
  const request = event.request;
  const network = fetch(request);
  // Registered before anyone reads the body, so the clone is taken in time.
  event.waitUntil(network.then(async (response) => {
    const copy = response.clone();
    const image = isImagePath(new URL(request.url).pathname);
    const parsed = image ? imageWorthy(copy) || undefined : await offlineWorthy(copy);
    if (parsed === undefined) return;   // an error, a redirect, not JSON (not an image): keep what we have
    const cache = await caches.open(DATA_CACHE);
    await cache.put(request.url, copy);
    if (request.url === here(CATALOG)) await keepOnlyListed(cache, parsed);
  }).catch(() => null));
  const cached = await caches.match(request.url, { cacheName: DATA_CACHE, ignoreVary: true });
  return cached || network;
}

// The cached page with the headers the server sends for it now (see the top), when the server
// still has this build's page: the body, and the build it belongs to, never change here.
async function refreshPageHeaders() {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(here('index.html'));
  const fresh = await fetch(new Request(here('index.html'), { cache: 'no-cache' }));
  if (!cached || !fresh.ok || fresh.redirected) return;
  const [before, now] = (await Promise.all([cached.arrayBuffer(), fresh.clone().arrayBuffer()])).map((b) => new Uint8Array(b));
  if (before.length !== now.length || !before.every((byte, i) => byte === now[i])) return;
  await cache.put(here('./'), fresh.clone());
  await cache.put(here('index.html'), fresh);
}

async function shellFirst(event) {
  const request = event.request;
  const cache = await caches.open(SHELL_CACHE);
  const navigate = request.mode === 'navigate';
  const cached = await cache.match(request, { ignoreSearch: navigate, ignoreVary: true });
  if (cached) {
    if (navigate) event.waitUntil(refreshPageHeaders().catch(() => null));
    return cached;
  }
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && ON_FIRST_USE.includes(request.url))
      event.waitUntil(cache.put(request.url, response.clone()).catch(() => null));
    return response;
  } catch (error) {
    if (navigate) {
      const shell = await cache.match(here('index.html'));
      if (shell) return shell;
    }
    throw error;
  }
}

// The page names what it fetched before this worker controlled it (boot.js): of that, the parts
// kept on first use, fetched again from the network (the browser's cache most often has them).
async function keepUsed(urls) {
  const cache = await caches.open(SHELL_CACHE);
  await Promise.all(urls.filter((url) => ON_FIRST_USE.includes(url)).map(async (url) => {
    if (await cache.match(url)) return;
    const response = await fetch(url);
    if (response.ok && !response.redirected) await cache.put(url, response);
  }));
  // A bank's images the first visit fetched (a bank= draft's too: its images go with the next
  // fresh catalog, as the draft does).
  const data = await caches.open(DATA_CACHE);
  await Promise.all(urls.filter((url) => new URL(url).origin === self.location.origin && isDataUrl(url) &&
                                         isImagePath(new URL(url).pathname)).map(async (url) => {
    if (await data.match(url)) return;
    const response = await fetch(url);
    if (imageWorthy(response)) await data.put(url, response);
  }));
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'imquiz:used' && Array.isArray(data.urls))
    event.waitUntil(keepUsed(data.urls.filter((url) => typeof url === 'string')).catch(() => null));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(isData(url) ? staleWhileRevalidate(event) : shellFirst(event));
});
