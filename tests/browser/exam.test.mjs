// Exam mode (issue 17) played to the end in every way a learner plays: the keyboard at 1280 px
// (digits answer, Enter goes on, arrows and Space reach Flag and the confirmation), the mouse at
// 320 px in the dark (the palette, Flag, Submit), a finger at 320 px (a timed exam taken twice, its
// attempts counted), and the accessibility mirror (the palette as a list of buttons with their
// states, the confirmation as a dialog, axe-core clean), in English and Russian. Nothing is told before the submit; a reload mid-exam keeps every answer and flag; the
// confirmation names what is unanswered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, scrollToAndClick,
         openForAxe, focusItem, axeMirror, fingerOnItems, movableClock, moveClock } from './harness.mjs';

const minutes = (n) => n * 60000;

// The README's full example as an exam of its three choice questions, in the bank's order.
const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const full = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
const questions = ['single_choice', 'multiple_choice', 'true_false'].map((type) => full.questions.find((q) => q.type === type));
assert.ok(questions.every(Boolean), 'the README example has the three choice types');
const bank = { ...full, settings: { ...full.settings, mode: 'exam', shuffleChoices: false, shuffleQuestions: false },
               questions };

const site = await startSite({ authoring: { allowBankLinks: true } });
site.faults.set('/dev/exam.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bank));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

site.faults.set('/dev/timed.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ ...bank, settings: { ...bank.settings, timeLimitMinutes: 10 } }));
});

// Two attempts, a quarter of an hour each.
site.faults.set('/dev/twice.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ ...bank, settings: { ...bank.settings, timeLimitMinutes: 15, maxAttempts: 2 } }));
});

const url = (lang) => `${site.url}?bank=dev/exam.json&lang=${lang}`;
const words = {
  en: { unanswered: 'Not answered: 3.', all: 'Every question is answered.', unflag: 'Remove the flag',
        left: 'Attempts left: 1 of 2', none: 'No attempts left', attempt: (n) => `Attempt\u00a0${n}\u00a0of\u00a02`, timeLeft: /^Time left: 14:\d\d$/,
        seeResults: 'See results' },
  ru: { unanswered: 'Без ответа: 3.', all: 'На все вопросы есть ответ.', unflag: 'Снять отметку',
        left: 'Осталось попыток: 1 из 2', none: 'Попыток не осталось', attempt: (n) => `Попытка\u00a0${n}\u00a0из\u00a02`,
        timeLeft: /^Осталось времени: 14:\d\d$/, seeResults: 'К результатам' },
};
const rightDigit = String(questions[0].choices.findIndex((c) => c.correct) + 1);


async function open(lang, options = {}) {
  const app = await openApp(url(lang), { browser, ...options });
  await waitForState(app.page, (s) => s.screen === 'question' && s.question.exam);
  return app;
}

// Nothing of right or wrong on an exam's question.
function assertNothingTold(state) {
  const q = state.question;
  assert.equal(q.feedback, undefined);
  assert.equal(q.tryAgain, null);
  assert.ok(q.choices.every((c) => c.correct === null && !c.feedback), JSON.stringify(q.choices));
}

