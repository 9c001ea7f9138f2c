// Both launch quizzes played end to end in Chromium: by mouse clicks at the real positions of the
// widgets, and by keyboard only; feedback, explanations and the final score are checked against
// the bank files; then "Review mistakes" after a deliberately imperfect run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSite, openApp, waitForState, appState, clickItem, scrollToAndClick, screenshot, launchBrowser,
         SITE_DIR, ENGINE, skipStep } from './harness.mjs';
import { bankWords } from './bank-words.mjs';

const site = await startSite();
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

const banks = Object.fromEntries(['data-parallelism', 'model-pipeline-parallelism'].map((id) =>
  [id, JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', `${id}.json`), 'utf8'))]));
// The words the app shows for a bank text (a Markdown bank's code, math and images read as words).
const text = (value, lang, bank) => bankWords(typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage], bank);
const question = (bank, id) => bank.questions.find((q) => q.id === id);
const correctId = (q) => q.choices.find((c) => c.correct).id;

// A click on an item, scrolled to. WebKitGTK's driver delivers a wheel scroll as two opposite
// wheel events (+200, then -200: nothing moves), so an item below the fold (Next under the
// schedule drawing and its explanation) cannot be reached by the mouse there: the test names the
// step and presses the key the app gives it (`key`), as a learner at the keyboard would.
async function clickOrKey(t, page, id, key) {
  try {
    await scrollToAndClick(page, id, { maxScrolls: ENGINE === 'webkit' ? 2 : 40 });
  } catch (error) {
    if (ENGINE !== 'webkit' || !t) throw error;
    await skipStep(t, `click ${id} below the fold`, 'WebKitGTK\'s driver turns a wheel scroll into two opposite wheel events');
    await page.keyboard.press(key);
  }
}

// Plays the quiz open on `page`. `answerWrong` lists question numbers (1-based) to get wrong.
// `by` is 'mouse' or 'keyboard'. Returns the results state.
async function play(page, bankId, lang, { by = 'mouse', answerWrong = [], tag = '', t = null } = {}) {
  const bank = banks[bankId];
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  const total = state.question.total;
  for (let n = 1; n <= total; n++) {
    state = await waitForState(page, (s, k) => s.screen === 'question' && s.question.index === k && !s.question.feedback, n);
    const q = question(bank, state.question.id);
    assert.equal(state.question.prompt, text(q.prompt, lang, bank), `prompt of ${q.id} in ${lang}`);
    const wrong = answerWrong.includes(n);
    const pick = wrong ? q.choices.find((c) => !c.correct).id : correctId(q);
    const position = state.question.choices.findIndex((c) => c.id === pick) + 1;
    if (by === 'mouse') {
      await scrollToAndClick(page, `choice:${pick}`);
      await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, pick);
      if (n === 1 && tag) await screenshot(page, `${tag}-question-selected`);
      await scrollToAndClick(page, 'button:check');
    } else {
      await page.keyboard.press(String(position));
      await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, pick);
      await page.keyboard.press('Enter');
    }
    state = await waitForState(page, (s) => s.question && s.question.feedback);
    const feedback = state.question.feedback;
    assert.equal(feedback.correct, !wrong, `verdict for ${q.id}`);
    assert.equal(feedback.explanation, text(q.explanation, lang, bank), `explanation of ${q.id} in ${lang}`);
    assert.deepEqual(feedback.correctAnswer, [text(q.choices.find((c) => c.correct).text, lang, bank)]);
    if (wrong) {
      const chosen = state.question.choices.find((c) => c.id === pick);
      const authored = q.choices.find((c) => c.id === pick).feedback;
      if (authored) assert.equal(chosen.feedback, text(authored, lang, bank), 'per-choice feedback shown');
    }
    if (n === 1 && tag) await screenshot(page, `${tag}-question-checked`);
    if (by === 'mouse') await clickOrKey(t, page, 'button:next', 'Enter');
    else await page.keyboard.press('Enter');
  }
  return waitForState(page, (s) => s.screen === 'results' && s.results);
}

