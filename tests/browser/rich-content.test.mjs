// Markdown banks in the browser: the README's Markdown example served beside the launch banks.
// Its question, checked, on the canvas (screenshots in en and ru, light and dark, DPR 1 and 2,
// 320 px and 1280 px: look at them) and in the accessibility mirror (real elements built from the
// page protocol, never markup from the bank); what a plain bank fetches (nothing of Markdown's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Ajv from 'ajv';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, assertCanvasNotBlank, ENGINE,
         skipStep, SITE_DIR, scrollToAndClick, waitInPage, screenshotColors, clickItem } from './harness.mjs';
import { plainBank } from './bank-words.mjs';

// The site as built, plus the README's Markdown bank in its catalog.
const readme = fs.readFileSync(new URL('../../quizzes/README.md', import.meta.url), 'utf8');
const example = readme.match(/<!-- readme-example: markdown bank -->\n```json\n([\s\S]*?)\n```\n/)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-rich-'));
fs.cpSync(SITE_DIR, dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'quizzes', 'markdown-sampler.json'), example);
const catalog = JSON.parse(fs.readFileSync(path.join(dir, 'quizzes', 'index.json'), 'utf8'));
catalog.banks.push({ id: 'markdown-sampler', file: 'markdown-sampler.json' });
// A plain bank of its own: the launch banks are Markdown banks (issue 15).
const launchBank = JSON.parse(fs.readFileSync(path.join(dir, 'quizzes', 'data-parallelism.json'), 'utf8'));
fs.writeFileSync(path.join(dir, 'quizzes', 'plain-parallelism.json'), JSON.stringify(plainBank(launchBank, 'plain-parallelism')));
catalog.banks.push({ id: 'plain-parallelism', file: 'plain-parallelism.json' });
fs.writeFileSync(path.join(dir, 'quizzes', 'index.json'), JSON.stringify(catalog));
// The precompressed copies would answer for the old catalog.
for (const stale of ['index.json.gz', 'index.json.br']) fs.rmSync(path.join(dir, 'quizzes', stale), { force: true });

// Every state of a Markdown bank is valid against the page protocol's schema, rich fields too.
const schema = JSON.parse(fs.readFileSync(new URL('../../docs/page-protocol.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
function assertValid(state, where) {
  assert.ok(validate(state), `${where}: ${JSON.stringify(validate.errors, null, 1)}`);
}

const site = await startSite({ dir });
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); fs.rmSync(dir, { recursive: true, force: true }); });

const MARKDOWN_FILES = ['/imquiz-markdown.wasm', '/fonts/imquiz-sans-bold.ttf', '/fonts/imquiz-sans-italic.ttf',
                        '/fonts/imquiz-sans-bold-italic.ttf', '/fonts/imquiz-mono.ttf'];

test('a plain bank fetches nothing of Markdown\'s', async () => {
  const before = MARKDOWN_FILES.map((f) => site.requestCount(f));
  const app = await openApp(`${site.url}?quiz=plain-parallelism&lang=en`, { browser });
  await waitForState(app.page, (s) => s.screen === 'question' && s.quiz.id === 'plain-parallelism');
  assert.deepEqual(MARKDOWN_FILES.map((f) => site.requestCount(f)), before);
  app.expectNoErrors();
  await app.close();
});

// Clicks an item, scrolling to it; where the engine cannot scroll the canvas (WebKitGTK's driver
// delivers a wheel scroll as two opposite wheel events, +200 then -200: nothing moves), the test
// says so and sends the same action through the page instead.
async function clickOrAct(t, page, id, action) {
  try {
    await scrollToAndClick(page, id, { maxScrolls: ENGINE === 'webkit' ? 2 : 40 });
  } catch (error) {
    if (ENGINE !== 'webkit') throw error;
    await skipStep(t, `click ${id} below the fold`, 'WebKitGTK\'s driver turns a wheel scroll into two opposite wheel events');
    await page.evaluate((a) => window.ImQuizHost.act(a), action);
  }
}

async function openSampler(options, lang) {
  const app = await openApp(`${site.url}?quiz=markdown-sampler&lang=${lang}`, { browser, ...options });
  const state = await waitForState(app.page, (s) => s.screen === 'question' && s.question && s.question.promptRich,
                                   null, 30000);
  return { app, state };
}

