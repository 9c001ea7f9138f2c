// Browser test harness: serves the built site on a free loopback port, drives one browser engine,
// waits for the app's own signals (never a fixed sleep), fails on console errors, and saves
// screenshots under the build folder.
//
// IMQUIZ_ENGINE picks the engine (default chromium):
//   chromium  Debian's Chromium through playwright-core (Playwright's own Page)
//   firefox   Debian's Firefox ESR through puppeteer-core over WebDriver BiDi, under Xvfb
//   webkit    WebKitGTK (WebKitWebDriver + MiniBrowser) through webdriverio, under Xvfb
// The last two get a Page with the part of Playwright's API the tests use (engines/page.mjs).
// Where an engine cannot do a step, the test names it with `skipStep` and does the nearest thing.
//
//   import { startSite, openApp, ... } from './harness.mjs';
//   const site = await startSite();                 // { url, close, faults }
//   const { page, close } = await openApp(site.url + '?lang=ru');
//   await clickItem(page, 'button:open:data-parallelism');
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { serve, securityHeaders } from '../../scripts/serve.mjs';

import { launchFirefox } from './engines/firefox.mjs';
import { launchWebKit, preloadScript, withPreload, PRELOAD_PATH, freePort } from './engines/webkit.mjs';
import { stopDisplay } from './engines/display.mjs';
import { noAnswerYet } from './engines/page.mjs';
export { Unsupported } from './engines/page.mjs';
export { freePort };

const require = createRequire(import.meta.url);

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const ENGINE = process.env.IMQUIZ_ENGINE || 'chromium';
if (!ENGINES.includes(ENGINE)) throw new Error(`IMQUIZ_ENGINE=${ENGINE}: expected one of ${ENGINES.join(', ')}`);
export const SITE_DIR = process.env.IMQUIZ_SITE_DIR || path.resolve('build/web/site');
// Chromium's screenshots where they always were; the other engines' in a folder each beside them.
const ARTIFACTS_ROOT = process.env.IMQUIZ_ARTIFACTS || path.resolve('build/native/browser-artifacts');
export const ARTIFACTS = ENGINE === 'chromium' ? ARTIFACTS_ROOT : path.join(ARTIFACTS_ROOT, ENGINE);
fs.mkdirSync(ARTIFACTS, { recursive: true });

// A step this engine cannot do: a visible skip with the reason, as a subtest of `t` (node's test
// runner counts and prints it), and the test goes on with what the engine allows.
export async function skipStep(t, step, reason) {
  await t.test(`${step} [${ENGINE}]`, { skip: reason }, () => {});
}

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
  '--disable-default-apps', '--mute-audio',
];

// Serves SITE_DIR. `site.faults` maps a URL path to a handler (req, res) => true to inject failures.
// `site.requests` counts the requests per URL path (what a browser downloaded, and how often).
// `authoring`: the deployment's authoring.json (e.g. { allowBankLinks: true } for bank= links);
// without it the site has none, as shipped.
// `headers`: the server's headers instead of the recommended ones.
export async function startSite({ port = 0, host = '127.0.0.1', frameAncestors = '*', dir = SITE_DIR,
                                  authoring = null, headers = securityHeaders({ frameAncestors }) } = {}) {
  const faults = new Map();
  const requests = new Map();
  const server = await serve(dir, {
    port, host, headers,
    intercept: (req, res, urlPath) => {
      requests.set(urlPath, (requests.get(urlPath) || 0) + 1);
      const handler = faults.get(urlPath);
      if (handler && handler(req, res) !== false) return true;
      if (authoring && urlPath.endsWith('/authoring.json')) {
        res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(authoring));
        return true;
      }
      return ENGINE === 'webkit' ? servePreload(req, res, urlPath, dir, headers) : false;
    },
  });
  return { ...server, faults, requests, requestCount: (urlPath) => requests.get(urlPath) || 0 };
}

// For a server of the tests' own pages (a host page that embeds the quiz): its `intercept`, so
// that in WebKit those pages report their console too (see servePreload).
export const testPages = (dir, headers = {}) => (req, res, urlPath) =>
  ENGINE === 'webkit' && servePreload(req, res, urlPath, dir, headers);