for (const bankId of Object.keys(banks)) {
  test(`${bankId}: whole quiz by mouse, all right (en)`, async (t) => {
    const app = await openApp(site.url + '?lang=en', { browser });
    await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
    await clickItem(app.page, `button:open:${bankId}`);
    const state = await play(app.page, bankId, 'en', { by: 'mouse', tag: `play-${bankId}-mouse`, t });
    assert.equal(state.results.score, 8);
    assert.equal(state.results.percent, 100);
    assert.equal(state.results.passed, true);
    assert.equal(state.results.missed, 0);
    await screenshot(app.page, `play-${bankId}-results`);
    app.expectNoErrors();
    await app.close();
  });

  test(`${bankId}: whole quiz by keyboard only, then Review mistakes (ru)`, async () => {
    const app = await openApp(site.url + `?lang=ru&quiz=${bankId}`, { browser });
    let state = await play(app.page, bankId, 'ru', { by: 'keyboard', answerWrong: [2, 5] });
    assert.equal(state.results.score, 6);
    assert.equal(state.results.percent, 75);
    assert.equal(state.results.passed, true, '75% passes a 70% pass mark');
    assert.equal(state.results.missed, 2);
    const missed = state.results.questions.filter((q) => q.outcome !== 'correct').map((q) => q.id);
    await screenshot(app.page, `play-${bankId}-results-imperfect-ru`);
    await scrollToAndClick(app.page, 'button:review');
    state = await waitForState(app.page, (s) => s.screen === 'question' && s.question.index === 1);
    assert.equal(state.question.total, 2, 'review has only the missed questions');
    assert.ok(missed.includes(state.question.id));
    state = await play(app.page, bankId, 'ru', { by: 'keyboard' });
    assert.equal(state.results.score, 2);
    assert.deepEqual(state.results.questions.map((q) => q.id).sort(), missed.sort());
    app.expectNoErrors();
    await app.close();
  });
}

test('Esc goes back to the catalog, Continue resumes the attempt', async () => {
  const app = await openApp(site.url + '?lang=id', { browser });
  await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
  await clickItem(app.page, 'button:open:data-parallelism');
  let state = await waitForState(app.page, (s) => s.screen === 'question');
  const first = state.question.id;
  await app.page.keyboard.press('1');
  await app.page.keyboard.press('Enter');
  await waitForState(app.page, (s) => s.question.feedback);
  await app.page.keyboard.press('Enter');
  state = await waitForState(app.page, (s) => s.screen === 'question' && s.question.index === 2);
  const second = state.question.id;
  assert.notEqual(second, first);
  await app.page.keyboard.press('Escape');
  state = await waitForState(app.page, (s) => s.screen === 'catalog');
  assert.equal(state.banks[0].inProgress, true);
  await clickItem(app.page, 'button:open:data-parallelism');
  state = await waitForState(app.page, (s) => s.screen === 'question');
  assert.equal(state.question.index, 2, 'resumed at the same question');
  assert.equal(state.question.id, second);
  app.expectNoErrors();
  await app.close();
});

// Keys that arrive between two frames (a fast typist, a busy machine) are still taken one intent
// per frame: "2" picks, then Enter checks what was picked. Dispatched in one task, so both
// surely land before the next frame.
test('a digit and Enter within one frame: the choice is picked, then checked', async () => {
  const app = await openApp(site.url + '?lang=en&quiz=data-parallelism', { browser, waitFor: 'first-question' });
  const state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
  await app.page.evaluate(() => {
    const canvas = document.getElementById('canvas');
    const key = (type, key, code) => canvas.dispatchEvent(new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true }));
    key('keydown', '2', 'Digit2'); key('keyup', '2', 'Digit2');
    key('keydown', 'Enter', 'Enter'); key('keyup', 'Enter', 'Enter');
  });
  const checked = await waitForState(app.page, (s) => s.question.feedback);
  assert.equal(checked.question.index, state.question.index);
  assert.equal(checked.question.choices[1].selected, true, 'the second choice was picked');
  assert.equal(checked.question.choices.filter((c) => c.selected).length, 1);
  app.expectNoErrors();
  await app.close();
});
