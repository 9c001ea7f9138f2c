// WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver + MiniBrowser --automation) driven by
// webdriverio in classic WebDriver mode, under the harness's own Xvfb. A driver holds one session
// at a time, so each browser context is a driver process of its own with one session (its own
// ephemeral profile); pages of a context are windows of that session.
//
// Classic WebDriver has no init scripts and no console events. Both come from the test server:
// it puts a first <script> into every HTML page it serves to a navigation (preloadScript below),
// which records the console's lines and uncaught errors and runs the test's init scripts; every
// call into the page hands the recorded lines back.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createRequire } from 'node:module';
import { xDisplay, POINTER } from './display.mjs';
import { Page, Unsupported } from './page.mjs';

const require = createRequire(import.meta.url);
const { remote } = require('webdriverio');

const ENGINE = 'webkit';
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';   // WebDriver's key of an element reference
const DRIVER = process.env.WEBKIT_WEBDRIVER || '/usr/bin/WebKitWebDriver';
const BROWSER = process.env.WEBKIT_MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const PRELOAD_PATH = '__imquiz-test/preload.js';

// ---- What the test server injects ----------------------------------------------------------------

const initScripts = [];   // the init scripts of the pages open now (one WebKit page at a time in practice)
const forget = (sources) => { for (const source of sources.splice(0)) { const i = initScripts.indexOf(source); if (i >= 0) initScripts.splice(i, 1); } };
const RECORD_CONSOLE = `(() => {
  const records = [];
  Object.defineProperty(window, '__imquizTestConsole', { value: records });
  // Playwright's names of the console's levels.
  for (const [method, type] of [['error', 'error'], ['warn', 'warning'], ['info', 'info'], ['log', 'log'], ['debug', 'debug']]) {
    const original = console[method];
    console[method] = function (...args) { records.push({ type, text: args.map(String).join(' ') }); return original.apply(this, args); };
  }
  window.addEventListener('error', (e) => { records.push({ type: 'uncaught', text: (e.error && e.error.message) || e.message }); });
  window.addEventListener('unhandledrejection', (e) => { records.push({ type: 'uncaught', text: String((e.reason && e.reason.message) || e.reason) }); });
  // Not part of the page the tests look at.
  if (document.currentScript) document.currentScript.remove();
})();`;

export function preloadScript() {
  return [RECORD_CONSOLE, ...initScripts.map((source) => `try { ${source} } catch (e) { console.error('init script: ' + e); }`)].join('\n');
}

// The <script> for an HTML page served to a navigation (not to a service worker's or a page's own
// fetch, whose copy must stay the file itself). Relative, so a page under a sub-path finds it.
export function withPreload(html, req) {
  const navigation = /^text\/html/.test(String(req.headers.accept || ''));
  return navigation ? html.replace(/<head>/i, `<head><script src="${PRELOAD_PATH}"></script>`) : html;
}

// ---- The driver -------------------------------------------------------------------------------

// A port free on the loopback now (for a server whose own address must be known before it starts).
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
  });
}