for (const lang of ['en', 'ru']) {
  for (const [name, options] of [
    ['1280-light-dpr1', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' }],
    ['1280-dark-dpr2', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2, colorScheme: 'dark' }],
    ['320-light-dpr2', { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, colorScheme: 'light' }],
    ['320-dark-dpr1', { viewport: { width: 320, height: 640 }, deviceScaleFactor: 1, colorScheme: 'dark' }],
  ]) {
    test(`the Markdown question on the canvas, ${lang} ${name}`, async (t) => {
      const { app, state } = await openSampler(options, lang);
      const page = app.page;
      // The code block keeps its lines; its Copy button is an item of the canvas.
      const code = state.question.promptRich.find((b) => b.type === 'code');
      assert.equal(code.language, 'python');
      assert.match(code.code, /with ctx:\n        loss = model\(batch\)\.sum\(\)/);
      assert.ok(state.items.some((i) => i.id.startsWith('copy:')), 'a Copy button on the code block');
      assertValid(state, 'question');
      await assertCanvasNotBlank(page);
      await screenshot(page, `rich-${lang}-${name}-question`);
      // Check a wrong answer: its Markdown feedback and the explanation's list and link.
      await clickOrAct(t, page, 'choice:backward', { type: 'select', choice: 'backward' });
      await waitForState(page, (s) => s.question.choices.some((c) => c.selected));
      await clickOrAct(t, page, 'button:check', { type: 'check' });
      const checked = await waitForState(page, (s) => s.question.feedback);
      assert.ok(checked.question.feedback.explanationRich.some((b) => b.marker === '•'));
      assertValid(checked, 'checked');
      await screenshot(page, `rich-${lang}-${name}-checked`);
      app.expectNoErrors();
      await app.close();
    });
  }
}

