// The app starts in a real browser, draws its catalog from quizzes/index.json, and draws Cyrillic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { securityHeaders } from '../../scripts/serve.mjs';
import { startSite, openApp, waitForState, screenshot, assertCanvasNotBlank, launchBrowser, ENGINE, skipStep } from './harness.mjs';

const site = await startSite();
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

test('first screen is the catalog with both launch quizzes', async () => {
  const app = await openApp(site.url, { browser });
  const state = await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
  assert.deepEqual(state.banks.map((b) => b.id), ['data-parallelism', 'model-pipeline-parallelism']);
  assert.ok(state.banks.every((b) => b.questions === 8));
  assert.ok(state.items.some((i) => i.id === 'button:open:data-parallelism'), 'Start button drawn');
  await assertCanvasNotBlank(app.page);
  await screenshot(app.page, 'smoke-catalog-en');
  assert.equal(await app.page.evaluate(() => document.getElementById('status').hidden), true, 'spinner hidden');
  app.expectNoErrors();
  await app.close();
});

test('Russian interface and content render (lang=ru)', async () => {
  const app = await openApp(site.url + '?lang=ru', { browser, deviceScaleFactor: 2 });
  const state = await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
  assert.equal(state.language, 'ru');
  assert.match(state.banks[0].title, /[А-Яа-яЁё]/, 'Russian title');
  assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'ru');
  await assertCanvasNotBlank(app.page);
  await screenshot(app.page, 'smoke-catalog-ru-dpr2');
  app.expectNoErrors();
  await app.close();
});

test('canvas follows the window size and device pixel ratio', async (t) => {
  const app = await openApp(site.url, { browser, viewport: { width: 320, height: 640 }, deviceScaleFactor: 3 });
  const size = await app.page.evaluate(() => {
    const c = document.getElementById('canvas');
    return { width: c.width, height: c.height, css: c.getBoundingClientRect().width, ratio: devicePixelRatio, window: innerWidth };
  });
  if (ENGINE === 'webkit') {
    // The nearest real thing: the narrowest window it opens, at the screen's own ratio.
    await skipStep(t, 'a 320 px wide viewport at device pixel ratio 3', 'MiniBrowser emulates no device pixel ratio and ' +
                   `opens no window narrower than its toolbar (${size.window} px here)`);
  } else {
    assert.equal(size.css, 320);
    assert.equal(size.ratio, 3);
  }
  assert.equal(size.css, size.window, 'the canvas is as wide as the window');
  assert.equal(size.width, size.css * size.ratio, 'backing store is CSS width x devicePixelRatio');
  await app.page.setViewportSize({ width: 700, height: 500 });
  await app.page.waitForFunction((w) => document.getElementById('canvas').width === w, 700 * size.ratio, { timeout: 5000 });
  app.expectNoErrors();
  await app.close();
});

// With ?quiz=, the first frame drawn is the question: no catalog or loading screen flashes
// before it (the app publishes its state after every drawn frame; this records each one).
test('quiz= : the first frame drawn shows the question', async () => {
  const RECORD_SCREENS = () => {
    let host;
    const screens = [];
    Object.defineProperty(window, '__screens', { value: screens });
    Object.defineProperty(window, 'ImQuizHost', {
      configurable: true,
      get: () => host,
      set: (value) => { host = value; value.stateListeners.push((s) => screens.push(s.screen)); },
    });
  };
  const app = await openApp(site.url + '?lang=en&quiz=data-parallelism', { browser, waitFor: 'first-question', initScript: RECORD_SCREENS });
  const screens = await app.page.evaluate(() => window.__screens.slice());
  assert.equal(screens[0], 'question', `screens published: ${screens.join(', ')}`);
  await assertCanvasNotBlank(app.page);
  app.expectNoErrors();
  await app.close();
});

// Each file of a first visit arrives once. A <link rel=preload> the engine does not hand to the
// page's fetch() (WebKit), or one fetched again because the page's cache mode differs (Firefox),
// downloaded the wasm, the catalog or the font twice. Counted at the server; no service worker,
// whose install fetches the build again on purpose.
test('a first visit downloads each file once', async () => {
  const own = await startSite();
  try {
    const app = await openApp(`${own.url}?lang=en&sw=0`, { browser });
    await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
    await app.page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
    for (const file of ['/', '/boot.js', '/imquiz.js', '/imquiz.wasm', '/quizzes/index.json', '/fonts/imquiz-sans.ttf',
                        '/quizzes/data-parallelism.json', '/quizzes/model-pipeline-parallelism.json']) {
      assert.equal(own.requestCount(file), 1, `${file} requested ${own.requestCount(file)} times`);
    }
    assert.deepEqual([...own.requests].filter(([, count]) => count > 1), [], 'nothing requested twice');
    app.expectNoErrors();
    await app.close();
  } finally {
    await own.close();
  }
});

// The policy README's Deploy section recommends is the one every test runs under, so what is
// documented is what was tried in each engine.
test('the documented Content-Security-Policy is the one the tests serve', () => {
  const documented = fs.readFileSync('README.md', 'utf8').match(/^Content-Security-Policy: (.*)$/m)[1];
  assert.equal(documented, securityHeaders({ frameAncestors: 'https://your-lms.example' })['Content-Security-Policy']);
});
