// Markdown banks in the browser: the README's Markdown example served beside the launch banks.
// Its question, checked, on the canvas (screenshots in en and ru, light and dark, DPR 1 and 2,
// 320 px and 1280 px: look at them) and in the accessibility mirror (real elements built from the
// page protocol, never markup from the bank); what a plain bank fetches (nothing of Markdown's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, assertCanvasNotBlank, ENGINE,
         skipStep, SITE_DIR, scrollToAndClick, waitInPage } from './harness.mjs';

// The site as built, plus the README's Markdown bank in its catalog.
const readme = fs.readFileSync(new URL('../../quizzes/README.md', import.meta.url), 'utf8');
const example = readme.match(/<!-- readme-example: markdown bank -->\n```json\n([\s\S]*?)\n```\n/)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-rich-'));
fs.cpSync(SITE_DIR, dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'quizzes', 'markdown-sampler.json'), example);
const catalog = JSON.parse(fs.readFileSync(path.join(dir, 'quizzes', 'index.json'), 'utf8'));
catalog.banks.push({ id: 'markdown-sampler', file: 'markdown-sampler.json' });
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
  const app = await openApp(`${site.url}?quiz=data-parallelism&lang=en`, { browser });
  await waitForState(app.page, (s) => s.screen === 'question');
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