test('keyboard (en, 1280 px): answer, flag, a reload keeps both, Submit names what is unanswered, then the review', async () => {
  const app = await open('en');
  const { page } = app;
  const press = (key) => page.keyboard.press(key);
  await page.locator('#canvas').focus();
  await press(rightDigit);
  let state = await waitForState(page, (s) => s.question.exam.palette[0].answered);
  assertNothingTold(state);
  await press('Enter');
  state = await waitForState(page, (s) => s.question.index === 2);
  await press('1');
  await waitForState(page, (s) => s.question.exam.palette[1].answered);
  await focusItem(page, 'button:flag');
  await press('Space');
  state = await waitForState(page, (s) => s.question.exam.flagged);
  assert.equal(state.question.exam.flag.label, words.en.unflag);
  await screenshot(page, 'exam-en-1280-flagged');

  await page.reload();
  state = await waitForState(page, (s) => s.screen === 'question' && s.question.exam);
  assert.equal(state.question.index, 2, 'the question the learner was on');
  assert.deepEqual(state.question.exam.palette.map((p) => [p.answered, p.flagged]), [[true, false], [true, true], [false, false]]);
  assert.ok(state.question.choices[0].selected, 'the answer given is there');

  await page.locator('#canvas').focus();
  await press('Enter');
  state = await waitForState(page, (s) => s.question.index === 3);
  assert.equal(state.question.primary.id, 'finish');
  await press('Enter');   // Submit answers… in Next's place
  state = await waitForState(page, (s) => s.question.exam.confirmation);
  assert.equal(state.question.exam.unanswered, words.en.unanswered);
  await screenshot(page, 'exam-en-1280-confirmation');
  await focusItem(page, 'button:cancel-submit');
  await press('Space');
  await waitForState(page, (s) => !s.question.exam.confirmation);
  await page.locator('#canvas').focus();
  await press(questions[2].answer ? '1' : '2');
  await waitForState(page, (s) => s.question.exam.palette[2].answered);
  await press('Enter');
  state = await waitForState(page, (s) => s.question.exam.confirmation);
  assert.equal(state.question.exam.unanswered, words.en.all);
  await focusItem(page, 'button:confirm-submit');
  await press('Space');
  state = await waitForState(page, (s) => s.screen === 'results');
  assert.equal(state.results.questions.length, 3, 'the review');
  assert.ok(!state.results.buttons.some((b) => b.id === 'review'), 'no Review mistakes after an exam');
  await screenshot(page, 'exam-en-1280-results');
  app.expectNoErrors();
  await app.close();
});

// A tall 320 px window: everything the mouse needs is on screen without scrolling (WebKitGTK's
// driver cannot scroll by the wheel: it sends the scroll and its opposite; see play.test.mjs).
test('mouse (ru, 320 px, dark): the palette, Flag, Submit and Confirm', async () => {
  const app = await open('ru', { viewport: { width: 320, height: 1100 }, deviceScaleFactor: 2, colorScheme: 'dark' });
  const { page } = app;
  await scrollToAndClick(page, 'question:3');
  let state = await waitForState(page, (s) => s.question.index === 3);
  await scrollToAndClick(page, `choice:${questions[2].answer ? 'true' : 'false'}`);
  await waitForState(page, (s) => s.question.exam.palette[2].answered);
  await scrollToAndClick(page, 'button:flag');
  state = await waitForState(page, (s) => s.question.exam.flagged);
  assertNothingTold(state);
  await screenshot(page, 'exam-ru-320-dark-palette');
  await scrollToAndClick(page, 'button:finish');
  state = await waitForState(page, (s) => s.question.exam.confirmation);
  assert.equal(state.question.exam.unanswered, 'Без ответа: 1, 2.');
  await screenshot(page, 'exam-ru-320-dark-confirmation');
  await scrollToAndClick(page, 'button:confirm-submit');
  state = await waitForState(page, (s) => s.screen === 'results');
  assert.deepEqual(state.results.questions.map((q) => q.outcome), ['skipped', 'skipped', 'correct']);
  await screenshot(page, 'exam-ru-320-dark-results');
  app.expectNoErrors();
  await app.close();
});