test('the Markdown question in the accessibility mirror: real elements, no markup from the bank, axe clean', async () => {
  const { createRequire } = await import('node:module');
  const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // axe goes in as an inline script, which the page's CSP refuses: only this context ignores it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const app = await openApp(`${site.url}?quiz=markdown-sampler&lang=en`, { context });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'question' && s.question && s.question.promptRich, null, 30000);
  await page.waitForFunction(() => document.querySelector('#mirror pre code'), null, { timeout: 30000 });
  const prompt = await page.evaluate(() => {
    const m = document.getElementById('mirror');
    return {
      heading: m.querySelector('[data-mirror-prompt]').textContent,
      strong: [...m.querySelectorAll('[data-mirror-prompt] strong')].map((e) => e.textContent),
      code: m.querySelector('pre code').textContent,
      language: m.querySelector('pre code').getAttribute('data-language'),
      em: [...m.querySelectorAll('label em')].map((e) => e.textContent),
    };
  });
  assert.equal(prompt.heading, 'What does this loop skip on the first three micro-batches?');
  assert.deepEqual(prompt.strong, ['three']);
  assert.match(prompt.code, /^for i, batch in enumerate\(batches\):\n {4}ctx = /);
  assert.equal(prompt.language, 'python');
  assert.deepEqual(prompt.em, ['all-reduce']);
  // Check, then the explanation: a list, code, and a link that opens apart from this page.
  await page.evaluate(() => window.ImQuizHost.act({ type: 'select', choice: 'backward' }));
  await page.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
  await waitForState(page, (s) => s.question.feedback);
  await page.waitForFunction(() => document.querySelector('#mirror .mirror-feedback ul li'), null, { timeout: 10000 });
  const explanation = await page.evaluate(() => {
    const section = document.querySelector('#mirror .mirror-feedback');
    const link = section.querySelector('a');
    return { items: [...section.querySelectorAll('ul > li')].map((li) => li.textContent),
             code: [...section.querySelectorAll('code')].map((c) => c.textContent),
             href: link.getAttribute('href'), rel: link.getAttribute('rel'), target: link.getAttribute('target'),
             scripts: document.querySelectorAll('#mirror script, #mirror img[onerror], #mirror [onclick]').length };
  });
  assert.deepEqual(explanation.items, ['gradients add up in .grad,', 'the fourth backward syncs them all at once.']);
  assert.deepEqual(explanation.code, ['no_sync()', '.grad']);
  assert.equal(explanation.href, 'https://pytorch.org/docs/stable/notes/ddp.html');
  assert.equal(explanation.rel, 'noopener noreferrer');
  assert.equal(explanation.target, '_blank');
  assert.equal(explanation.scripts, 0);
  // axe on the mirror's panel (focused, so it is shown and its colours are checked too).
  await page.addScriptTag({ content: axeSource });
  await page.evaluate(() => document.querySelector('#mirror [data-mirror-feedback]').focus());
  await page.evaluate(() => Promise.all(document.getElementById('mirror').getAnimations().map((a) => a.finished)));
  const violations = await page.evaluate(async () => (await window.axe.run(document.getElementById('mirror'),
    { resultTypes: ['violations'] })).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(violations, []);
  await screenshot(page, 'rich-en-mirror-checked');
  app.expectNoErrors();
  await app.close();
});

test('offline: a Markdown bank opened once plays with the server stopped (its module and faces kept on first use)', async () => {
  const own = await startSite({ dir });   // a server of its own, to stop
  const context = await browser.newContext();
  try {
    const app = await openApp(`${own.url}?quiz=markdown-sampler&lang=en`, { context });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.question && s.question.promptRich, null, 30000);
    // The worker installs after this first visit, which fetched the module and faces itself;
    // the page names them to the worker once it controls the page (boot.js, sw.js keepUsed).
    await waitInPage(page, async () => { const r = await navigator.serviceWorker.getRegistration(); return !!(r && r.active); },
                     null, { timeout: 60000, polling: 200 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    const wanted = MARKDOWN_FILES.map((f) => own.url + f.slice(1));
    await waitInPage(page, async (urls) => {
      const names = (await caches.keys()).filter((n) => n.startsWith('imquiz-shell:'));
      const kept = new Set();
      for (const name of names) for (const r of await (await caches.open(name)).keys()) kept.add(r.url);
      return urls.every((u) => kept.has(u));
    }, wanted, { timeout: 30000, polling: 200 });

    await own.close();   // the server is gone
    await page.reload();
    const state = await waitForState(page, (s) => s.screen === 'question' && s.question && s.question.promptRich, null, 30000);
    assert.equal(state.question.promptRich[1].type, 'code');
    await assertCanvasNotBlank(page);
    await screenshot(page, 'rich-en-offline-question');
    app.expectNoErrors();
  } finally {
    await context.close();
    await own.close();
  }
});

// ---- Images ---------------------------------------------------------------------------------
// A bank of pictures beside the others: our schedule drawing (SVG), a PNG made here (a solid
// colour, to find on the canvas), one file that is not there and one that is not an image.
function solidPng(width, height, [r, g, b]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => { let c = 0xffffffff; for (const x of bytes) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4); header[8] = 8; header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
                        chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
const RED = [0xd0, 0x2f, 0x2f];
fs.mkdirSync(path.join(dir, 'quizzes', 'images'), { recursive: true });
fs.writeFileSync(path.join(dir, 'quizzes', 'images', 'red.png'), solidPng(96, 48, RED));
fs.writeFileSync(path.join(dir, 'quizzes', 'images', 'fake.png'), '<html>a login page</html>');
const SCHEDULE = 'images/gpipe-schedule.svg';
assert.ok(fs.existsSync(path.join(dir, 'quizzes', SCHEDULE)), 'the launch banks\' schedule drawing is in the site');
const pictureBank = {
  format: 'imquiz-bank', version: 1, id: 'pictures', textFormat: 'markdown',
  title: { en: 'Pictures', ru: 'Картинки' }, languages: ['en', 'ru'], defaultLanguage: 'en',
  questions: [{
    id: 'schedule', type: 'single_choice',
    prompt: { en: `Which GPU waits longest before its first backward step?\n\n![A GPipe schedule: four GPUs, four micro-batches, forward steps then backward steps](${SCHEDULE})`,
              ru: `Какой GPU дольше всех ждёт первого обратного шага?\n\n![Расписание GPipe: четыре GPU, четыре микро-батча, сначала прямые шаги, потом обратные](${SCHEDULE})` },
    choices: [
      { id: 'gpu0', text: { en: 'GPU 0 ![a red bar](images/red.png)', ru: 'GPU 0 ![красная полоса](images/red.png)' }, correct: true },
      { id: 'gpu3', text: 'GPU 3' },
    ],
    explanation: { en: 'GPU 0 starts first and goes backward last. ![a missing picture](images/missing.png) ![not a picture](images/fake.png)',
                   ru: 'GPU 0 начинает первым, а назад идёт последним. ![пропавшая картинка](images/missing.png) ![не картинка](images/fake.png)' },
  }],
};
fs.writeFileSync(path.join(dir, 'quizzes', 'pictures.json'), JSON.stringify(pictureBank));
catalog.banks.push({ id: 'pictures', file: 'pictures.json' });
fs.writeFileSync(path.join(dir, 'quizzes', 'index.json'), JSON.stringify(catalog));

// The bank's missing picture is a 404 the browser logs: the one error these pages may show.
const MISSING_PICTURE = [/\b404\b/];
async function openPictures(options, lang) {
  const app = await openApp(`${site.url}?quiz=pictures&lang=${lang}`, { browser, allowErrors: MISSING_PICTURE, ...options });
  const state = await waitForState(app.page, (s) => s.screen === 'question' && s.pictures &&
    s.pictures.every((p) => p.state !== 'loading') && s.items.some((i) => i.id === `picture:${SCHEDULE}`), null, 30000);
  return { app, state };
}

for (const lang of ['en', 'ru']) {
  for (const [name, options] of [
    ['1280-light-dpr1', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' }],
    ['1280-dark-dpr2', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2, colorScheme: 'dark' }],
    ['320-light-dpr2', { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, colorScheme: 'light' }],
    ['320-dark-dpr1', { viewport: { width: 320, height: 640 }, deviceScaleFactor: 1, colorScheme: 'dark' }],
  ]) {
    test(`images on the canvas, ${lang} ${name}`, async () => {
      const { app, state } = await openPictures(options, lang);
      const byName = Object.fromEntries(state.pictures.map((p) => [p.source, p]));
      assert.equal(byName[SCHEDULE].state, 'ready');
      assert.deepEqual([byName[SCHEDULE].width, byName[SCHEDULE].height], [462, 176]);
      assert.equal(byName['images/red.png'].state, 'ready');
      assert.equal(byName['images/missing.png'].state, 'failed');
      assert.match(byName['images/missing.png'].problem, /is not there/);
      assert.match(byName['images/fake.png'].problem, /is not a PNG, JPEG, WebP or SVG file/);
      assertValid(state, 'pictures');
      // The schedule is as wide as the column lets it be, never wider, and keeps its proportions.
      const item = state.items.find((i) => i.id === `picture:${SCHEDULE}`);
      const column = options.viewport.width - (options.viewport.width < 480 ? 28 : 56);
      assert.ok(item.w <= Math.min(462, column) + 1, `${item.w} px wide in a ${column} px column`);
      assert.ok(Math.abs(item.h - item.w * 176 / 462) < 2, `${item.w} x ${item.h}`);
      await assertCanvasNotBlank(app.page);
      await screenshot(app.page, `rich-${lang}-${name}-images`);
      app.expectNoErrors();
      await app.close();
    });
  }
}

test('images: the picture is on the canvas (its pixels), tap opens it full size, Esc closes it', async () => {
  const { app } = await openPictures({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 }, 'en');
  const { page } = app;
  // The red PNG inside the first answer card: the canvas shows its colour in the middle of it.
  const state = await waitForState(page, (s) => s.items.some((i) => i.id === 'picture:images/red.png'));
  const red = state.items.find((i) => i.id === 'picture:images/red.png');
  const { at } = await screenshotColors(page, [[Math.round(red.x + red.w / 2), Math.round(red.y + red.h / 2)]]);
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(at[0].slice(i, i + 2), 16));
  assert.ok(Math.abs(r - RED[0]) < 8 && Math.abs(g - RED[1]) < 8 && Math.abs(b - RED[2]) < 8, `the canvas shows ${at[0]} there`);
  // Click the schedule: full size over the screen.
  await clickItem(page, `picture:${SCHEDULE}`);
  const viewing = await waitForState(page, (s) => s.viewer);
  assert.equal(viewing.viewer.source, SCHEDULE);
  assert.match(viewing.viewer.alt, /^A GPipe schedule/);
  assertValid(viewing, 'viewer');
  const full = await waitForState(page, (s) => s.items.some((i) => i.id === `picture-full:${SCHEDULE}`));
  const shown = full.items.find((i) => i.id === `picture-full:${SCHEDULE}`);
  assert.deepEqual([Math.round(shown.w), Math.round(shown.h)], [462, 176]);
  await screenshot(page, 'rich-en-image-full-size');
  await page.keyboard.press('Escape');
  await waitForState(page, (s) => !s.viewer);
  app.expectNoErrors();
  await app.close();
});

test('images in the mirror: <img> with its alt, same origin; the ones not shown say so; axe clean', async () => {
  const { createRequire } = await import('node:module');
  const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const app = await openApp(`${site.url}?quiz=pictures&lang=ru`, { context, allowErrors: MISSING_PICTURE });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'question' && s.pictures && s.pictures.every((p) => p.state !== 'loading'), null, 30000);
  await page.evaluate(() => window.ImQuizHost.act({ type: 'select', choice: 'gpu3' }));
  await page.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
  await waitForState(page, (s) => s.question.feedback);
  await page.waitForFunction(() => document.querySelectorAll('#mirror img.mirror-image').length >= 2 &&
    [...document.querySelectorAll('#mirror img.mirror-image')].every((i) => i.complete), null, { timeout: 15000 });
  const mirror = await page.evaluate(() => ({
    images: [...document.querySelectorAll('#mirror img')].map((i) => ({ alt: i.alt, src: i.getAttribute('src'),
      width: i.naturalWidth, link: i.closest('a') && i.closest('a').getAttribute('rel') })),
    missing: [...document.querySelectorAll('#mirror .mirror-image-alt')].map((e) => e.getAttribute('aria-label')),
  }));
  const origin = new URL(site.url).origin;
  assert.deepEqual(mirror.images.map((i) => i.alt).sort(),
    ['Расписание GPipe: четыре GPU, четыре микро-батча, сначала прямые шаги, потом обратные', 'красная полоса'].sort());
  for (const image of mirror.images) {
    assert.ok(image.src.startsWith(origin + '/quizzes/images/'), image.src);
    assert.ok(image.width > 0, `${image.src} decoded`);
    assert.equal(image.link, 'noopener noreferrer');
  }
  assert.deepEqual(mirror.missing, ['пропавшая картинка (изображение не показано)', 'не картинка (изображение не показано)']);
  await page.addScriptTag({ content: axeSource });
  await page.evaluate(() => document.querySelector('#mirror [data-mirror-feedback]').focus());
  await page.evaluate(() => Promise.all(document.getElementById('mirror').getAnimations().map((a) => a.finished)));
  const violations = await page.evaluate(async () => (await window.axe.run(document.getElementById('mirror'),
    { resultTypes: ['violations'] })).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(violations, []);
  await screenshot(page, 'rich-ru-mirror-images');
  app.expectNoErrors();
  await app.close();
});

test('offline: a bank\'s images are kept with it (first visit, worker installed after), shown with the server stopped', async () => {
  const own = await startSite({ dir });
  const context = await browser.newContext();
  try {
    // Offline, the two files that never were pictures cannot be fetched either: the browser says so.
    const app = await openApp(`${own.url}?quiz=pictures&lang=en`, { context, allowErrors: [...MISSING_PICTURE, /net::ERR_FAILED/] });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.pictures && s.pictures.every((p) => p.state !== 'loading'), null, 30000);
    await waitInPage(page, async () => { const r = await navigator.serviceWorker.getRegistration(); return !!(r && r.active); },
                     null, { timeout: 60000, polling: 200 });
    const wanted = [SCHEDULE, 'images/red.png'].map((f) => own.url + 'quizzes/' + f);
    await waitInPage(page, async (urls) => {
      const names = (await caches.keys()).filter((n) => n.startsWith('imquiz-data:'));
      const kept = new Set();
      for (const name of names) for (const r of await (await caches.open(name)).keys()) kept.add(r.url);
      return urls.every((u) => kept.has(u));
    }, wanted, { timeout: 30000, polling: 200 });
    await own.close();
    await page.reload();
    const state = await waitForState(page, (s) => s.screen === 'question' && s.pictures &&
      s.pictures.every((p) => p.state !== 'loading'), null, 30000);
    const ready = state.pictures.filter((p) => p.state === 'ready').map((p) => p.source).sort();
    assert.deepEqual(ready, [SCHEDULE, 'images/red.png'].sort());
    await screenshot(page, 'rich-en-offline-images');
    app.expectNoErrors();
  } finally {
    await context.close();
    await own.close();
  }
});
