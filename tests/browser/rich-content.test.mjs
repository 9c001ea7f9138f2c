// Markdown banks in the browser: the README's Markdown example served beside the launch banks.
// Its question, checked, on the canvas (screenshots in en and ru, light and dark, DPR 1 and 2,
// 320 px and 1280 px: look at them) and in the accessibility mirror (real elements built from the
// page protocol, never markup from the bank); what a plain bank fetches (nothing of Markdown's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, assertCanvasNotBlank, ENGINE,
         skipStep, SITE_DIR, scrollToAndClick, waitInPage, screenshotColors, clickItem, Unsupported, ARTIFACTS,
         waitForKeptOnFirstUse, waitForCached, waitForActiveWorker, afterReload, act, countFrames, framesDrawn, waitForQuiet,
         waitForFaces } from './harness.mjs';
import { solidPng } from './engines/png.mjs';
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
// Two more Markdown banks (below): code in every language the highlighter colours, and code in
// none of them.
fs.writeFileSync(path.join(dir, 'quizzes', 'code-colours.json'), JSON.stringify(codeColoursBank()));
fs.writeFileSync(path.join(dir, 'quizzes', 'code-uncoloured.json'), JSON.stringify(codeUncolouredBank()));
catalog.banks.push({ id: 'code-colours', file: 'code-colours.json' }, { id: 'code-uncoloured', file: 'code-uncoloured.json' });
fs.writeFileSync(path.join(dir, 'quizzes', 'index.json'), JSON.stringify(catalog));
// The precompressed copies would answer for the old catalog.
for (const stale of ['index.json.gz', 'index.json.br']) fs.rmSync(path.join(dir, 'quizzes', stale), { force: true });

// The math bank (tests/data/math/math-sampler.json: inline and display math, Greek, a sum, a root,
// \text{}, a TeX error, a formula wider than 320 px) and a Markdown bank without math.
fs.copyFileSync(new URL('../data/math/math-sampler.json', import.meta.url), path.join(dir, 'quizzes', 'math-sampler.json'));
const noMath = JSON.parse(example);
noMath.id = 'markdown-no-math';
noMath.questions = noMath.questions.filter((q) => !JSON.stringify(q).includes('$'));
fs.writeFileSync(path.join(dir, 'quizzes', 'markdown-no-math.json'), JSON.stringify(noMath));
catalog.banks.push({ id: 'math-sampler', file: 'math-sampler.json' }, { id: 'markdown-no-math', file: 'markdown-no-math.json' });
// Two banks whose catalog entries name their formulas typeset ahead of time (scripts/check-math.mjs
// --write), typeset here by the site's own MathJax bundle as check-math's --module does: one file
// has every formula; the other lacks the TeX error's and carries markup a formulas file must not
// put in the mirror (an HTML img with onerror, inside the bubble's MathML).
const SUM = '\\sum_{i=1}^{n} t_i', TYPO = '\\fracc{1}{2}';
const siteMath = {};
vm.runInNewContext(fs.readFileSync(path.join(SITE_DIR, 'imquiz-math.js'), 'utf8'), siteMath);
const mathOf = siteMath.ImQuizMath;
const typesetAnswer = ([tex, display]) => ({ tex, display, encoded: mathOf.encoded(tex, display), mathml: mathOf.mathml(tex, display) });
for (const [id, formulas] of [
  ['math-typeset', [['\\frac{p-1}{m+p-1}', false], [SUM, true], [TYPO, false]].map(typesetAnswer)],
  ['math-partial', [['\\frac{p-1}{m+p-1}', false], [SUM, true]].map(typesetAnswer).map((f, i) => (i ? f : {
    ...f, mathml: '<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>p</mi><img xmlns="http://www.w3.org/1999/xhtml" ' +
                  'src="none.png" onerror="window.__fromFile = 1"/><mtext>kept</mtext></math>' }))],
]) {
  fs.writeFileSync(path.join(dir, 'quizzes', `${id}.json`), JSON.stringify({
    format: 'imquiz-bank', version: 1, id, textFormat: 'markdown', title: { en: 'Formulas typeset ahead of time' },
    languages: ['en'], defaultLanguage: 'en',
    questions: [{ id: 'bubble', type: 'true_false', answer: true,
                  prompt: { en: 'The bubble is $\\frac{p-1}{m+p-1}$ of the time $$' + SUM + '$$ and this is a typo: $' + TYPO + '$.' } }],
  }));
  fs.writeFileSync(path.join(dir, 'quizzes', `${id}.formulas.json`),
                   JSON.stringify({ format: 'imquiz-formulas', version: 1, mathjax: mathOf.version, formulas }));
  catalog.banks.push({ id, file: `${id}.json`, formulas: `${id}.formulas.json` });
}
fs.writeFileSync(path.join(dir, 'quizzes', 'index.json'), JSON.stringify(catalog));

// Every state of a Markdown bank is valid against the page protocol's schema, rich fields too.
const schema = JSON.parse(fs.readFileSync(new URL('../../docs/page-protocol.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
function assertValid(state, where) {
  assert.ok(validate(state), `${where}: ${JSON.stringify(validate.errors, null, 1)}`);
}

const site = await startSite({ dir });
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); fs.rmSync(dir, { recursive: true, force: true }); });

// The rich player (src/app/player.h), its page script and styles, md4c's module, the faces.
const MARKDOWN_FILES = ['/imquiz-rich.js', '/imquiz-rich.wasm', '/rich.js', '/rich.css',
                        '/imquiz-markdown.wasm', '/fonts/imquiz-sans-bold.ttf', '/fonts/imquiz-sans-italic.ttf',
                        '/fonts/imquiz-sans-bold-italic.ttf', '/fonts/imquiz-mono.ttf',
                        '/imquiz-highlight.js'];   // the sampler shows Python: the highlighter comes too

test('a plain bank fetches nothing of Markdown\'s', async () => {
  const before = MARKDOWN_FILES.map((f) => site.requestCount(f));
  const app = await openApp(`${site.url}?quiz=plain-parallelism&lang=en`, { browser });
  await waitForState(app.page, (s) => s.screen === 'question' && s.quiz.id === 'plain-parallelism');
  assert.deepEqual(MARKDOWN_FILES.map((f) => site.requestCount(f)), before);
  app.expectNoErrors();
  await app.close();
});