// WebKit only (classic WebDriver has no init scripts or console events): HTML pages get the
// harness's first script, and that script itself (engines/webkit.mjs).
function servePreload(req, res, urlPath, dir, headers) {
  if (urlPath.endsWith('/' + PRELOAD_PATH)) {
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
    res.end(preloadScript());
    return true;
  }
  const file = path.join(path.resolve(dir), urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath);
  if (!file.endsWith('.html') || !fs.existsSync(file)) return false;
  const html = withPreload(fs.readFileSync(file, 'utf8'), req);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', ...headers });
  res.end(req.method === 'HEAD' ? undefined : html);
  return true;
}

export async function launchBrowser() {
  if (ENGINE === 'firefox') return withDisplayStop(await launchFirefox());
  if (ENGINE === 'webkit') return withDisplayStop(await launchWebKit());
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// Xvfb goes with the last browser of the process.
let openBrowsers = 0;
function withDisplayStop(browser) {
  openBrowsers += 1;
  const close = browser.close;
  browser.close = async () => {
    await close();
    if (--openBrowsers === 0) await stopDisplay();
  };
  return browser;
}

// Opens `url` in a fresh context and waits until the app drew its first frame.
// Console errors and uncaught exceptions are collected; `expectNoErrors()` fails on them.
export async function openApp(url, { browser = null, viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1,
                                     colorScheme = 'light', context = null, waitFor = 'first-frame',
                                     hasTouch = false, isMobile = false, reducedMotion = 'no-preference',
                                     initScript = null, allowErrors = [] } = {}) {
  const ownBrowser = !browser && !context;
  browser = browser || (context ? null : await launchBrowser());
  context = context || await browser.newContext({ viewport, deviceScaleFactor, colorScheme, hasTouch, isMobile,
                                                  reducedMotion });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (allowErrors.some((pattern) => pattern.test(text))) return;
    errors.push(`console: ${text}`);
  });
  // Firefox reports some browser diagnostics (a CORS refusal) as page errors, not console ones.
  page.on('pageerror', (error) => {
    if (!allowErrors.some((pattern) => pattern.test(error.message))) errors.push(`uncaught: ${error.message}`);
  });
  for (const script of [].concat(initScript || [])) await page.addInitScript(script);
  // Firefox's and WebKit's drivers here cannot give the page a dark system scheme: a dark test asks
  // for the dark theme as a course's link can (theme=dark), unless it names a theme itself, so
  // that its screens are drawn, checked and saved dark in every engine.
  if (colorScheme === 'dark' && ENGINE !== 'chromium' && !/[?&]theme=/.test(url))
    url += (url.includes('?') ? '&' : '?') + 'theme=dark';
  await page.goto(url);
  if (waitFor) await waitForSignal(page, waitFor);
  return {
    page, context, browser, errors,
    expectNoErrors: () => assert.deepEqual(errors, [], 'the page logged errors'),
    close: async () => { if (ownBrowser) await browser.close(); else await context.close(); },
  };
}

export async function waitForSignal(page, name, timeout = 60000) {
  await page.waitForFunction((n) => window.ImQuizHost && window.ImQuizHost.hasSignal(n), name,
                             { timeout, polling: 50 });
}

// Waits until `fn(arg)`, evaluated in the page, is truthy; an async `fn` is awaited. Not Playwright's
// page.waitForFunction: that takes the Promise an async function returns as a truthy value and
// resolves at once (so a wait on Cache Storage never waited).
export async function waitInPage(page, fn, arg = null, { timeout = 10000, polling = 100 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg).catch(noAnswerYet);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting in the page for ${fn.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, polling));
  }
}

// Resolves once this page's service worker is active (registered and installed). Polled from
// node: an install can take longer than a WebDriver script may run (WebKitWebDriver stops one at 30 s).
export async function waitForActiveWorker(page, timeout = 60000) {
  await waitInPage(page, async () => { const r = await navigator.serviceWorker.getRegistration(); return !!(r && r.active); },
                   null, { timeout, polling: 200 });
}