// A phone: every step a tap (a drag where the item is out of sight), in a timed exam that may be
// taken twice. The card counts the attempts; once none is left, no Retry, and the quiz opens on
// the last results.
for (const [lang, colorScheme] of [['en', 'dark'], ['ru', 'light']]) {
  test(`touch (${lang}, 320 px, ${colorScheme}): a timed exam taken twice by finger; then no attempt is left`, async (t) => {
    const app = await openApp(`${site.url}?bank=dev/twice.json&lang=${lang}`,
                              { browser, viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true,
                                colorScheme, initScript: movableClock });
    const { page } = app;
    let state = await waitForState(page, (s) => s.screen === 'question' && s.question.exam && s.question.exam.timeLeft);
    assert.match(state.question.exam.timeLeft, words[lang].timeLeft);
    const { tapItem } = await fingerOnItems(t, page);
    const right = questions[0].choices.find((c) => c.correct).id;
    await tapItem(`choice:${right}`);
    await waitForState(page, (s) => s.question.exam.palette[0].answered);
    await tapItem('question:3');
    await waitForState(page, (s) => s.question.index === 3);
    await tapItem('button:flag');
    state = await waitForState(page, (s) => s.question.exam.flagged);
    assertNothingTold(state);
    await screenshot(page, `exam-${lang}-320-${colorScheme}-countdown`);
    await moveClock(page, minutes(11));   // eleven minutes on: under five left
    state = await waitForState(page, (s) => s.question.exam.timeWarning !== '');
    await screenshot(page, `exam-${lang}-320-${colorScheme}-time-warning`);
    await tapItem('button:finish');
    state = await waitForState(page, (s) => s.question.exam.confirmation);
    assert.equal(state.question.exam.unanswered, lang === 'en' ? 'Not answered: 2, 3.' : 'Без ответа: 2, 3.');
    await tapItem('button:confirm-submit');
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.deepEqual(state.results.questions.map((q) => q.outcome), ['correct', 'skipped', 'skipped']);
    assert.ok(state.results.details.endsWith(words[lang].attempt(1)), state.results.details);
    await screenshot(page, `exam-${lang}-320-${colorScheme}-review`);

    await tapItem('button:catalog');
    state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 1);
    assert.ok(state.banks[0].standing.endsWith(words[lang].left), state.banks[0].standing);
    assert.deepEqual(state.banks[0].buttons.map((b) => b.id), [`open:${bank.id}`], 'no Start over for a limited exam');
    await tapItem(`button:open:${bank.id}`);
    await waitForState(page, (s) => s.screen === 'question' && s.question.exam && !s.question.exam.palette[0].answered);
    await tapItem('button:next');
    await waitForState(page, (s) => s.question.index === 2);
    await tapItem('button:submit');
    await waitForState(page, (s) => s.question.exam.confirmation);
    await tapItem('button:confirm-submit');
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.ok(state.results.details.endsWith(words[lang].attempt(2)), state.results.details);
    assert.ok(!state.results.buttons.some((b) => b.id === 'retry'), 'no Retry with no attempt left');

    // The next visit: the card says so, and its button opens the last results.
    await page.reload();
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.ok(state.results.questions.every((q) => q.outcome === 'skipped'), 'the second attempt\'s results');
    await tapItem('button:catalog');
    state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 1);
    assert.ok(state.banks[0].standing.endsWith(words[lang].none), state.banks[0].standing);
    assert.equal(state.banks[0].buttons[0].label, words[lang].seeResults);
    await screenshot(page, `exam-${lang}-320-${colorScheme}-no-attempts-left`);
    await tapItem(`button:open:${bank.id}`);
    await waitForState(page, (s) => s.screen === 'results');
    app.expectNoErrors();
    await app.close();
  });
}