// Which player runs (src/app/player.h, web/boot.js): the script the page inserted.
const playerScripts = (page) => page.evaluate(() => Array.from(document.scripts, (s) => s.getAttribute('src'))
  .filter((src) => /^imquiz(-rich)?\.js$/.test(src || '')));

test('a Markdown bank starts the rich player, a plain bank the plain one, and each is remembered for the next visit', async () => {
  for (const [quiz, player, remembered] of [['markdown-sampler', 'imquiz-rich.js', 'rich'], ['plain-parallelism', 'imquiz.js', null]]) {
    const app = await openApp(`${site.url}?quiz=${quiz}&lang=en`, { browser });
    await waitForState(app.page, (s) => s.screen === 'question' && s.quiz.id === quiz);
    assert.deepEqual(await playerScripts(app.page), [player], quiz);
    assert.equal(await app.page.evaluate(() => localStorage.getItem(window.ImQuizHost.namespace + 'player')), remembered, quiz);
    app.expectNoErrors();
    await app.close();
  }
});

test('the plain player hands a Markdown bank to the rich one: the page reloads into it, on the same screen', async () => {
  const context = await browser.newContext();
  try {
    const app = await openApp(`${site.url}?quiz=plain-parallelism&lang=en&sw=0`, { context });
    await waitForState(app.page, (s) => s.screen === 'question' && s.quiz.id === 'plain-parallelism');
    assert.deepEqual(await playerScripts(app.page), ['imquiz.js']);
    // The catalog fetches the other banks: the Markdown ones reach the plain player, which hands over.
    await afterReload(app.page, () => act(app.page, { type: 'catalog' }));
    const state = await waitForState(app.page, (s) => s.screen === 'catalog' &&
      ['markdown-sampler', 'plain-parallelism'].every((id) => s.banks.some((b) => b.id === id && b.state === 'ready')));
    assert.deepEqual(await playerScripts(app.page), ['imquiz-rich.js']);
    assert.equal(new URL(await app.page.url()).searchParams.get('quiz'), null, 'the catalog, not the quiz again');
    assert.equal(state.banks.find((b) => b.id === 'plain-parallelism').inProgress, true, 'the attempt is kept');
    app.expectNoErrors();
  } finally {
    await context.close();
  }
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

// axe on the mirror, with the element at `focus` focused (so the mirror is shown and its colours
// are checked too), once its animations are over: the serious and critical violations, named.
// axe goes in as an inline script, which the page's CSP refuses: these pages' contexts bypass it.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function mirrorViolations(page, focus) {
  await page.addScriptTag({ content: axeSource });
  await page.evaluate((selector) => document.querySelector(selector).focus(), focus);
  await page.evaluate(() => Promise.all(document.getElementById('mirror').getAnimations().map((a) => a.finished)));
  return page.evaluate(async () => (await window.axe.run(document.getElementById('mirror'),
    { resultTypes: ['violations'] })).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
}

test('the Markdown question in the accessibility mirror: real elements, no markup from the bank, axe clean', async () => {
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
  assert.deepEqual(await mirrorViolations(page, '#mirror [data-mirror-feedback]'), []);
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
    await waitForActiveWorker(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    // The sampler has formulas: MathJax's module is kept too.
    const wanted = [...MARKDOWN_FILES, '/imquiz-math.js'].map((f) => own.url + f.slice(1));
    await waitForCached(page, 'imquiz-shell:', wanted);

    await own.close();   // the server is gone
    await page.reload();
    const state = await waitForState(page, (s) => s.screen === 'question' && s.question && s.question.promptRich, null, 30000);
    assert.equal(state.question.promptRich[1].type, 'code');
    // The highlighter came from the offline copy: the code is coloured with the server gone.
    await waitForState(page, (s) => s.question.promptRich[1].spans, null, 30000);
    // The bank has formulas (a later question's): MathJax came from the worker's cache, with the
    // server gone, and typeset them.
    await page.waitForFunction(() => /<mfrac>/.test(window.ImQuizHost.math.mathml('\\frac{p-1}{m+p-1}', false)), null, { timeout: 30000 });
    await assertCanvasNotBlank(page);
    await screenshot(page, 'rich-en-offline-question');
    app.expectNoErrors();
  } finally {
    await context.close();
    await own.close();
  }
});

// ---- Syntax colours: Prism's, loaded only for code in a language it colours -------------------

// One question with a block of each coloured language; its comments in the learner's language
// (Cyrillic is two bytes in UTF-8 and one unit in JavaScript: the spans must still land).
function codeColoursBank() {
  const blocks = (comment) => [
    '```python', 'def count(items):', `    return len(items)  # ${comment.python}`, 'print(count(["a", "b", "c"]))', '```', '',
    '```cpp', '#include <vector>', 'int main() {', '    std::vector<int> v{1, 2, 3};',
    `    return static_cast<int>(v.size());  // ${comment.cpp}`, '}', '```', '',
    '```sh', `printf '%s\\n' a b c | wc -l  # ${comment.shell}`, '```', '',
    '```json', '{"items": [1, 2, 3], "count": true, "note": null}', '```', '',
    '```yaml', 'items: [1, 2, 3]', `count: true  # ${comment.yaml}`, '```',
  ].join('\n');
  return {
    format: 'imquiz-bank', version: 1, id: 'code-colours', textFormat: 'markdown',
    title: { en: 'Code colours', ru: 'Цвета кода' }, languages: ['en', 'ru'], defaultLanguage: 'en',
    questions: [{
      id: 'three', type: 'single_choice',
      prompt: {
        en: 'Which of these gives **3**?\n\n' + blocks({ python: 'the number of items', cpp: 'three elements',
                                                         shell: 'one line each', yaml: 'yes' }),
        ru: 'Что из этого даёт **3**?\n\n' + blocks({ python: 'число элементов', cpp: 'три элемента',
                                                      shell: 'по строке', yaml: 'да' }),
      },
      choices: [{ id: 'all', text: { en: 'All of them', ru: 'Всё' }, correct: true },
                { id: 'none', text: { en: 'None', ru: 'Ничего' } }],
    }],
  };
}
function codeUncolouredBank() {
  return {
    format: 'imquiz-bank', version: 1, id: 'code-uncoloured', title: 'Code without colours', textFormat: 'markdown',
    languages: ['en'], defaultLanguage: 'en',
    questions: [{
      id: 'plain', type: 'single_choice',
      prompt: 'Inline `len(x)` and fences in languages without colours:\n\n```\nno language\n```\n\n```rust\nfn main() {}\n```',
      choices: [{ id: 'a', text: 'A', correct: true }, { id: 'b', text: 'B' }],
    }],
  };
}

const HIGHLIGHTER = '/imquiz-highlight.js';
const codeBlocks = (state) => state.question.promptRich.filter((b) => b.type === 'code');
const coloured = (state) => state.screen === 'question' && state.question && state.question.promptRich &&
  codeBlocks(state).length === 5 && codeBlocks(state).every((b) => b.spans);
// The code's text of each span, with its kind.
const spanTexts = (block) => block.spans.map(([begin, length, kind]) => [block.code.slice(begin, begin + length), kind]);

test('a Markdown bank without code in a coloured language never fetches the highlighter', async () => {
  const before = site.requestCount(HIGHLIGHTER);
  const app = await openApp(`${site.url}?quiz=code-uncoloured&lang=en`, { browser });
  const state = await waitForState(app.page, (s) => s.screen === 'question' && s.question && s.question.promptRich,
                                   null, 30000);
  assert.deepEqual(codeBlocks(state).map((b) => [b.language, 'spans' in b]), [['', false], ['rust', false]]);
  await app.page.waitForFunction(() => document.querySelector('#mirror pre code'), null, { timeout: 30000 });
  // boot.js adds its script in the very frame that first asks: none there means none asked.
  assert.equal(await app.page.evaluate(() => document.querySelectorAll('script[src*="imquiz-highlight"]').length), 0);
  assert.equal(site.requestCount(HIGHLIGHTER), before);
  app.expectNoErrors();
  await app.close();
});

const rgbOf = (css) => css.match(/\d+/g).slice(0, 3).map(Number);
const hexRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
// How close the nearest pixel comes to `colour` (sum of the channels' differences).
const nearest = (pixels, colour) => Math.min(...pixels.map((p) => Math.abs(p[0] - colour[0]) + Math.abs(p[1] - colour[1]) +
                                                               Math.abs(p[2] - colour[2])));

test('code in Python, C++, shell, JSON and YAML: coloured spans, on the canvas and in the mirror; idle after', async () => {
  const app = await openApp(`${site.url}?quiz=code-colours&lang=ru`,
                            { browser, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2, initScript: countFrames });
  const { page } = app;
  const state = await waitForState(page, coloured, null, 30000);
  assert.equal(site.requestCount(HIGHLIGHTER) > 0, true, 'the highlighter was fetched');
  assertValid(state, 'coloured question');
  const [python, cpp, shell, json, yaml] = codeBlocks(state);
  assert.deepEqual([python, cpp, shell, json, yaml].map((b) => b.language), ['python', 'cpp', 'sh', 'json', 'yaml']);
  const has = (block, text, kind) => assert.ok(spanTexts(block).some(([t, k]) => t === text && k === kind),
                                               `${block.language}: "${text}" is a ${kind} (${JSON.stringify(spanTexts(block))})`);
  has(python, 'def', 'keyword');
  has(python, 'count', 'function');
  has(python, 'len', 'builtin');
  has(python, "# число элементов", "comment");
  has(python, '"a"', 'string');                  // after the Cyrillic comment: its offsets still land
  has(cpp, '#include', 'keyword');
  has(cpp, '<vector>', 'string');
  has(cpp, 'int', 'keyword');
  has(cpp, '1', 'number');
  has(cpp, '// три элемента', 'comment');
  has(shell, 'printf', 'builtin');
  has(shell, "'%s\\n'", 'string');
  has(shell, '|', 'operator');
  has(json, '"items"', 'property');
  has(json, 'true', 'constant');
  has(json, 'null', 'constant');
  has(yaml, 'items', 'property');
  has(yaml, 'true', 'constant');
  has(yaml, '# да', 'comment');
  for (const block of [python, cpp, shell, json, yaml]) {
    let end = 0;
    for (const [begin, length] of block.spans) {
      assert.ok(begin >= end && length > 0 && begin + length <= block.code.length, `${block.language}: spans in order, in the code`);
      end = begin + length;
    }
  }

  // Idle once coloured: no frames while nothing changes. (Before any screenshot: those ask for
  // animation frames themselves.)
  // The later faces rebuild the atlas when they arrive (under load, after a fixed second had
  // passed: CI's flake); then the app must go quiet and stay so.
  await page.waitForFunction(() => document.querySelector('#mirror pre code .tok-keyword'), null, { timeout: 30000 });
  await waitForFaces(page);
  await waitForQuiet(page, { what: 'the app kept drawing after colouring' });
  const start = await framesDrawn(page);
  await new Promise((resolve) => setTimeout(resolve, 2000));   // measuring idleness: a fixed wait is the point here
  assert.equal(await framesDrawn(page) - start, 0, 'frames drawn while idle after colouring');

  // The mirror: the same code, in spans classed by kind, coloured by rich.css.
  const mirror = await page.evaluate(() => [...document.querySelectorAll('#mirror pre code')].map((code) => ({
    language: code.getAttribute('data-language'),
    text: code.textContent,
    children: [...code.childNodes].every((n) => n.nodeName === 'SPAN'),
    keywords: [...code.querySelectorAll('.tok-keyword')].map((e) => e.textContent),
    comments: [...code.querySelectorAll('.tok-comment')].map((e) => e.textContent),
    strings: [...code.querySelectorAll('.tok-string')].map((e) => e.textContent),
  })));
  assert.deepEqual(mirror.map((m) => m.language), ['python', 'cpp', 'sh', 'json', 'yaml']);
  assert.deepEqual(mirror.map((m) => m.text), [python, cpp, shell, json, yaml].map((b) => b.code));
  assert.ok(mirror.every((m) => m.children), 'code holds spans only');
  assert.deepEqual(mirror[0].keywords, ['def', 'return', 'print']);
  assert.deepEqual(mirror[0].comments, ['# число элементов']);
  assert.deepEqual(mirror[0].strings, ['"a"', '"b"', '"c"']);
  const css = await page.evaluate(() => Object.fromEntries(['keyword', 'comment'].map((kind) =>
    [kind, getComputedStyle(document.querySelector('#mirror .tok-' + kind)).color])));

  // The canvas: the same colours (rich.css carries the palette's values) where the spans are. The
  // code's item says where its first glyph is; a monospaced face puts column c at c advances.
  const item = state.items.find((i) => i.id === 'code:prompt:1');
  assert.ok(item, `the Python block's lines are an item (${state.items.map((i) => i.id).join(', ')})`);
  const lines = python.code.split('\n');
  const advance = item.w / Math.max(...lines.map((l) => [...l].length));
  const cell = (line, column, length) => ({ x: item.x + column * advance, y: item.y + line * item.fontSize,
                                            w: length * advance, h: item.fontSize });
  const commentAt = lines[1].indexOf('#');
  const [keywordPixels, commentPixels, plainPixels] = (await screenshotColors(page, [], [
    cell(0, 0, 3),                                        // def
    cell(1, commentAt, [...lines[1]].length - commentAt), // # число элементов
    cell(0, 10, 5),                                       // items (plain)
  ])).pixels;
  const keyword = rgbOf(css.keyword), comment = rgbOf(css.comment), plain = hexRgb(item.color);
  assert.ok(nearest(keywordPixels, keyword) <= 24, `keyword colour ${css.keyword} on "def" (nearest ${nearest(keywordPixels, keyword)})`);
  assert.ok(nearest(commentPixels, comment) <= 24, `comment colour ${css.comment} on the comment`);
  assert.ok(nearest(commentPixels, keyword) > 60, 'no keyword colour on the comment');
  assert.ok(nearest(plainPixels, plain) <= 24, `plain colour ${item.color} on "items"`);
  assert.ok(nearest(plainPixels, keyword) > 60, 'no keyword colour on plain code');
  await screenshot(page, 'code-colours-ru-1280-light-dpr2');
  app.expectNoErrors();
  await app.close();
});

// The code-heavy question in every theme, en and ru, DPR 1 and 2, 320 and 1280 px wide, for a
// person to look at (build/screenshots/code-colours/). The whole set in Chromium; in the other
// engines two of them, the rest being the same drawing by the same wasm.
const SHOTS = path.resolve(fileURLToPath(new URL('../../build/screenshots/code-colours/', import.meta.url)),
                           ENGINE === 'chromium' ? '.' : ENGINE);
// Every pair of language, width and ratio once (four pages, not all eight: every page is three
// loads, and the eight took 200 s in Chromium under load); the Markdown, images and math
// canvas tests above and below take all eight.
const shotCases = [{ lang: 'en', width: 1280, ratio: 1 }, { lang: 'en', width: 320, ratio: 2 },
                   { lang: 'ru', width: 1280, ratio: 2 }, { lang: 'ru', width: 320, ratio: 1 }];
test('screenshots of the code-heavy question: light, dark, high contrast; en, ru; DPR 1, 2; 320, 1280 px', async (t) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const cases = ENGINE === 'chromium' ? shotCases : [shotCases[0], shotCases[3]];
  for (const { lang, width, ratio } of cases) {
    const viewport = { width, height: width === 320 ? 640 : 900 };
    // Light and dark by the app's own setting (theme=: every engine has it); high contrast is the
    // light theme with prefers-contrast: more, emulated once the page is open.
    for (const [theme, setting, contrast, background] of [['light', 'light', null, '#f4f6fa'],
                                                            ['dark', 'dark', null, '#15171c'],
                                                            ['contrast', 'light', 'more', '#ffffff']]) {
      const app = await openApp(`${site.url}?quiz=code-colours&lang=${lang}&theme=${setting}`,
                                { browser, viewport, deviceScaleFactor: ratio });
      const { page } = app;
      try {
        await waitForState(page, coloured, null, 30000);
        if (contrast) {
          try {
            await page.emulateMedia({ colorScheme: 'light', contrast });
          } catch (error) {
            if (!(error instanceof Unsupported)) throw error;
            await skipStep(t, `${theme} screenshot`, error.message);
            continue;
          }
        }
        // The canvas follows the media features at its next frame: its page background tells (the
        // top-left corner: whatever ratio the engine's screenshots come at).
        const deadline = Date.now() + 10000;
        while ((await screenshotColors(page, [[1, 1]])).at[0] !== background) {
          if (Date.now() > deadline) throw new Error(`the canvas did not turn ${theme}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.screenshot({ path: path.join(SHOTS, `code-${lang}-${width}-${theme}-dpr${ratio}.png`) });
        app.expectNoErrors();
      } finally {
        await app.close();
      }
    }
  }
});

test('a highlighter that cannot be had: the code stays plain, the reason is logged, the quiz goes on', async () => {
  const own = await startSite({ dir });
  own.faults.set(HIGHLIGHTER, (req, res) => { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('gone'); });
  // What the app writes to the console, kept from the start (the failure may come before the first frame).
  const initScript = () => {
    window.__logged = [];
    for (const level of ['log', 'info', 'warn', 'error']) {
      const original = console[level].bind(console);
      console[level] = (...args) => { window.__logged.push(args.join(' ')); original(...args); };
    }
  };
  try {
    const app = await openApp(`${own.url}?quiz=code-colours&lang=en&sw=0`,
                              { browser, initScript, allowErrors: [/404|imquiz-highlight|Failed to load|code stays without colours/i] });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.question && s.question.promptRich, null, 30000);
    await waitInPage(page, () => window.__logged.some((m) => /code stays without colours: imquiz-highlight\.js/.test(m)),
                     null, { timeout: 30000 });
    // Not the page's "could not load": the quiz is on screen.
    assert.deepEqual(await page.evaluate(() => ({ problem: !document.getElementById('status').hidden,
                                                  canvas: document.getElementById('canvas').style.visibility })),
                     { problem: false, canvas: '' });
    const state = await appState(page);
    assert.ok(own.requestCount(HIGHLIGHTER) >= 1);
    assert.deepEqual(codeBlocks(state).map((b) => 'spans' in b), [false, false, false, false, false]);
    await assertCanvasNotBlank(page);
    await page.evaluate(() => window.ImQuizHost.act({ type: 'select', choice: 'all' }));
    await page.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
    await waitForState(page, (s) => s.question.feedback);
    // Asked once: a failed highlighter is not asked again at every screen.
    assert.equal(own.requestCount(HIGHLIGHTER), 1);
    await screenshot(page, 'code-colours-unavailable');
    app.expectNoErrors();
    await app.close();
  } finally {
    await own.close();
  }
});

// ---- Images ---------------------------------------------------------------------------------
// A bank of pictures beside the others: our schedule drawing (SVG), a PNG made here (a solid
// colour, to find on the canvas), one file that is not there and one that is not an image.
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
      // The window's own width: WebKitGTK's is wider than asked for at 320 px.
      const width = await app.page.evaluate(() => innerWidth);
      const column = Math.min(width - (width < 480 ? 28 : 56), 760);
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
  assert.deepEqual(await mirrorViolations(page, '#mirror [data-mirror-feedback]'), []);
  await screenshot(page, 'rich-ru-mirror-images');
  app.expectNoErrors();
  await app.close();
});

test('offline: a bank\'s images are kept with it (first visit, worker installed after), shown with the server stopped', async () => {
  const own = await startSite({ dir });
  const context = await browser.newContext();
  try {
    // Offline, the two files that never were pictures cannot be fetched either: the browser says so.
    const app = await openApp(`${own.url}?quiz=pictures&lang=en`, { context, allowErrors: [...MISSING_PICTURE, /net::ERR_FAILED/, /images\/(missing|fake)\.png/] });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.pictures && s.pictures.every((p) => p.state !== 'loading'), null, 30000);
    await waitForActiveWorker(page);
    const wanted = [SCHEDULE, 'images/red.png'].map((f) => own.url + 'quizzes/' + f);
    await waitForCached(page, 'imquiz-data:', wanted);
    await waitForKeptOnFirstUse(page);   // a Markdown bank: md4c's module and faces too
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

// ---- Math: MathJax (imquiz-math.js), loaded only for a bank that shows math ------------------

const MATH_FILE = '/imquiz-math.js';
const BUBBLE = '\\frac{p-1}{m+p-1}';
const mathRuns = (blocks) => (blocks || []).flatMap((b) => b.runs || []).filter((r) => r.type === 'math' || r.type === 'display-math');
// Every formula of the prompt is settled (typeset, or its TeX error known), and every one MathJax
// typeset is on the canvas as a picture (each decodes on its own: the long one comes last).
// Formulas are typeset in turn: waiting for some of them only counted 4 of 5 under load.
const formulasArrived = (s) => {
  if (s.screen !== 'question' || !s.question) return false;
  const runs = mathRuns(s.question.promptRich);
  return runs.some((r) => r.typeset) && runs.every((r) => r.typeset || r.error) &&
    runs.filter((r) => r.typeset).every((r) => s.items.some((i) => i.id === 'math:' + r.text));
};

test('a plain bank and a Markdown bank without math never fetch imquiz-math.js', async () => {
  const before = site.requestCount(MATH_FILE);
  for (const quiz of ['data-parallelism', 'markdown-no-math']) {
    const app = await openApp(`${site.url}?quiz=${quiz}&lang=en`, { browser });
    await waitForState(app.page, (s) => s.screen === 'question', null, 30000);
    // The mirror and the text field have come too: nothing else is on its way.
    await app.page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'), null, { timeout: 15000 });
    assert.equal(site.requestCount(MATH_FILE), before, `${quiz} fetched imquiz-math.js`);
    app.expectNoErrors();
    await app.close();
  }
  assert.ok(site.requestCount('/imquiz-markdown.wasm') > 0, 'the Markdown bank was read (its module came)');
});

// An opaque origin (a sandboxed iframe without allow-same-origin) may be refused a worker: then
// MathJax runs as a script of the page, as it did before it had a worker, and answers the same.
test('math: where no worker can start, MathJax runs on the page and the formulas are typeset all the same', async () => {
  const initScript = () => { window.Worker = function () { throw new DOMException('refused here', 'SecurityError'); }; };
  const app = await openApp(`${site.url}?quiz=math-sampler&lang=en`, { browser, initScript });
  const state = await waitForState(app.page, formulasArrived, null, 30000);
  const byTex = Object.fromEntries(mathRuns(state.question.promptRich).map((r) => [r.text, r]));
  assert.equal(byTex[BUBBLE].typeset, true);
  assert.match(byTex['\\fracc{1}{2}'].error, /Undefined control sequence \\fracc/);
  assert.equal(await app.page.evaluate(() => typeof window.ImQuizMath), 'object', 'the page ran MathJax itself');
  await app.page.waitForFunction(() => document.querySelector('#mirror math mfrac'), null, { timeout: 15000 });
  app.expectNoErrors();
  await app.close();
});

// Formulas typeset ahead of time: the page reads the file the catalog names, and MathJax is
// started only for a formula that file lacks.
test('math typeset ahead of time: drawn and in the mirror from the catalog\'s formulas file, MathJax never fetched', async () => {
  const before = site.requestCount(MATH_FILE), files = site.requestCount('/quizzes/math-typeset.formulas.json');
  const app = await openApp(`${site.url}?quiz=math-typeset&lang=en`, { browser });
  const state = await waitForState(app.page, formulasArrived, null, 30000);
  const byTex = Object.fromEntries(mathRuns(state.question.promptRich).map((r) => [r.text, r]));
  assert.equal(byTex[BUBBLE].typeset, true);
  assert.equal(byTex[SUM].typeset, true);
  assert.match(byTex[TYPO].error, /Undefined control sequence \\fracc/, 'the TeX error as MathJax words it, from the file');
  await app.page.waitForFunction(() => document.querySelector('#mirror math mfrac'), null, { timeout: 15000 });
  await app.page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'), null, { timeout: 15000 });
  assert.ok(site.requestCount('/quizzes/math-typeset.formulas.json') > files, 'the formulas file was read');
  assert.equal(site.requestCount(MATH_FILE), before, 'imquiz-math.js was fetched');
  await assertCanvasNotBlank(app.page);
  await screenshot(app.page, 'math-typeset-ahead-en');
  app.expectNoErrors();
  await app.close();
});

test('math typeset ahead of time: a formula the file lacks is typeset by MathJax; only MathML from the file reaches the mirror', async () => {
  const before = site.requestCount(MATH_FILE);
  // Parsing the file's MathML (DOMParser) makes Chromium check the img's onerror against the page's
  // CSP, which refuses it and says so; the img itself never reaches the page (below).
  const app = await openApp(`${site.url}?quiz=math-partial&lang=en`, { browser, allowErrors: [/Executing inline event handler violates/] });
  const state = await waitForState(app.page, formulasArrived, null, 30000);
  const byTex = Object.fromEntries(mathRuns(state.question.promptRich).map((r) => [r.text, r]));
  assert.equal(byTex[BUBBLE].typeset, true);
  assert.match(byTex[TYPO].error, /Undefined control sequence \\fracc/, 'MathJax answered the formula the file lacks');
  assert.ok(site.requestCount(MATH_FILE) > before, 'imquiz-math.js was fetched for it');
  await app.page.waitForFunction(() => document.querySelector('#mirror math mtext'), null, { timeout: 15000 });
  const mirror = await app.page.evaluate(() => {
    const math = document.querySelector('#mirror math mtext').closest('math');
    return { text: math.textContent, foreign: math.querySelectorAll('*').length - math.getElementsByTagNameNS('http://www.w3.org/1998/Math/MathML', '*').length,
             img: document.querySelectorAll('#mirror img').length, fromFile: window.__fromFile === 1 };
  });
  assert.deepEqual(mirror, { text: 'pkept', foreign: 0, img: 0, fromFile: false });
  app.expectNoErrors();
  await app.close();
});

test('offline: a bank\'s typeset formulas are kept with it; with the server stopped they are drawn, MathJax never needed', async () => {
  const own = await startSite({ dir });   // a server of its own, to stop
  const context = await browser.newContext();
  try {
    const app = await openApp(`${own.url}?quiz=math-typeset&lang=en`, { context });
    const { page } = app;
    await waitForState(page, formulasArrived, null, 30000);
    // The worker's install keeps the banks the catalog lists and their formulas files; the parts
    // this visit used (the rich player, its faces) are kept once it controls the page.
    await waitForActiveWorker(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    await waitForKeptOnFirstUse(page);
    await waitForCached(page, 'imquiz-data:', [own.url + 'quizzes/math-typeset.formulas.json']);
    await own.close();   // the server is gone
    await page.reload();
    const state = await waitForState(page, formulasArrived, null, 30000);
    const byTex = Object.fromEntries(mathRuns(state.question.promptRich).map((r) => [r.text, r]));
    assert.equal(byTex[BUBBLE].typeset, true);
    assert.equal(byTex[SUM].typeset, true);
    assert.equal(own.requestCount(MATH_FILE), 0, 'imquiz-math.js was fetched');
    await assertCanvasNotBlank(page);
    app.expectNoErrors();
  } finally {
    await context.close();
    await own.close();
  }
});

// The launch quiz's formulas are typeset when the site is built (scripts/assemble-site.sh). The
// page registers its service worker once nothing is loading and no part is busy (MathJax with
// formulas to answer would be): by then the page has either started MathJax or never will.
test('the launch quiz with formulas reads them from its typeset file: MathJax is never started', async () => {
  const entry = catalog.banks.find((b) => b.id === 'model-pipeline-parallelism');
  assert.equal(entry.formulas, 'model-pipeline-parallelism.formulas.json', 'the built catalog names the file');
  const before = site.requestCount(MATH_FILE), files = site.requestCount('/quizzes/' + entry.formulas);
  const initScript = () => {
    const RealWorker = window.Worker;
    window.__mathStarted = 0;
    window.Worker = function (url, options) {
      if (String(url).includes('imquiz-math')) window.__mathStarted++;
      return new RealWorker(url, options);
    };
  };
  const app = await openApp(`${site.url}?quiz=model-pipeline-parallelism&lang=en`, { browser, initScript });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'question', null, 30000);
  await waitForActiveWorker(page, 30000);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Read by the page, and again by the service worker's install (kept offline with the bank).
  assert.ok(site.requestCount('/quizzes/' + entry.formulas) >= files + 2, 'the formulas file was read and kept');
  assert.deepEqual(await page.evaluate(() => ({ worker: window.__mathStarted, script: !!document.querySelector('script[src*="imquiz-math"]') })),
                   { worker: 0, script: false }, 'MathJax was started');
  assert.equal(site.requestCount(MATH_FILE), before, 'imquiz-math.js was fetched');
  app.expectNoErrors();
  await app.close();
});

// The service worker's install downloads the whole app again: on a first visit it waits until the
// first screen is complete (boot.js, the end), here until MathJax's answers, which the init script
// holds back until the test lets them through.
// The first question's picture and formulas are read by the page ahead of the player's first
// frame (web/rich.js: the picture fetched with the bank, the formulas from their file), and put in
// textures as the frame asks for them: the first frame that shows the question has them all. The
// player is instantiated only once they are read, so that what is tested is where the reads go,
// not their race with the first frame.
// The sum is written across lines, indented: md4c gives its TeX with one space for each line
// break, less the indentation (quizc formulas prints the same).
const SUM_ACROSS = SUM + ' ';
fs.writeFileSync(path.join(dir, 'quizzes', 'first-frame.json'), JSON.stringify({
  format: 'imquiz-bank', version: 1, id: 'first-frame', textFormat: 'markdown', title: { en: 'Complete at once' },
  languages: ['en'], defaultLanguage: 'en',
  questions: [{ id: 'bubble', type: 'true_false', answer: true,
                prompt: { en: `The bubble is $${BUBBLE}$ of the time\n\n$$\n  ${SUM}\n$$\n\n![A GPipe schedule](${SCHEDULE})` } },
              // A formula of another question whose TeX is in the first one's text, but not as a formula.
              { id: 'later', type: 'true_false', answer: true, prompt: { en: 'The $b$ in "bubble"' } }],
}));
fs.writeFileSync(path.join(dir, 'quizzes', 'first-frame.formulas.json'), JSON.stringify({
  format: 'imquiz-formulas', version: 1, mathjax: mathOf.version, formulas: [[BUBBLE, false], [SUM_ACROSS, true], ['b', false]].map(typesetAnswer) }));
catalog.banks.push({ id: 'first-frame', file: 'first-frame.json', formulas: 'first-frame.formulas.json' });
fs.writeFileSync(path.join(dir, 'quizzes', 'index.json'), JSON.stringify(catalog));

test('the first frame that shows a question has its picture and formulas: the page read them ahead', async () => {
  const initScript = () => {
    // The state the first-question signal was raised with: that frame's (the signal's waiters run
    // as soon as the frame's callback returns, before any other frame).
    window.__firstQuestionState = null;
    document.addEventListener('DOMContentLoaded', () => {
      window.ImQuizHost.whenSignal('first-question').then(() => { window.__firstQuestionState = window.ImQuizHost.state; });
    });
    for (const name of ['instantiateStreaming', 'instantiate']) {
      const real = WebAssembly[name].bind(WebAssembly);
      WebAssembly[name] = async (...args) => {
        const pictures = window.ImQuizHost && window.ImQuizHost.pictures;
        if (pictures) await pictures.whenReadAhead();
        return real(...args);
      };
    }
  };
  const app = await openApp(`${site.url}?quiz=first-frame&lang=en`, { browser, initScript });
  await app.page.waitForFunction(() => window.__firstQuestionState !== null, null, { timeout: 30000 });
  const first = await app.page.evaluate(() => window.__firstQuestionState);
  assert.deepEqual(first.pictures.map((p) => [p.source, p.state]), [[SCHEDULE, 'ready']], 'the picture, in the first frame');
  assert.ok(first.items.some((i) => i.id === `picture:${SCHEDULE}`), 'the picture drawn');
  assert.deepEqual(first.items.filter((i) => i.id.startsWith('math:')).map((i) => i.id.slice(5)).sort(), [BUBBLE, SUM_ACROSS].sort(),
                   'both formulas drawn from their textures in the first frame');
  // Each was read once, ahead: the app took the reads rather than making its own; the later
  // question's formula was not read (its TeX is in this text, but not as a formula).
  assert.deepEqual(await app.page.evaluate(() => window.ImQuizHost.pictures.stats()), { ahead: 3, taken: 3 });
  await assertCanvasNotBlank(app.page);
  await screenshot(app.page, 'first-frame-complete-en');
  app.expectNoErrors();
  await app.close();
});

test('a first visit registers the service worker only once the question\'s formulas are typeset', async () => {
  const initScript = () => {
    const RealWorker = window.Worker, held = [];
    window.__registeredAt = null;
    window.__releasedAt = null;
    window.__release = () => { window.__releasedAt = performance.now(); held.splice(0).forEach((deliver) => deliver()); };
    window.Worker = function (url, options) {
      const worker = new RealWorker(url, options);
      Object.defineProperty(worker, 'onmessage', {
        set(handler) {
          worker.addEventListener('message', (event) => {
            const deliver = () => handler.call(worker, event);
            if (window.__releasedAt === null) held.push(deliver); else deliver();
          });
        },
      });
      return worker;
    };
    const container = navigator.serviceWorker;
    const register = container.register.bind(container);
    container.register = (...args) => { if (window.__registeredAt === null) window.__registeredAt = performance.now(); return register(...args); };
  };
  const app = await openApp(`${site.url}?quiz=math-sampler&lang=en`, { browser, initScript });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'question' && mathRuns(s.question.promptRich).some((r) => r.typeset === false));
  // Past the moment the worker was registered before: the page's load event.
  await page.waitForFunction(() => document.readyState === 'complete', null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.__registeredAt), null, 'registered while the formulas were still on their way');
  await page.evaluate(() => window.__release());
  await waitForState(page, formulasArrived, null, 30000);
  await page.waitForFunction(() => window.__registeredAt !== null, null, { timeout: 30000 });
  const { registeredAt, releasedAt } = await page.evaluate(() => ({ registeredAt: window.__registeredAt, releasedAt: window.__releasedAt }));
  assert.ok(registeredAt >= releasedAt, `registered at ${registeredAt} ms, the formulas let through at ${releasedAt} ms`);
  // And it installs: the offline copy is not lost, only later.
  await waitForActiveWorker(page, 30000);
  app.expectNoErrors();
  await app.close();
});

test('math: typeset on the canvas in the text colour, MathML in the mirror, the TeX error reported with its path, idle after', async () => {
  const before = site.requestCount(MATH_FILE);
  const app = await openApp(`${site.url}?quiz=math-sampler&lang=en`, { browser, viewport: { width: 1280, height: 900 }, initScript: countFrames });
  const { page } = app;
  const state = await waitForState(page, formulasArrived, null, 30000);
  // (The worker may fetch it once more, to keep it for offline use.)
  assert.ok(site.requestCount(MATH_FILE) > before, 'imquiz-math.js fetched');
  assertValid(state, 'math question');
  const runs = mathRuns(state.question.promptRich);
  const byTex = Object.fromEntries(runs.map((r) => [r.text, r]));
  assert.equal(byTex[BUBBLE].typeset, true);
  assert.equal(byTex[BUBBLE].type, 'math');
  const display = runs.filter((r) => r.type === 'display-math');
  assert.equal(display.length, 2);
  assert.ok(display.every((r) => r.typeset), 'both display formulas typeset');
  assert.equal(byTex['\\fracc{1}{2}'].typeset, false);
  assert.match(byTex['\\fracc{1}{2}'].error, /Undefined control sequence \\fracc/);
  // MathJax ran in a worker of its own: never on the page's main thread, which draws the question.
  assert.equal(await page.evaluate(() => typeof window.ImQuizMath), 'undefined', 'MathJax ran on the page');

  // The canvas: the fraction's rectangle holds pixels of the text colour (its ink, from the SVG).
  const item = state.items.find((i) => i.id === 'math:' + BUBBLE);
  assert.ok(item.w > 20 && item.h > 20, `the fraction is drawn at a size: ${item.w} x ${item.h}`);
  const points = [];
  for (let y = Math.ceil(item.y); y < item.y + item.h; y++) for (let x = Math.ceil(item.x); x < item.x + item.w; x++) points.push([x, y]);
  const { at } = await screenshotColors(page, points);
  const ink = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const want = ink(item.color);
  const inked = at.filter((c) => ink(c).every((v, k) => Math.abs(v - want[k]) <= 24)).length;
  assert.ok(inked > 30, `${inked} pixels of the text colour ${item.color} inside the fraction's rectangle`);
  // A wide formula scrolls inside the column instead of overflowing it.
  const wide = state.items.find((i) => i.id.startsWith('math:t_1 + t_2'));
  assert.ok(wide, 'the long formula is drawn');

  // The mirror: MathML from the same MathJax, imported as elements, the TeX as its alttext.
  await page.waitForFunction(() => document.querySelector('#mirror math mfrac'), null, { timeout: 15000 });
  const mirror = await page.evaluate(() => {
    const m = document.getElementById('mirror');
    const maths = [...m.querySelectorAll('math')];
    return { count: maths.length, alt: maths.map((e) => e.getAttribute('alttext')), ns: maths[0].namespaceURI,
             blocks: maths.filter((e) => e.getAttribute('display') === 'block').length,
             msqrt: m.querySelectorAll('math msqrt').length, munderover: m.querySelectorAll('math munderover').length,
             mtext: [...m.querySelectorAll('math mtext')].map((e) => e.textContent),
             error: [...m.querySelectorAll('code.mirror-math-error')].map((e) => e.textContent) };
  });
  assert.equal(mirror.ns, 'http://www.w3.org/1998/Math/MathML');
  assert.ok(mirror.alt.includes(BUBBLE));
  assert.equal(mirror.blocks, 2);
  assert.ok(mirror.msqrt >= 1 && mirror.munderover >= 1);
  assert.ok(mirror.mtext.includes('(in seconds)'));
  assert.deepEqual(mirror.error, ['\\fracc{1}{2}']);

  // Idle once the formulas are there: no frame in a second (a fixed wait: measuring idleness).
  await waitForFaces(page);
  await waitForQuiet(page, { what: 'the app kept drawing after the formulas came' });
  const start = await framesDrawn(page);
  await page.waitForTimeout(1500);
  const idleFrames = (await framesDrawn(page)) - start;
  assert.equal(idleFrames, 0, `drew ${idleFrames} frames while idle`);

  // The TeX error on the bank's card: MathJax's message and the text's path; the bank plays.
  await page.evaluate(() => window.ImQuizHost.act({ type: 'catalog' }));
  const catalogState = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.some((b) => b.id === 'math-sampler' && b.state === 'ready'));
  const card = catalogState.banks.find((b) => b.id === 'math-sampler');
  assert.ok(card.problems && card.problems.some((p) => /questions\[0\]\.prompt\.en: TeX error in ".*fracc\{1\}\{2\}": Undefined control sequence \\fracc/.test(p)),
            JSON.stringify(card.problems));
  assertValid(catalogState, 'catalog with a TeX error');
  await page.waitForFunction(() => /TeX error/.test(document.getElementById('mirror').textContent), null, { timeout: 10000 });
  fs.mkdirSync(path.join(ARTIFACTS, 'math'), { recursive: true });
  await screenshot(page, 'math/math-catalog-tex-error');
  app.expectNoErrors();
  await app.close();
});

test('math in the accessibility mirror is axe clean', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const app = await openApp(`${site.url}?quiz=math-sampler&lang=en`, { context });
  const { page } = app;
  await waitForState(page, formulasArrived, null, 30000);
  await page.waitForFunction(() => document.querySelector('#mirror math mfrac'), null, { timeout: 15000 });
  assert.deepEqual(await mirrorViolations(page, '#mirror [data-mirror-prompt]'), []);
  app.expectNoErrors();
  await app.close();
});

// Screenshots (build/screenshots/math/): look at them. Is each formula crisp, on the baseline, in
// the text's colour; does the long one scroll inside the 320 px column?
const MATH_SHOTS = process.env.IMQUIZ_MATH_SHOTS || path.resolve('build/screenshots/math');
for (const lang of ['en', 'ru']) {
  for (const [name, options] of [
    ['1280-light-dpr1', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' }],
    ['1280-dark-dpr2', { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2, colorScheme: 'dark' }],
    ['320-light-dpr2', { viewport: { width: 320, height: 900 }, deviceScaleFactor: 2, colorScheme: 'light' }],
    ['320-dark-dpr1', { viewport: { width: 320, height: 900 }, deviceScaleFactor: 1, colorScheme: 'dark' }],
  ]) {
    test(`math on the canvas, ${lang} ${name}`, async () => {
      const app = await openApp(`${site.url}?quiz=math-sampler&lang=${lang}`, { browser, ...options });
      const state = await waitForState(app.page, formulasArrived, null, 30000);
      // Every formula but the TeX error is drawn as a picture; one wider than the column starts in
      // it and scrolls inside it (its rectangle runs on, the page does not).
      const drawn = state.items.filter((i) => i.id.startsWith('math:'));
      assert.ok(drawn.length >= 5, `${drawn.length} formulas drawn`);
      const width = options.viewport.width;
      for (const item of drawn) assert.ok(item.x >= 0 && item.x < width, `${item.id} starts inside the page`);
      assert.ok(drawn.some((i) => i.id.startsWith('math:t_1') && i.x + i.w > (width === 320 ? width : 0)), 'the long formula is wider than 320 px');
      assert.ok(await app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page does not scroll sideways');
      await assertCanvasNotBlank(app.page);
      if (ENGINE === 'chromium') {
        fs.mkdirSync(MATH_SHOTS, { recursive: true });
        await app.page.screenshot({ path: path.join(MATH_SHOTS, `math-${lang}-${name}.png`) });
      } else {
        await screenshot(app.page, `math-${lang}-${name}`);
      }
      app.expectNoErrors();
      await app.close();
    });
  }
}