// The file a click makes the page download: { name, text }. Chromium: the browser's own download
// event. The WebDriver engines have none: the file is read from the blob: link the page clicks
// (a named skip says so), and the link's click does not reach the browser's download manager.
// The parts of the shell a page fetched on first use (web/sw.js, ON_FIRST_USE: the Markdown
// module, the rich faces, the highlighter, MathJax) are kept by the worker in the background,
// once it controls the page (boot.js names them to it). A test about to take the server away
// waits until every one this page loaded is in a shell cache.
const KEPT_ON_FIRST_USE = /\/(imquiz-rich\.(js|wasm)|rich\.(js|css)|imquiz-markdown\.wasm|imquiz-highlight\.js|imquiz-math\.js|fonts\/imquiz-(sans-bold|sans-italic|sans-bold-italic|mono)\.ttf)$/;
export async function waitForKeptOnFirstUse(page, timeout = 30000) {
  await waitInPage(page, async (pattern) => {
    const used = performance.getEntriesByType('resource').map((e) => e.name)
      .filter((url) => url.startsWith(location.origin) && new RegExp(pattern).test(new URL(url).pathname));
    const kept = new Set();
    for (const name of (await caches.keys()).filter((n) => n.startsWith('imquiz-shell:')))
      for (const request of await (await caches.open(name)).keys()) kept.add(request.url);
    return used.every((url) => kept.has(url));
  }, KEPT_ON_FIRST_USE.source, { timeout, polling: 200 });
}

// Waits until every URL in `urls` is kept in one of the caches whose name starts with
// `cachePrefix` ('imquiz-shell:' for the page's parts, 'imquiz-data:' for banks and what they
// name): what an offline test needs before it stops the server.
export async function waitForCached(page, cachePrefix, urls, timeout = 30000) {
  await waitInPage(page, async ({ prefix, wanted }) => {
    const kept = new Set();
    for (const name of (await caches.keys()).filter((n) => n.startsWith(prefix)))
      for (const request of await (await caches.open(name)).keys()) kept.add(request.url);
    return wanted.every((url) => kept.has(url));
  }, { prefix: cachePrefix, wanted: urls }, { timeout, polling: 200 });
}

export async function expectDownload(t, page, trigger, { frame = null } = {}) {
  if (ENGINE === 'chromium') {
    const [download] = await Promise.all([page.waitForEvent('download'), trigger()]);
    return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
  }
  await skipStep(t, 'the browser\'s own download event', 'no download event over WebDriver: the file is read from the link the page clicks');
  const target = frame || page;
  // The Blob itself, kept when its URL is made: the page's CSP (connect-src 'self') rightly
  // refuses a fetch of a blob: URL.
  await target.evaluate(() => {
    const downloads = [];
    const blobs = new Map();
    window.__imquizTestDownloads = downloads;
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = (blob) => { const url = createObjectURL(blob); blobs.set(url, blob); return url; };
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      if (this.download && blobs.has(this.href)) downloads.push({ name: this.download, blob: blobs.get(this.href) });
      else click.call(this);
    };
  });
  await trigger();
  await waitInPage(target, () => window.__imquizTestDownloads.length > 0);
  return target.evaluate(async () => {
    const { name, blob } = window.__imquizTestDownloads.shift();
    return { name, text: await blob.text() };
  });
}

// Answers the file picker a click opens with `file` (a path). Chromium: the browser's own
// filechooser event. The WebDriver engines have none (and a native dialog would wait for a hand);
// the page's picker input is caught when the page clicks it. WebKit: WebDriver's Element Send Keys
// gives that input the file by its path, as the driver's way to choose files (the browser reads
// it from disk and fires input and change); the driver finds only elements in the document, so
// the input goes into it for that moment. Firefox: the input gets the file as a drop would give
// it, and its change event.
export async function chooseFile(t, page, trigger, file) {
  if (ENGINE === 'chromium') {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), trigger()]);
    await chooser.setFiles(file);
    return;
  }
  await skipStep(t, 'the browser\'s own file chooser', ENGINE === 'webkit'
    ? 'no file chooser event over WebDriver: the page\'s file input gets the path by Element Send Keys'
    : 'no file chooser event over WebDriver: the page\'s file input gets the file directly');
  await page.evaluate(() => {
    const inputs = [];
    window.__imquizTestPickers = inputs;
    const click = HTMLInputElement.prototype.click;
    HTMLInputElement.prototype.click = function () {
      if (this.type === 'file') inputs.push(this);
      else click.call(this);
    };
  });
  await trigger();
  await waitInPage(page, () => window.__imquizTestPickers.length > 0);
  if (ENGINE === 'webkit') {
    await page.evaluate(() => {
      const input = window.__imquizTestPickers.shift();
      input.hidden = true;
      input.setAttribute('data-imquiz-test-picker', '');
      document.body.appendChild(input);
    });
    await page.setInputFiles('[data-imquiz-test-picker]', [path.resolve(file)]);
    await page.evaluate(() => document.querySelector('[data-imquiz-test-picker]').remove());
    return;
  }
  await page.evaluate(([name, text]) => {
    const input = window.__imquizTestPickers.shift();
    const files = new DataTransfer();
    files.items.add(new File([text], name, { type: 'application/json' }));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, [path.basename(file), fs.readFileSync(file, 'utf8')]);
}

