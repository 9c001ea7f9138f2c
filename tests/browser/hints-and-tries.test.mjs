// Hints, tries and feedback by score (issue 17, practice) in every way a learner answers: the
// keyboard at 1280 px (a digit picks, Enter checks, arrows and Space reach "Show a hint"), a
// finger at 320 px in the dark, and the accessibility mirror (axe-core clean, the try and the hint
// announced), in English and Russian. A reload in the middle keeps the hint, the try and the
// answer tried; the results show what they cost and the bank's words for the score's range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, fingerOnItems,
         openForAxe, focusItem, axeMirror } from './harness.mjs';

// The README's full example: its single-choice question (which has a hint) with two tries, and its
// true/false question; its feedback ranges. Choices in the bank's order, so digits are known.
const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const full = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
const single = full.questions.find((q) => q.type === 'single_choice');
const trueFalse = full.questions.find((q) => q.type === 'true_false');
assert.ok(single.hints && single.hints.length, 'the README example has a question with a hint');
assert.ok(full.feedbackRanges && full.feedbackRanges.length, 'the README example has feedback ranges');
const bank = { ...full, settings: { ...full.settings, shuffleChoices: false, shuffleQuestions: false, maxTries: 2 },
               questions: [single, trueFalse] };
const wrong = single.choices.findIndex((c) => !c.correct && c.feedback);
const right = single.choices.findIndex((c) => c.correct);

const site = await startSite({ authoring: { allowBankLinks: true } });
site.faults.set('/dev/hints.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bank));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

const text = (value, lang) => (typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage]);
const url = (lang) => `${site.url}?bank=dev/hints.json&lang=${lang}`;
const words = {
  en: { notYet: 'Not right yet', left: 'Tries left: 1.', hint: 'Hint 1 of 1', costs: 'Hints used: 1 · Tries: 2 · Points: 0.57 of 1' },
  ru: { notYet: 'Пока неверно', left: 'Осталось попыток: 1.', hint: 'Подсказка 1 из 1', costs: 'Подсказок: 1 · Попыток: 2 · Баллы: 0.57 из 1' },
};

async function open(lang, options = {}) {
  const app = await openApp(url(lang), { browser, ...options });
  await waitForState(app.page, (s) => s.screen === 'question' && s.question.id === single.id);
  return app;
}

// The try that was not right, as every rendering is told it.
function assertTryTold(state, lang) {
  const q = state.question;
  assert.equal(q.feedback, undefined, 'not checked: the answer is not given away');
  assert.ok(q.tryAgain, 'told to try again');
  assert.equal(q.tryAgain.verdict, words[lang].notYet);
  assert.ok(q.tryAgain.message.startsWith(words[lang].left), q.tryAgain.message);
  const picked = q.choices.find((c) => c.id === single.choices[wrong].id);
  assert.equal(picked.feedback, text(single.choices[wrong].feedback, lang), 'the picked choice says its feedback');
  assert.ok(q.choices.every((c) => c.correct === null), 'no choice is marked right');
}

// The rest of the quiz (the true/false question right) and the results.
async function finish(page, lang, name, pressKey) {
  await pressKey('Enter');
  await waitForState(page, (s) => s.question && s.question.id === trueFalse.id);
  await pressKey(trueFalse.answer ? '1' : '2');
  await waitForState(page, (s) => s.question.choices.some((c) => c.selected));
  await pressKey('Enter');
  await waitForState(page, (s) => s.question.feedback);
  await pressKey('Enter');
  const state = await waitForState(page, (s) => s.screen === 'results');
  const percent = state.results.percent;
  const range = bank.feedbackRanges.find((r) => Math.floor(percent) >= r.from && Math.floor(percent) <= r.to);
  assert.equal(state.results.feedback, text(range.text, lang), `the feedback for ${percent}%`);
  assert.equal(state.results.questions[0].costs, words[lang].costs);
  await screenshot(page, `${name}-results`);
  return state;
}