async function startDriver(display) {
  const port = await freePort();
  const driver = spawn(DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display.name, WEBKIT_DISABLE_COMPOSITING_MODE: '0' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  driver.stderr.on('data', (chunk) => { errors += chunk; });
  process.on('exit', () => driver.kill());
  // Ready once it accepts connections.
  for (let i = 0; ; i++) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (driver.exitCode !== null || i > 200) throw new Error(`WebKitWebDriver did not start: ${errors.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { port, process: driver };
}

// Playwright's key names, as tests write them, as WebDriver key codes.
const KEYS = {
  Enter: '\uE007', Escape: '\uE00C', Tab: '\uE004', Backspace: '\uE003', Delete: '\uE017', Space: '\uE00D',
  ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Home: '\uE011', End: '\uE010',
  PageUp: '\uE00E', PageDown: '\uE00F', Shift: '\uE008', Control: '\uE009', Alt: '\uE00A', Meta: '\uE03D',
};

// One command at a time per session: a page's command runs with its own window (and frame)
// selected, whatever other pages of the context do in between.
function serialiser() {
  let last = Promise.resolve();
  return (task) => {
    const run = last.then(task, task);
    last = run.catch(() => {});
    return run;
  };
}

function backendFor(session, handle, page, engine) {
  const { client, exclusive } = session;
  let chrome = null;   // window size minus viewport size
  const withWindow = async (frame, task) => exclusive(async () => {
    if (session.current !== handle) { await client.switchToWindow(handle); session.current = handle; }
    if (!frame) return task();
    await client.switchToFrame(await client.findElement('css selector', frame));
    try { return await task(); } finally { await client.switchToParentFrame(); }
  });
  const actions = (list) => withWindow(null, async () => {
    await client.performActions(list);
    await client.releaseActions();
  });
  const call = async (source, arg, frame) => {
    const wrapped = `return (async (arg) => {
      const value = await (${source})(arg);
      const records = window.__imquizTestConsole ? window.__imquizTestConsole.splice(0) : [];
      return { value: value === undefined ? null : value, records };
    })(arguments[0]);`;
    const result = await withWindow(frame, () => client.executeScript(wrapped, [arg === undefined ? null : arg]));
    for (const { type, text } of result.records) {
      if (type === 'uncaught') page.emit('pageerror', new Error(text));
      else page.emit('console', { type: () => type, text: () => text });
    }
    return result.value;
  };
  return {
    call,
    goto: (url) => withWindow(null, () => client.navigateTo(url)),
    reload: () => withWindow(null, () => client.refresh()),
    async close() {
      await withWindow(null, async () => {
        // The session (the context) outlives its last page, as in Playwright: a blank window
        // keeps it, and no page of the site stays open.
        if ((await client.getWindowHandles()).length === 1) {
          const { handle: blank } = await client.createWindow('window');
          await client.closeWindow();
          await client.switchToWindow(blank);
          session.current = blank;
        } else {
          // A window stays selected: WebDriver refuses even "new window" without one.
          const [left] = await client.closeWindow();
          await client.switchToWindow(left);
          session.current = left;
        }
      });
    },
    // One action chain: WebDriver releases every key still down at the end of one (a modifier sent
    // on its own would be up again before the key it modifies).
    chord: (keys) => actions([{ type: 'key', id: 'keyboard', actions: [
      ...keys.map((key) => ({ type: 'keyDown', value: KEYS[key] || key })),
      ...keys.slice().reverse().map((key) => ({ type: 'keyUp', value: KEYS[key] || key }))] }]),
    key: (kind, key) => actions([{ type: 'key', id: 'keyboard', actions: [{ type: kind === 'down' ? 'keyDown' : 'keyUp', value: KEYS[key] || key }] }]),
    async type(text, delay) {
      for (const character of text) {
        await actions([{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: character }, { type: 'keyUp', value: character }] }]);
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    },
    pointer(kind, x, y) {
      const steps = [{ type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) }];
      if (kind === 'down' || kind === 'click') steps.push({ type: 'pointerDown', button: 0 });
      if (kind === 'up' || kind === 'click') steps.push({ type: 'pointerUp', button: 0 });
      return actions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: steps }]);
    },
    // No touch(): WebKitGTK's driver takes a "touch" pointer action but delivers it as a mouse
    // (pointerType "mouse", mouse events after it), so a drag selects instead of scrolling.
    noTouch: 'touch the page (WebKitGTK\'s driver delivers a "touch" pointer as a mouse)',
    wheel: (x, y, deltaX, deltaY) => actions([{ type: 'wheel', id: 'wheel', actions: [
      { type: 'scroll', x: Math.round(x), y: Math.round(y), deltaX, deltaY, duration: 0, origin: 'viewport' }] }]),
    screenshot: async () => Buffer.from(await withWindow(null, () => client.takeScreenshot()), 'base64'),
    async setViewport(width, height) {
      // WebDriver sizes the window; the viewport is what is left inside the browser's chrome.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (!chrome) {
          const inner = await call('() => [innerWidth, innerHeight]');
          const outer = await withWindow(null, () => client.getWindowRect());
          chrome = { width: outer.width - inner[0], height: outer.height - inner[1] };
        }
        // Over the X pointer, so that the window a test opened last is the active one, as a
        // desktop makes a new window: otherwise a narrow window at 0,0 is never active, its page
        // never has focus, and WebKit matches no :focus-within there (the a11y panel stayed hidden).
        const outer = { width: width + chrome.width, height: height + chrome.height };
        await withWindow(null, () => client.setWindowRect(Math.max(0, Math.round(POINTER.x - outer.width / 2)),
                                                          Math.max(0, Math.round(POINTER.y - outer.height / 2)),
                                                          outer.width, outer.height));
        const [w, h] = await call('() => [innerWidth, innerHeight]');
        if (w === width && h === height) return;
        chrome = null;
      }
    },
    emulateMedia: () => { throw new Unsupported(engine, 'emulate media features (no WebDriver command for it)'); },
    addInitScript(source) { initScripts.push(source); page.initScripts.push(source); },
    frameOf: async (selector) => selector,
    boxOf: (selector, frame) => call(`(s) => { const e = document.querySelector(s); if (!e) return null;
      const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }`, selector, frame),
    download: () => { throw new Unsupported(engine, 'intercept a download'); },
    // WebDriver's way to choose files (Element Send Keys to an <input type=file>, one path a
    // line): the browser reads them from disk and fires input and change, as for a learner's pick.
    // The input must be in the document for the driver to find it.
    setInputFiles: (selector, files, frame) => withWindow(frame, async () => {
      const element = await client.findElement('css selector', selector);
      await client.elementSendKeys(element[ELEMENT], files.join('\n'));
    }),
  };
}

async function openSession(display) {
  const driver = await startDriver(display);
  const client = await remote({
    hostname: '127.0.0.1', port: driver.port, path: '/', logLevel: 'error', connectionRetryCount: 0,
    capabilities: {
      browserName: 'MiniBrowser', 'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { binary: BROWSER, args: ['--automation'] },
    },
  });
  return {
    client, driver, exclusive: serialiser(), current: await client.getWindowHandle(), firstWindowUsed: false,
    async close() {
      await client.deleteSession().catch(() => {});
      await new Promise((resolve) => { if (driver.process.exitCode !== null) resolve(); else { driver.process.once('exit', resolve); driver.process.kill(); } });
    },
  };
}

export async function launchWebKit() {
  const display = await xDisplay();
  const contexts = new Set();
  const browser = {
    engine: ENGINE,
    async newContext({ viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1 } = {}) {
      const session = await openSession(display);
      const pages = new Set();
      const context = {
        engine: ENGINE,
        deviceScaleFactor,
        pages: () => [...pages],
        async newPage() {
          let handle = session.current;
          if (session.firstWindowUsed) {
            ({ handle } = await session.exclusive(() => session.client.createWindow('window')));
          }
          session.firstWindowUsed = true;
          // The server has no way to tell sessions apart: the init scripts are those of the page
          // opened last (one WebKit page at a time, in practice), never a failed test's leftovers.
          initScripts.length = 0;
          const page = new Page(null, ENGINE);
          page.initScripts = [];
          page.backend = backendFor(session, handle, page, ENGINE);
          page.ownerContext = context;
          await page.setViewportSize(viewport);
          pages.add(page);
          const close = page.backend.close;
          page.backend.close = async () => {
            pages.delete(page);
            forget(page.initScripts);
            await close();
          };
          return page;
        },
        newCDPSession() { throw new Unsupported(ENGINE, 'open a CDP session'); },
        async close() {
          contexts.delete(context);
          for (const page of pages) forget(page.initScripts);
          await session.close();
        },
      };
      contexts.add(context);
      return context;
    },
    async close() { for (const context of [...contexts]) await context.close(); },
  };
  return browser;
}