// Runs `action` (a click on a Reload button, say) and resolves once the page is a new document.
// Playwright's click waits for the navigation it starts; the WebDriver engines return at once,
// and the old page, its signals and its last state, would still answer.
// An action performed as if the learner did it on the canvas (the page protocol's actions).
export async function act(page, action) { await page.evaluate((a) => window.ImQuizHost.act(a), action); }

export async function afterReload(page, action, timeout = 30000) {
  await page.evaluate(() => { window.__imquizTestOldDocument = true; });
  await action();
  const deadline = Date.now() + timeout;
  for (;;) {
    const old = await page.evaluate(() => window.__imquizTestOldDocument === true).catch(() => true);   // mid-navigation
    if (!old) return;
    if (Date.now() > deadline) throw new Error('the page did not reload');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// URLs the harness itself adds to a page (WebKit's first script), not part of the site.
export const isHarnessUrl = (url) => url.includes('/__imquiz-test/');

// The app's published state (see app::describe): screen, banks, question, results, items.
// Null while a page is (re)loading: a click that reloads returns before the old page is gone in
// the WebDriver engines (Playwright waits for the navigation it started).
export async function appState(page) {
  return page.evaluate(() => (window.ImQuizHost && window.ImQuizHost.state) || null);
}

// Waits until `predicate(state, arg)` holds. Polled from node: the page's CSP (no 'unsafe-eval')
// rightly forbids evaluating test code from strings inside it.
export async function waitForState(page, predicate, arg = null, timeout = 15000) {
  const deadline = Date.now() + timeout;
  let state = null;
  for (;;) {
    state = await appState(page).catch(noAnswerYet);
    if (state && predicate(state, arg)) return state;
    if (Date.now() > deadline) {
      const summary = state ? JSON.stringify({ screen: state.screen, question: state.question && state.question.index }) : 'no state';
      throw new Error(`timed out waiting for ${predicate.toString().slice(0, 160)} (last: ${summary})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

// Resolves after the page drew two more animation frames: the app's frames (a scroll it asked for
// lands one frame after the state that asked for it) had their turn.
export async function nextFrames(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// An init script (openApp's initScript) that counts the page's animation frames: the app's loop
// runs on requestAnimationFrame, so the count is the frames it drew. framesDrawn reads it.
export const countFrames = () => {
  window.__rafCount = 0;
  const original = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => original((t) => { window.__rafCount++; callback(t); });
};
export const framesDrawn = (page) => page.evaluate(() => window.__rafCount);
// An init script beside countFrames: counts the frames that drew (clears of the canvas's WebGL
// context, one per frame that draws), in window.__drawCount.
export const countDrawings = () => {
  window.__drawCount = 0;
  const clear = WebGL2RenderingContext.prototype.clear;
  WebGL2RenderingContext.prototype.clear = function (mask) { window.__drawCount++; return clear.call(this, mask); };
};

// Resolves once no frame has been drawn for `quietMs` (needs countFrames): the app has done what
// it was asked and gone idle. Rejects with `what` when it keeps drawing past `timeout`.
export async function waitForQuiet(page, { quietMs = 500, timeout = 10000, what = 'the app kept drawing frames' } = {}) {
  await page.waitForFunction((quiet) => {
    const now = performance.now();
    if (window.__quietCount !== window.__rafCount) { window.__quietCount = window.__rafCount; window.__quietSince = now; }
    return now - window.__quietSince > quiet;
  }, quietMs, { timeout, polling: 50 }).catch(() => { throw new Error(`${what} (no ${quietMs} ms without a frame in ${timeout} ms)`); });
}

// Resolves once a Markdown bank's four later faces (bold, italic, bold italic, mono) have arrived:
// the atlas is rebuilt when they are all there, which draws frames of its own.
export async function waitForFaces(page, timeout = 30000) {
  await page.waitForFunction(() => performance.getEntriesByType('resource')
    .filter((e) => /\/fonts\/imquiz-(sans-bold|sans-italic|sans-bold-italic|mono)\.ttf$/.test(e.name)).length === 4,
  null, { timeout });
}

// An item's rectangle once the layout has settled (the same in two states with frames drawn in
// between; WebKit under Xvfb draws fewer frames than Chromium, so elapsed time alone says
// nothing), or null when it is not on screen.
export async function settledItem(page, id) {
  let previous = null;
  for (let i = 0; i < 50; i++) {
    const state = await appState(page);
    const item = state && state.items.find((it) => it.id === id);
    const key = item ? `${item.x},${item.y},${item.w},${item.h}` : 'none';
    if (previous === key) return item || null;
    previous = key;
    await new Promise((resolve) => setTimeout(resolve, 40));
    await nextFrames(page);
  }
  return null;
}

// The state once the app's frames have caught up with it: its items (their rectangles and which one
// has the keyboard focus) the same in two reads with frames drawn in between. A state published
// with an action still carries the frame's old rectangles, and ImGui moves its focus a frame after
// the key: a test that acts on such a state (Space on the item it thinks is focused) can press
// another control.
export async function settledState(page) {
  let previous = null;
  for (let i = 0; i < 50; i++) {
    const state = await appState(page);
    const key = state ? JSON.stringify(state.items) : 'none';
    if (previous === key) return state;
    previous = key;
    await nextFrames(page);
  }
  throw new Error('the app\'s items did not settle in 50 frame pairs');
}

// Clicks the centre of an interactive item the app drew (by its id in state.items), at its real
// position on the canvas: what a learner's mouse would do.
export async function clickItem(page, id, { timeout = 10000 } = {}) {
  await waitForState(page, (s, wanted) => s.items.some((item) => item.id === wanted), id, timeout)
    .catch(async () => { throw new Error(`no item "${id}" on screen; items: ${(await appState(page)).items.map((i) => i.id).join(', ')}`); });
  const item = await settledItem(page, id);
  if (!item) throw new Error(`item "${id}" did not settle`);
  await page.mouse.click(item.x + item.w / 2, item.y + Math.min(item.h / 2, 20));
  return item;
}

// Items may be below the fold: wheel-scroll until the item is on screen, then click it.
export async function scrollToAndClick(page, id, { maxScrolls = 40 } = {}) {
  const viewport = page.viewportSize();
  for (let i = 0; i < maxScrolls; i++) {
    const item = await settledItem(page, id);
    if (item && item.y >= 0 && item.y + Math.min(item.h, 40) <= viewport.height) {
      await page.mouse.click(item.x + item.w / 2, item.y + Math.min(item.h / 2, 20));
      return item;
    }
    await page.mouse.move(viewport.width / 2, viewport.height / 2);
    await page.mouse.wheel(0, item && item.y < 0 ? -200 : 200);
  }
  throw new Error(`could not bring "${id}" on screen`);
}

export async function screenshot(page, name) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  // Two animation frames: the app draws on input/resize; make sure the last one is composited.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: file });
  return file;
}

// Colours of a screenshot, decoded by the browser itself (a decode in node made WebKit's idle
// checks flaky): how many distinct ones (sampled; a blank or single-colour canvas means nothing
// was drawn), the colour ("#rrggbb") at each of `points`, given as [x, y] in screenshot pixels,
// and every pixel ([r, g, b]) of each of `rects`, given as {x, y, w, h} in CSS pixels.
export async function screenshotColors(page, points = [], rects = []) {
  const png = await page.screenshot();
  return page.evaluate(async ([base64, wanted, areas]) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + base64;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const colors = new Set();
    for (let i = 0; i < data.length; i += 16) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    const at = wanted.map(([x, y]) => {
      const i = (y * canvas.width + x) * 4;
      return '#' + [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('');
    });
    const scale = window.devicePixelRatio;
    const pixels = areas.map((r) => {
      const x0 = Math.round(r.x * scale), y0 = Math.round(r.y * scale);
      const w = Math.max(1, Math.round(r.w * scale)), h = Math.max(1, Math.round(r.h * scale));
      const out = [];
      for (let y = y0; y < Math.min(y0 + h, canvas.height); y++)
        for (let x = x0; x < Math.min(x0 + w, canvas.width); x++) {
          const i = (y * canvas.width + x) * 4;
          out.push([data[i], data[i + 1], data[i + 2]]);
        }
      return out;
    });
    return { distinct: colors.size, at, pixels };
  }, [png.toString('base64'), points, rects]);
}

export async function distinctColors(page) {
  return (await screenshotColors(page)).distinct;
}

export async function assertCanvasNotBlank(page) {
  const colors = await distinctColors(page);
  assert.ok(colors > 20, `the canvas looks blank (${colors} distinct colours)`);
}

// Touch pointers dispatched in the page (pointerType "touch"): the last resort, for a driver with
// no touch input of its own. Untrusted, but what the app reads is the same.
const TOUCH_IN_PAGE = async (page, type, x, y) => page.evaluate(([kind, px, py]) => {
  const canvas = document.getElementById('canvas');
  const name = { touchStart: 'pointerdown', touchMove: 'pointermove', touchEnd: 'pointerup' }[kind];
  canvas.dispatchEvent(new PointerEvent(name, { pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: px, clientY: py,
                                                button: name === 'pointermove' ? -1 : 0, buttons: name === 'pointerup' ? 0 : 1,
                                                bubbles: true, cancelable: true }));
}, [type, x, y]);

// A finger as each engine's driver gives one: Chromium's emulated touchscreen (CDP), WebDriver
// input actions with a "touch" pointer in Firefox (BiDi) and WebKit (classic).
export async function fingerOf(t, page) {
  if (ENGINE === 'chromium') {
    const cdp = await page.context().newCDPSession(page);
    return { touch: async (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] }),
             tap: (x, y) => page.touchscreen.tap(x, y) };
  }
  let screen;
  try { screen = page.touchscreen; } catch (error) {
    if (error.name !== 'Unsupported') throw error;
    await skipStep(t, 'touches from the driver\'s own touch input', `${error.message}: touch pointer events are dispatched in the page instead`);
    const touch = (type, x, y) => TOUCH_IN_PAGE(page, type, x, y);
    return { touch, tap: async (x, y) => { await touch('touchStart', x, y); await touch('touchEnd', x, y); } };
  }
  return { touch: (type, x, y) => (type === 'touchEnd' ? screen.touchEnd() : screen[type](x, y)), tap: (x, y) => screen.tap(x, y) };
}

// ---- The keyboard on the canvas, and axe-core on the mirror (shared by the question-type tests) ----

// Where the page's keys go now, for a message.
export async function keyTarget(page) {
  return page.evaluate(() => {
    const active = document.activeElement;
    return `page focus ${document.hasFocus()}, active element ${active ? active.id || active.tagName : 'none'}`;
  });
}

// Moves the canvas's keyboard focus (ImGui's navigation, published as the item with `focused`)
// to item `id` with the arrow keys, the way a learner walks there.
export async function focusItem(page, id, limit = 40) {
  // Where to look for an item scrolled out of sight: down first, up once down goes no further.
  let search = 'ArrowDown';
  for (let i = 0; i < limit; i++) {
    // Settled: the focus read from a frame that already shows the last key's move.
    const state = await settledState(page);
    const focused = state.items.find((item) => item.focused);
    if (focused && focused.id === id) return;
    const target = state.items.find((item) => item.id === id);
    let key = search;
    if (focused && target) {
      const dy = target.y - focused.y;
      key = Math.abs(dy) > 4 ? (dy > 0 ? 'ArrowDown' : 'ArrowUp') : (target.x > focused.x ? 'ArrowRight' : 'ArrowLeft');
    }
    await page.keyboard.press(key);
    // The next state with the focus moved, before the next key: a key pressed while the last is
    // still on its way (WebKitGTK draws few frames) would move the focus past the item.
    await waitForState(page, (s, before) => JSON.stringify(s.items.find((item) => item.focused) || null) !== before,
                       JSON.stringify(focused || null), 8000)
      .catch(async () => {
        console.log(`# ${ENGINE}: ${key} moved no focus (from ${focused ? focused.id : 'nothing'}; ${await keyTarget(page)})`);
        if (!target && focused) search = search === 'ArrowDown' ? 'ArrowUp' : 'ArrowDown';
      });
  }
  throw new Error(`keyboard: the focus did not reach ${id} (${await keyTarget(page)})`);
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axe-core on the accessibility mirror, focused as a learner there would have it: no serious or
// critical violation.
export async function axeMirror(page, what) {
  const inMirror = await page.evaluate(() => !!document.activeElement.closest('#mirror'));
  if (!inMirror) await page.locator('#mirror [data-mirror-h1]').focus();
  await page.locator('#mirror').evaluate((m) => Promise.all(m.getAnimations().map((a) => a.finished)));
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document.getElementById('mirror'), { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
  });
  assert.deepEqual(violations, [], `axe-core on the mirror, ${what}`);
}

// A finger on a phone-sized page: `bringIntoView(id)` scrolls by dragging until item `id` is on
// screen (and returns it), `tapItem(id)` then taps it; `touch` and `tap` as fingerOf gives them.
export async function fingerOnItems(t, page) {
  const { tap, touch } = await fingerOf(t, page);
  const height = await page.evaluate(() => window.innerHeight);
  const width = await page.evaluate(() => window.innerWidth);
  const bringIntoView = async (id) => {
    for (let scroll = 0; scroll < 20; scroll++) {
      const item = await settledItem(page, id);
      if (item && item.y >= 0 && item.y + Math.min(item.h, 40) <= height) return item;
      const up = !(item && item.y < 0);
      const x = Math.min(300, width - 20), y0 = up ? height * 0.7 : height * 0.3;
      const y1 = y0 + (up ? -1 : 1) * 160;
      await touch('touchStart', x, y0);
      for (let step = 1; step <= 8; step++) await touch('touchMove', x, y0 + (y1 - y0) * step / 8);
      // The finger stops before it lifts. Lifted while moving (the eight moves take a few ms),
      // Chromium starts a fling of its own that runs for about a second, and a tap during a fling
      // only stops it: a field tapped next got touchstart and touchend but no click, no focus
      // (its trace: FilterTapSuppression). Still for 60 ms, the lift has no speed, so no fling.
      // Measured with cloze's field after two drags: 7 taps of 10 lost with no rest, 2 of 10 with
      // 20 ms, none of 20 with 60 ms (its velocity tracker takes a pointer still for 40 ms as
      // stopped). A time, not a signal: the fling is the browser's, and the page sees none of it.
      await new Promise((resolve) => setTimeout(resolve, 60));
      await touch('touchEnd', x, y1);
    }
    throw new Error(`could not bring ${id} on screen`);
  };
  const tapItem = async (id) => {
    const item = await bringIntoView(id);
    await tap(item.x + item.w / 2, item.y + Math.min(item.h / 2, 20));
  };
  return { tap, touch, bringIntoView, tapItem };
}

// A page the mirror can be checked on with axe-core (injected as a script): in a context without
// the page's CSP where the engine can make one (axe is then `true`); else the page as it is, with
// the axe step named as skipped.
export async function openForAxe(t, browser, url, { initScript = null } = {}) {
  let context = null;
  try {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    await skipStep(t, 'axe-core (a context without the page CSP)', error.message);
  }
  const app = context ? await openApp(url, { context, initScript }) : await openApp(url, { browser, initScript });
  return { ...app, axe: context !== null };
}

// ---- The page's clock, moved by a test (exam time limits, spaced review) -------------------------

// An init script: the page's Date.now() runs ahead by an offset kept in sessionStorage (so a reload
// keeps it), as a learner's clock would after minutes or days. No real waiting.
export const movableClock = () => {
  if (Date.now.movable) return;
  const realNow = Date.now;
  Date.now = () => realNow() + Number(sessionStorage.getItem('imquiz-test-clock') || 0);
  Date.now.movable = true;
};
// Moves it `ms` milliseconds ahead.
export const moveClock = (page, ms) => page.evaluate((by) => {
  sessionStorage.setItem('imquiz-test-clock', String(Number(sessionStorage.getItem('imquiz-test-clock') || 0) + by));
}, ms);