for (const [lang, colorScheme] of [['en', 'light'], ['ru', 'dark']]) {
  test(`keyboard (${lang}, 1280 px, ${colorScheme}): a wrong try told, a hint by arrows and Space, a reload keeps both, right on the last try`, async () => {
    const app = await open(lang, { colorScheme });
    const { page } = app;
    const press = (key) => page.keyboard.press(key);
    let state = await appState(page);
    assert.equal(state.question.tries, lang === 'en' ? 'Try 1 of 2' : 'Попытка 1 из 2');
    assert.ok(state.question.hint.name.includes('10%'), state.question.hint.name);
    await page.locator('#canvas').focus();
    await press(String(wrong + 1));
    await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, single.choices[wrong].id);
    await press('Enter');
    state = await waitForState(page, (s) => s.question.tryAgain);
    assertTryTold(state, lang);
    await screenshot(page, `hints-${lang}-1280-${colorScheme}-try-again`);

    await focusItem(page, 'button:hint');
    await press('Space');
    state = await waitForState(page, (s) => s.question.hints.length === 1);
    assert.equal(state.question.hints[0].heading, words[lang].hint);
    assert.equal(state.question.hints[0].text, text(single.hints[0].text, lang));
    assert.equal(state.question.hint, null, 'no hint is left');
    await screenshot(page, `hints-${lang}-1280-${colorScheme}-hint`);

    // A reload: the hint, the try and the answer tried are all back.
    await page.reload();
    state = await waitForState(page, (s) => s.screen === 'question' && s.question.id === single.id);
    assertTryTold(state, lang);
    assert.equal(state.question.hints.length, 1);
    assert.ok(state.question.choices[wrong].selected, 'the answer tried is selected again');

    await page.locator('#canvas').focus();
    await press(String(right + 1));
    await press('Enter');
    state = await waitForState(page, (s) => s.question.feedback);
    assert.equal(state.question.feedback.correct, true);
    assert.equal(state.question.feedback.costs, words[lang].costs);
    assert.equal(state.question.tryAgain, null);
    await screenshot(page, `hints-${lang}-1280-${colorScheme}-checked`);
    await finish(page, lang, `hints-${lang}-1280-${colorScheme}`, press);
    app.expectNoErrors();
    await app.close();
  });
}

for (const [lang, colorScheme] of [['ru', 'dark'], ['en', 'light']]) {
  test(`touch at 320 px (${lang}, ${colorScheme}): tap a wrong choice and Check, tap Show a hint, tap the right one`, async (t) => {
    const app = await open(lang, { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true,
                                   colorScheme });
    const { page } = app;
    const { tapItem } = await fingerOnItems(t, page);
    await tapItem(`choice:${single.choices[wrong].id}`);
    await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, single.choices[wrong].id);
    await tapItem('button:check');
    const state = await waitForState(page, (s) => s.question.tryAgain);
    assertTryTold(state, lang);
    await screenshot(page, `hints-${lang}-320-${colorScheme}-try-again`);
    await tapItem('button:hint');
    await waitForState(page, (s) => s.question.hints.length === 1);
    await screenshot(page, `hints-${lang}-320-${colorScheme}-hint`);
    await tapItem(`choice:${single.choices[right].id}`);
    await tapItem('button:check');
    await waitForState(page, (s) => s.question.feedback && s.question.feedback.correct);
    await screenshot(page, `hints-${lang}-320-${colorScheme}-checked`);
    app.expectNoErrors();
    await app.close();
  });
}

for (const lang of ['en', 'ru']) {
  test(`the mirror (${lang}): the try and the hint announced, a hint button, axe-core clean`, async (t) => {
    const app = await openForAxe(t, browser, url(lang));
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.question.id === single.id);
    await page.waitForFunction(() => document.querySelector('#mirror input[type=radio]'), null, { timeout: 30000 });
    const mirror = page.locator('#mirror');
    // As a keyboard user there: focus on the radio, Space picks it (the panel slides in on focus).
    await mirror.getByRole('radio', { name: text(single.choices[wrong].text, lang), exact: true }).focus();
    await page.keyboard.press('Space');
    await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, single.choices[wrong].id);
    await page.keyboard.press('Enter');   // in the form: Check
    const state = await waitForState(page, (s) => s.question.tryAgain);
    assertTryTold(state, lang);
    await page.waitForFunction((words) => document.querySelector('#mirror [aria-live]').textContent.includes(words),
                               state.question.tryAgain.message, { timeout: 5000 });
    if (app.axe) await axeMirror(page, `a try told (${lang})`);
    await mirror.getByRole('button', { name: state.question.hint.name, exact: true }).focus();
    await page.keyboard.press('Space');
    await waitForState(page, (s) => s.question.hints.length === 1);
    await page.waitForFunction((words) => document.querySelector('#mirror .mirror-hint') &&
                                          document.querySelector('#mirror .mirror-hint').textContent.includes(words),
                               text(single.hints[0].text, lang), { timeout: 5000 });
    await page.waitForFunction((words) => document.querySelector('#mirror [aria-live]').textContent.includes(words),
                               text(single.hints[0].text, lang), { timeout: 5000 });
    if (app.axe) await axeMirror(page, `a hint shown (${lang})`);
    await screenshot(page, `hints-${lang}-mirror-hint`);
    app.expectNoErrors();
    await app.close();
  });
}