for (const lang of ['en', 'ru']) {
  test(`the mirror (${lang}): the palette a list of buttons with their states, the confirmation a dialog, axe-core clean`, async (t) => {
    const app = await openForAxe(t, browser, url(lang));
    const { page } = app;
    let state = await waitForState(page, (s) => s.screen === 'question' && s.question.exam);
    await page.waitForFunction(() => document.querySelector('#mirror nav button'), null, { timeout: 30000 });
    const mirror = page.locator('#mirror');
    const palette = state.question.exam.palette;
    // Each question's button is named with its state; the one shown is the current step.
    await mirror.getByRole('button', { name: palette[0].label, exact: true }).focus();
    assert.equal(await mirror.locator('nav button[aria-current="step"]').count(), 1);
    if (app.axe) await axeMirror(page, `an exam's question (${lang})`);
    await mirror.getByRole('button', { name: palette[1].label, exact: true }).focus();
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s) => s.question.index === 2);
    await mirror.getByRole('button', { name: state.question.exam.flag.name, exact: true }).focus();
    await page.keyboard.press('Space');
    state = await waitForState(page, (s) => s.question.exam.flagged);
    await page.waitForFunction(() => document.querySelector('#mirror button[aria-pressed="true"]'), null, { timeout: 5000 });
    await mirror.getByRole('button', { name: state.question.exam.submit.name, exact: true }).focus();
    await page.keyboard.press('Space');
    state = await waitForState(page, (s) => s.question.exam.confirmation);
    // The dialog takes the focus, on its Submit; it says what is not answered.
    await page.waitForFunction(() => document.activeElement && document.activeElement.hasAttribute('data-mirror-confirm'), null,
                               { timeout: 5000 });
    const dialog = mirror.getByRole('alertdialog');
    assert.ok((await dialog.textContent()).includes(state.question.exam.unanswered));
    if (app.axe) await axeMirror(page, `the submit confirmation (${lang})`);
    await screenshot(page, `exam-${lang}-mirror-confirmation`);
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.ok(state.results.questions.every((q) => q.outcome === 'skipped'));
    app.expectNoErrors();
    await app.close();
  });
}


test('a time limit (ru, 1280 px): the countdown, the warning said, a reload keeps the time, at zero the exam is submitted', async () => {
  const app = await openApp(`${site.url}?bank=dev/timed.json&lang=ru`, { browser, initScript: movableClock });
  const { page } = app;
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question.exam && s.question.exam.timeLeft);
  assert.ok(state.question.exam.timeLeftMs > 9 * 60000 && state.question.exam.timeLeftMs <= 10 * 60000, state.question.exam.timeLeft);
  assert.equal(state.question.exam.timeWarning, '');
  await page.locator('#canvas').focus();
  await page.keyboard.press(rightDigit);
  await waitForState(page, (s) => s.question.exam.palette[0].answered);
  // Six minutes later: less than five left, said once by the mirror.
  await moveClock(page, minutes(6));
  state = await waitForState(page, (s) => s.question.exam.timeWarning !== '');
  assert.equal(state.question.exam.timeWarning, 'Осталось меньше 5 минут.');
  assert.match(state.question.exam.timeLeft, /^Осталось времени: [34]:\d\d$/);
  await page.waitForFunction((words) => document.querySelector('#mirror [aria-live]').textContent.includes(words),
                             state.question.exam.timeWarning, { timeout: 5000 });
  await screenshot(page, 'exam-ru-1280-time-warning');
  // A reload does not give the time back. (WebKitGTK's driver runs the init script on the first
  // load only: there the clock is moved again once the page is up, and the countdown follows
  // within its next second.)
  await page.reload();
  await waitForState(page, (s) => s.screen === 'question' && s.question.exam && s.question.exam.timeLeft);
  await page.evaluate(movableClock);
  state = await waitForState(page, (s) => s.question.exam.timeLeftMs < 4 * 60000 + 1000);
  assert.ok(state.question.exam.palette[0].answered, 'the answer is kept');
  // The end: submitted as it stood, and said.
  await moveClock(page, minutes(5));
  state = await waitForState(page, (s) => s.screen === 'results');
  assert.equal(state.notice, 'Время вышло: ваши ответы сданы такими, какими были.');
  assert.deepEqual(state.results.questions.map((q) => q.outcome), ['correct', 'skipped', 'skipped']);
  await screenshot(page, 'exam-ru-1280-time-up');
  app.expectNoErrors();
  await app.close();
});

