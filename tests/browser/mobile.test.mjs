// What a phone's browser (WebKit on every iPhone) needs from the page, checked in each engine as
// far as a desktop engine can check it: the answer field's font at least 16 px at every text size
// (iOS zooms into a smaller one on focus), the app inside the safe area (the page is
// viewport-fit=cover), no double-tap zoom on buttons and the canvas, pinch zoom of the page left
// to the learner, and the answer field inside the visible viewport when that viewport shrinks
// (an on-screen keyboard opening; here, the window getting shorter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, waitForState, clickItem, screenshot, launchBrowser } from './harness.mjs';

const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const example = readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0];

const site = await startSite({ authoring: { allowBankLinks: true } });   // bank= links are used below
site.faults.set('/dev/example.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(example);
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

// Opens the example bank at its first question with an answer field (numeric or short text).
async function atTypedQuestion(page) {
  for (;;) {
    const state = await waitForState(page, (s) => s.screen === 'question' && s.question && !s.question.feedback);
    if (state.question.type === 'numeric' || state.question.type === 'short_text') return state;
    await page.evaluate((choice) => {
      window.ImQuizHost.act({ type: 'select', choice });
      window.ImQuizHost.act({ type: 'check' });
      window.ImQuizHost.act({ type: 'next' });
    }, state.question.choices[0].id);
    await waitForState(page, (s, id) => s.question && s.question.id !== id, state.question.id);
  }
}

const fieldBox = (page) => page.evaluate(() => {
  const field = document.getElementById('answer-field');
  if (!field || field.hidden) return null;
  const r = field.getBoundingClientRect();
  const v = window.visualViewport;
  return { top: r.top, bottom: r.bottom, fontSize: parseFloat(getComputedStyle(field).fontSize),
           viewTop: v ? v.offsetTop : 0, viewBottom: v ? v.offsetTop + v.height : innerHeight };
});

test('the answer field\'s font is at least 16 px at every text size', async () => {
  const app = await openApp(`${site.url}?bank=dev/example.json&lang=en`, { browser });
  await atTypedQuestion(app.page);
  for (const scale of [0.875, 1, 1.125, 1.25, 1.5]) {
    await app.page.evaluate((value) => window.ImQuizHost.act({ type: 'text-size', value }), scale);
    await waitForState(app.page, (s, value) => s.preferences.textScale === value, scale);
    let box = null;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !((box = await fieldBox(app.page)) && box.fontSize >= 16 * Math.min(1, scale) - 0.01)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(box, 'the answer field is shown');
    assert.ok(box.fontSize >= 16, `text size ${scale * 100}%: the field's font is ${box.fontSize} px`);
  }
  app.expectNoErrors();
  await app.close();
});

test('viewport: pinch zoom allowed, the app inside the safe area, no double-tap zoom on controls', async () => {
  const app = await openApp(`${site.url}?lang=en`, { browser });
  const page = app.page;
  await waitForState(page, (s) => s.screen === 'catalog');
  await page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
  const facts = await page.evaluate(() => {
    const meta = document.querySelector('meta[name=viewport]').content;
    const rules = Array.from(document.styleSheets).flatMap((sheet) => Array.from(sheet.cssRules).map((r) => r.cssText));
    const appRule = rules.find((r) => r.startsWith('#app {') || r.startsWith('#app{')) || '';
    const button = document.querySelector('#mirror button');
    return { meta, appRule, canvas: getComputedStyle(document.getElementById('canvas')).touchAction,
             button: button ? getComputedStyle(button).touchAction : null,
             appBox: document.getElementById('app').getBoundingClientRect().toJSON(), width: innerWidth, height: innerHeight };
  });
  assert.doesNotMatch(facts.meta, /user-scalable\s*=\s*(no|0)/, 'pinch zoom is not switched off');
  assert.doesNotMatch(facts.meta, /maximum-scale\s*=\s*1(\.0*)?\b/, 'pinch zoom is not capped at 1');
  assert.match(facts.meta, /viewport-fit=cover/);
  for (const side of ['top', 'right', 'bottom', 'left']) {
    assert.ok(facts.appRule.includes(`safe-area-inset-${side}`), `#app keeps out of the ${side} safe-area inset: ${facts.appRule}`);
  }
  // No insets on a desktop screen: the app fills the window.
  assert.deepEqual([facts.appBox.x, facts.appBox.y, facts.appBox.width, facts.appBox.height], [0, 0, facts.width, facts.height]);
  assert.equal(facts.canvas, 'pinch-zoom', 'one finger is the app\'s, two are the browser\'s zoom; no double-tap zoom');
  assert.equal(facts.button, 'manipulation', 'a double tap on a button is not a zoom');
  app.expectNoErrors();
  await app.close();
});

test('the answer field stays in the visible viewport when it shrinks (an on-screen keyboard)', async () => {
  const app = await openApp(`${site.url}?bank=dev/example.json&lang=en`, { browser, viewport: { width: 800, height: 700 } });
  const page = app.page;
  await atTypedQuestion(page);
  await clickItem(page, 'input:answer');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'answer-field');
  // The visible part shrinks to the upper half, as when a keyboard slides up.
  await page.setViewportSize({ width: 800, height: 350 });
  await page.waitForFunction(() => Math.round((window.visualViewport || window).height || innerHeight) <= 350);
  let box = null;
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    box = await fieldBox(page);
    if (box && box.top >= box.viewTop && box.bottom <= box.viewBottom) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await screenshot(page, 'mobile-field-short-viewport');
  assert.ok(box && box.top >= box.viewTop && box.bottom <= box.viewBottom,
            `the focused field is visible: ${JSON.stringify(box)}`);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'answer-field', 'and keeps the focus');
  app.expectNoErrors();
  await app.close();
});
