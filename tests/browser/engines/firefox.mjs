// Firefox ESR (Debian's firefox-esr) driven by puppeteer-core over WebDriver BiDi. Headed under
// the harness's own Xvfb: headless Firefox has no WebGL on this kind of machine.
import { createRequire } from 'node:module';
import { xDisplay } from './display.mjs';
import { Page, Unsupported } from './page.mjs';

const require = createRequire(import.meta.url);
const puppeteer = require('puppeteer-core');

const ENGINE = 'firefox';
const BINARY = process.env.FIREFOX || '/usr/bin/firefox-esr';

// Quiet on a closed network: no update checks, telemetry, safe-browsing lists or captive-portal
// probes (each would try to reach a host and log about it).
const PREFS = {
  'app.update.enabled': false, 'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false, 'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false, 'browser.shell.checkDefaultBrowser': false,
  'extensions.update.enabled': false, 'browser.topsites.contile.enabled': false,
  'browser.newtabpage.activity-stream.feeds.system.topstories': false,
  // The harness's keyboard must reach the page even while the X window is not focused.
  'focusmanager.testmode': true,
  // WebGL through Mesa's software rasteriser (llvmpipe) under Xvfb: no GPU blocklist to consult.
  'webgl.force-enabled': true,
};

// Firefox stops a document's loads when a navigation away from it starts (a reload included), and
// logs each response its service worker was still copying into it as a script error of that
// document: "Failed to load ‘…’. A ServiceWorker intercepted the request and encountered an
// unexpected error." (the body copy failed: Firefox's FetchEventOp BodyComplete). Nothing failed
// but the copy the navigation cancelled; Chromium and WebKit say nothing. Only that message, and
// only from a document a navigation had already started to replace, is left out here: the same
// message from a document nobody navigated away from is an error like any other.
const ABORTED_SERVICE_WORKER_COPY = /^Failed to load ‘[^’]*’\. A ServiceWorker intercepted the request and encountered an unexpected error\.$/;

function copiesAbortedByNavigation(raw) {
  const context = raw.mainFrame().browsingContext;
  const replaced = new Set();   // realms (documents) a navigation has started to replace
  const aborted = [];           // such documents' messages, until the pageerror event takes them
  // The session's own event: the context's 'navigation' is not emitted for a navigation that
  // starts while another is still under way (a reload at the load event of the last one).
  context.userContext.browser.session.on('browsingContext.navigationStarted', (info) => {
    if (info.context === context.id && context.defaultRealm.id) replaced.add(context.defaultRealm.id);
  });
  context.on('log', ({ entry }) => {
    if (entry.type === 'javascript' && ABORTED_SERVICE_WORKER_COPY.test(entry.text || '') &&
        replaced.has(entry.source.realm)) aborted.push(entry.text);
  });
  return {
    // puppeteer raises pageerror from its own listener of the same log event: decided once both ran.
    async isAborted(error) {
      if (!ABORTED_SERVICE_WORKER_COPY.test(error.message)) return false;
      await Promise.resolve();
      const i = aborted.indexOf(error.message);
      if (i >= 0) aborted.splice(i, 1);
      return i >= 0;
    },
  };
}

// Playwright's key names, as tests write them, in puppeteer's spelling.
const KEYS = { Space: ' ' };

function backendFor(page, engine) {
  let viewport = { width: 1280, height: 800, deviceScaleFactor: 1 };
  const target = (frame) => frame || page;
  return {
    // The result travels as JSON text. WebDriver BiDi sends an object that occurs twice in one
    // result whole only the first time, then as a bare reference that puppeteer turns into
    // undefined: two published states share their parts (boot.js), so a list of them came back
    // with holes. As text every occurrence arrives whole, as classic WebDriver (WebKit) returns it.
    async call(source, arg, frame) {
      const argument = arg === undefined ? 'undefined' : JSON.stringify(arg);
      const text = await target(frame).evaluate(`(async () => {
        const value = await (${source})(${argument});
        return value === undefined ? undefined : JSON.stringify(value);
      })()`);
      return text === undefined ? undefined : JSON.parse(text);
    },
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    reload: () => page.reload({ waitUntil: 'load' }),
    close: () => page.close(),
    key: (kind, key) => page.keyboard[kind](KEYS[key] || key),
    type: (text, delay) => page.keyboard.type(text, { delay }),
    async pointer(kind, x, y) {
      if (kind === 'click') return page.mouse.click(x, y);
      if (kind === 'move') return page.mouse.move(x, y);
      return page.mouse[kind]();
    },
    // WebDriver BiDi input.performActions with a "touch" pointer (puppeteer's Touchscreen).
    async touch(kind, x, y) {
      if (kind === 'start') return page.touchscreen.touchStart(x, y);
      if (kind === 'move') return page.touchscreen.touchMove(x, y);
      return page.touchscreen.touchEnd();
    },
    async wheel(x, y, deltaX, deltaY) { await page.mouse.move(x, y); await page.mouse.wheel({ deltaX, deltaY }); },
    screenshot: async () => Buffer.from(await page.screenshot()),
    async setViewport(width, height, deviceScaleFactor = viewport.deviceScaleFactor) {
      viewport = { width, height, deviceScaleFactor };
      await page.setViewport(viewport);
    },
    // puppeteer emulates media features through CDP only; WebDriver BiDi has no command for them.
    emulateMedia: () => { throw new Unsupported(engine, 'emulate media features (puppeteer needs CDP for that; BiDi has no command for it)'); },
    addInitScript: (source) => page.evaluateOnNewDocument(source),
    async frameOf(selector) { return (await page.$(selector)).contentFrame(); },
    async boxOf(selector, frame) {
      const handle = await target(frame).$(selector);
      return handle ? handle.boundingBox() : null;
    },
    download: () => { throw new Unsupported(engine, 'intercept a download'); },
  };
}

export async function launchFirefox() {
  const display = await xDisplay();
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: BINARY, headless: false, protocol: 'webDriverBiDi',
    env: { ...process.env, DISPLAY: display.name }, extraPrefsFirefox: PREFS,
    args: ['--width=1400', '--height=1000'], defaultViewport: null,
  });
  return {
    engine: ENGINE,
    async newContext({ viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1 } = {}) {
      const context = await browser.createBrowserContext();
      const pages = new Set();
      const wrapper = {
        engine: ENGINE,
        pages: () => [...pages],
        async newPage() {
          // A window each, not tabs: a background tab draws no frames (no requestAnimationFrame),
          // and the app publishes its state after each frame.
          const raw = await context.newPage(pages.size ? { type: 'window' } : undefined);
          const page = new Page(backendFor(raw, ENGINE), ENGINE);
          page.ownerContext = wrapper;
          raw.on('console', (message) => page.emit('console', { type: () => message.type(), text: () => message.text() }));
          const navigation = copiesAbortedByNavigation(raw);
          raw.on('pageerror', async (error) => { if (!(await navigation.isAborted(error))) page.emit('pageerror', error); });
          await page.setViewportSize(viewport);
          await page.backend.setViewport(viewport.width, viewport.height, deviceScaleFactor);
          pages.add(page);
          const close = page.backend.close;
          page.backend.close = async () => { pages.delete(page); await close(); };
          return page;
        },
        newCDPSession() { throw new Unsupported(ENGINE, 'open a CDP session'); },
        close: () => context.close(),
      };
      return wrapper;
    },
    close: () => browser.close(),
  };
}
