// Accessibility (issue 7): the semantic mirror of the canvas (web/a11y.js) in Chromium.
// - Each screen's accessibility tree (Playwright's ariaSnapshot) has the roles and names a screen
//   reader needs, in the interface language.
// - A whole quiz is played through the mirror by keyboard only (Tab, Shift+Tab, Space, arrows,
//   Enter), checking where focus goes and what the live region announces after every check.
// - axe-core finds no serious or critical violation on any screen, in English and Russian, with the
//   mirror hidden and with its focused panel showing.
// - Titles and language per screen, high contrast, dark scheme, reduced motion, text size and
//   zoom/reflow reach both the canvas and the mirror; bank text stays text.
// Screenshots of the visible focused panel go to the artifacts folder (a11y-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { startSite, openApp, waitForState, appState, screenshot, launchBrowser, SITE_DIR, ARTIFACTS,
         screenshotColors, ENGINE, skipStep, Unsupported } from './harness.mjs';
import { bankWords } from './bank-words.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const banks = Object.fromEntries(['data-parallelism', 'model-pipeline-parallelism'].map((id) =>
  [id, JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', `${id}.json`), 'utf8'))]));
// The words the app shows for a bank text (a Markdown bank's code, math and images read as words).
const text = (value, lang, bank) => bankWords(typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage], bank);
const questionOf = (bank, id) => bank.questions.find((q) => q.id === id);

// The README's full example bank (every question type), served as a bank under development; its
// first prompt carries markup that must come out as text.
const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const example = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
const MARKUP = '<img src=x data-injected=1> <b>bold</b>';
example.questions[0].prompt.en += ' ' + MARKUP;

const site = await startSite({ authoring: { allowBankLinks: true } });   // bank= links are used below
site.faults.set('/dev/example.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(example));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

// Words the mirror must use (src/ui/strings.cpp), for the checks below.
const WORDS = {
  en: { check: 'Check', next: 'Next', seeResults: 'See results', back: 'Back', correct: 'Correct', incorrect: 'Incorrect',
        correctAnswer: 'Correct answer', results: 'Results', settings: 'Settings', questionOf: (i, n) => `Question ${i} of ${n}`,
        start: 'Start', score: (a, b) => `${a} of ${b} points`, passed: 'Passed', retry: 'Retry', review: 'Review mistakes',
        reviewRound: 'Review round', practice: 'Practice: not counted as a score',
        catalog: 'Back to quizzes', quizzes: 'Quizzes', language: 'Language', theme: 'Theme', textSize: 'Text size',
        explanation: 'Explanation', selectOne: 'Choose one answer.' },
  ru: { check: 'Проверить', next: 'Далее', seeResults: 'К результатам', back: 'Назад', correct: 'Верно', incorrect: 'Неверно',
        correctAnswer: 'Правильный ответ', results: 'Результаты', settings: 'Настройки', questionOf: (i, n) => `Вопрос ${i} из ${n}`,
        start: 'Начать', score: (a, b) => `${a} из ${b} баллов`, passed: 'Тест пройден', retry: 'Пройти снова',
        reviewRound: 'Повторение', practice: 'Тренировка: в результат теста не входит',
        review: 'Разобрать ошибки', catalog: 'К списку тестов', quizzes: 'Тесты', language: 'Язык', theme: 'Тема',
        textSize: 'Размер текста', explanation: 'Пояснение', selectOne: 'Выберите один ответ.' },
};

// ---- Helpers ----------------------------------------------------------------------------------

function sentence(value) {
  const t = String(value || '').trim();
  return !t ? '' : /[.!?…:;)»"”]$/.test(t) ? t : `${t}.`;
}

// What the live region must say after a check (verdict, the chosen choice's own feedback, the
// right answer when wrong, the explanation).
function expectedAnnouncement(bank, q, lang, chosenId) {
  const words = WORDS[lang];
  const right = q.choices.find((c) => c.correct);
  const chosen = q.choices.find((c) => c.id === chosenId);
  const wrong = chosenId !== right.id;
  const parts = [sentence(wrong ? words.incorrect : words.correct)];
  if (wrong && chosen.feedback) parts.push(sentence(text(chosen.feedback, lang, bank)));
  if (wrong) parts.push(sentence(`${words.correctAnswer}: ${text(right.text, lang, bank)}`));
  parts.push(sentence(text(q.explanation, lang, bank)));
  return parts.filter(Boolean).join(' ');
}

async function mirrorSnapshot(page) {
  return page.locator('#mirror').ariaSnapshot();
}

// Every expected line (a fragment of one, or a RegExp) must appear in the snapshot.
function assertSnapshotHas(snapshot, expected, what) {
  for (const line of expected) {
    const found = line instanceof RegExp ? line.test(snapshot) : snapshot.includes(line);
    assert.ok(found, `${what}: the accessibility tree lacks ${line instanceof RegExp ? line : JSON.stringify(line)}:\n${snapshot}`);
  }
}

async function focused(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    return { tag: e.tagName.toLowerCase(), type: e.type || '', id: e.id, text: e.textContent.trim(),
             label: e.labels && e.labels[0] ? e.labels[0].textContent : '', ariaLabel: e.getAttribute('aria-label') || '',
             checked: !!e.checked, inMirror: !!e.closest('#mirror') };
  });
}

async function waitFocus(page, predicate, what, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let current;
  for (;;) {
    current = await focused(page);
    if (predicate(current)) return current;
    if (Date.now() > deadline) throw new Error(`focus: expected ${what}, got ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

async function waitLive(page, expected, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let said = '';
  for (;;) {
    said = await page.locator('#mirror-live').textContent();
    if (said === expected) return said;
    if (Date.now() > deadline) assert.equal(said, expected, 'what the live region announced');
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

// Polls an async condition from node (the page's CSP forbids evaluating test code inside it).
async function until(condition, what, timeout = 10000) {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

// Answers the current question through the mirror: focus the radio, Space, Enter (the form
// submits: Check); then Next from the feedback. Returns the state with feedback.
async function answerInMirror(page, choiceText) {
  const radio = page.locator('#mirror').getByRole('radio', { name: choiceText, exact: true });
  await radio.focus();
  await page.keyboard.press('Space');
  await waitForState(page, (s, t) => s.question.choices.some((c) => c.text === t && c.selected), choiceText);
  await page.keyboard.press('Enter');
  return waitForState(page, (s) => s.question && s.question.feedback);
}

async function nextInMirror(page) {
  const before = await appState(page);
  await page.locator('#mirror button[data-action=next]').focus();
  await page.keyboard.press('Enter');
  return waitForState(page, (s, index) => s.screen !== 'question' || s.question.index !== index, before.question.index);
}

async function playToResults(page, bankId, lang) {
  const bank = banks[bankId];
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question && !s.question.feedback);
  while (state.screen === 'question') {
    const q = questionOf(bank, state.question.id);
    await answerInMirror(page, text(q.choices.find((c) => c.correct).text, lang, bank));
    state = await nextInMirror(page);
  }
  return waitForState(page, (s) => s.screen === 'results' && s.results);
}

async function openCatalog(lang, options = {}) {
  const app = await openApp(site.url + `?lang=${lang}`, { browser, ...options });
  await waitForState(app.page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
  return app;
}

// Focus on the canvas as a learner who works there has it: focus there and a key pressed on it.
// Focus moved there alone, a11y.js hands it back to the mirror with the next state (whoever worked
// in the mirror must not be stranded on the canvas): a state that came during an axe scan slid the
// panel in under it, which read its colours half-way (contrast 1.26, results screen). Such a state
// can also come between the focus and the key (Firefox): then the key went to the mirror, and both
// are done again.
async function toCanvas(page) {
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.locator('#canvas').focus();
    await page.keyboard.press('Shift');
    if (await page.evaluate(() => document.activeElement === document.getElementById('canvas'))) return;
  }
  throw new Error('focus did not stay on the canvas');
}

// Shows the mirror's panel (focus on its first heading, unless focus is in it already) once it
// has slid in (unless reduced motion is asked for).
async function showPanel(page) {
  if (!(await focused(page)).inMirror) await page.locator('#mirror [data-mirror-h1]').focus();
  await page.locator('#mirror').evaluate((m) => Promise.all(m.getAnimations().map((a) => a.finished)));
}

async function panelScreenshot(page, name) {
  await showPanel(page);
  return screenshot(page, `a11y-${name}`);
}

// The colour at (x, y) of a screenshot of the page, decoded by the browser itself.
async function pixel(page, x, y) {
  return (await screenshotColors(page, [[x, y]])).at[0];
}

// Media features as the test asks for them; false (with a named skip) where the engine cannot
// emulate them.
async function emulate(t, page, options) {
  try {
    await page.emulateMedia(options);
    return true;
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    await skipStep(t, `media ${JSON.stringify(options)}`, error.message);
    return false;
  }
}

// ---- 1 and 3. Every screen: its accessibility tree, and axe-core ---------------------------------

async function axeScan(page) {
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    const mirror = document.getElementById('mirror');
    const when = { focusInMirror: mirror.contains(document.activeElement), pageHasFocus: document.hasFocus(),
                   opacity: getComputedStyle(mirror).opacity, transform: getComputedStyle(mirror).transform,
                   animations: mirror.getAnimations().map((a) => `${a.playState} ${a.currentTime}`) };
    // Each node with what axe measured (colour contrast: the colours, the ratio, the size), so a
    // finding says what and where, also when it comes only now and then.
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, when,
                                           nodes: v.nodes.slice(0, 5).map((n) => ({
                                             target: n.target.join(' '), html: n.html.slice(0, 200),
                                             data: [...n.any, ...n.all].map((check) => check.data).filter(Boolean) })) }));
  });
}

for (const lang of ['en', 'ru']) {
  test(`every screen: expected roles and names, and no serious or critical axe-core violation (${lang})`, async () => {
    // axe is injected as an inline script, which the page's CSP (rightly) refuses: only this
    // context ignores the CSP. The other tests run the mirror under the real policy.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const app = await openApp(site.url + `?lang=${lang}`, { context });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
    // The mirror (a11y.js) loads after the first screen: its catalog, not the app's state, is read.
    await page.waitForFunction(() => document.querySelector('#mirror h1'), null, { timeout: 30000 });
    await page.addScriptTag({ content: axeSource });
    const findings = [];
    // axe twice per screen: mirror hidden (what a mouse user has), and its focused panel showing
    // (so colour contrast is checked on it too). Then the panel's screenshot.
    const check = async (screen) => {
      await toCanvas(page);
      for (const v of await axeScan(page)) findings.push({ screen, ...v });
      assert.equal((await focused(page)).inMirror, false, `focus stayed on the canvas during the scan (${screen})`);
      await showPanel(page);
      for (const v of await axeScan(page)) findings.push({ screen: `${screen} (panel)`, ...v });
      await screenshot(page, `a11y-${lang}-${screen}`);
    };
    const words = WORDS[lang];
    const bank = banks['data-parallelism'];
    const title = text(bank.title, lang, bank);

    let snapshot = await mirrorSnapshot(page);
    assertSnapshotHas(snapshot, ['heading "ImQuiz" [level=1]', `button "${words.settings}"`, `list "${words.quizzes}"`,
                                 `heading "${title}" [level=2]`, `button "${words.start}: ${title}"`], 'catalog');
    await check('catalog');

    // Start through the mirror's own button.
    await page.locator('#mirror').getByRole('button', { name: `${words.start}: ${title}` }).focus();
    await page.keyboard.press('Enter');
    let state = await waitForState(page, (s) => s.screen === 'question' && s.question);
    const q = questionOf(bank, state.question.id);
    const prompt = text(q.prompt, lang, bank);
    snapshot = await mirrorSnapshot(page);
    assertSnapshotHas(snapshot, [
      `heading "${title}" [level=1]`, `button "${words.back}"`, `paragraph: ${words.questionOf(1, 8)}`,
      `heading "${prompt}" [level=2]`, `paragraph: ${words.selectOne}`, `radiogroup "${prompt}"`,
      ...state.question.choices.map((c) => `radio "${c.text}"`), `button "${words.check}" [disabled]`,
    ], 'question');
    assert.equal(await page.locator('#mirror [role=radiogroup] input[type=radio]').count(), state.question.choices.length);
    await check('question');

    // Checked (wrong, so every part of the feedback shows): the verdict region, the right answer,
    // the explanation, Next; the choices are read-only.
    const wrongChoice = q.choices.find((c) => !c.correct);
    await answerInMirror(page, text(wrongChoice.text, lang, bank));
    await waitLive(page, expectedAnnouncement(bank, q, lang, wrongChoice.id));
    snapshot = await mirrorSnapshot(page);
    assertSnapshotHas(snapshot, [
      `radio "${text(wrongChoice.text, lang, bank)}" [checked] [disabled]`, `region "${words.incorrect}"`,
      `heading "${words.incorrect}" [level=2]`, `paragraph: "${words.correctAnswer}: ${text(q.choices.find((c) => c.correct).text, lang, bank)}"`,
      `heading "${words.explanation}" [level=3]`, `button "${words.next}"`, new RegExp(`- status: "?${words.incorrect}\\. `),
    ], 'checked question');
    assert.ok(!snapshot.includes(`button "${words.check}"`), 'Check is gone once checked');
    await check('question-checked');

    await nextInMirror(page);
    state = await playToResults(page, 'data-parallelism', lang);
    snapshot = await mirrorSnapshot(page);
    assertSnapshotHas(snapshot, [
      `heading "${words.results}" [level=1]`, 'paragraph: 88%', `paragraph: ${words.score(7, 8)}`,
      `paragraph: ${words.passed}`, `button "${words.review}"`, `button "${words.retry}"`, `button "${words.catalog}"`,
    ], 'results');
    assert.equal(await page.locator('#mirror ol > li').count(), 8, 'every question listed in the results');
    await check('results');

    await page.locator('#mirror').getByRole('button', { name: words.catalog }).focus();
    await page.keyboard.press('Enter');
    await waitForState(page, (s) => s.screen === 'catalog');
    await page.locator('#mirror').getByRole('button', { name: words.settings }).focus();
    await page.keyboard.press('Enter');
    await waitForState(page, (s) => s.screen === 'settings');
    snapshot = await mirrorSnapshot(page);
    assertSnapshotHas(snapshot, [
      `heading "${words.settings}" [level=1]`, `button "${words.back}"`, `group "${words.language}"`,
      'radio "English"' + (lang === 'en' ? ' [checked]' : ''), 'radio "Русский"' + (lang === 'ru' ? ' [checked]' : ''),
      'radio "Bahasa Indonesia"', `group "${words.theme}"`, `group "${words.textSize}"`, 'radio "100%" [checked]',
    ], 'settings');
    await check('settings');

    fs.writeFileSync(path.join(ARTIFACTS, `a11y-axe-${lang}.json`), JSON.stringify(findings, null, 2));
    const severe = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
    assert.deepEqual(severe, [], `axe found serious or critical problems (${lang})`);
    app.expectNoErrors();
    await app.close();
  });
}

// ---- 2. A whole quiz by keyboard only, through the mirror ----------------------------------------

test('whole quiz through the mirror by keyboard only: focus, live announcements, score (en)', async () => {
  const lang = 'en';
  const words = WORDS[lang];
  const bankId = 'model-pipeline-parallelism';
  const bank = banks[bankId];
  const title = text(bank.title, lang, bank);
  const answerWrong = [2, 5];
  const app = await openCatalog(lang);
  const { page } = app;

  // The canvas has the focus at start; a keyboard user enters the mirror at its first control.
  await page.locator('#mirror button').first().focus();
  let at = await focused(page);
  assert.equal(at.text, words.settings, 'the first control of the catalog is Settings');
  await page.keyboard.press('Tab');   // Start: data-parallelism
  await page.keyboard.press('Tab');   // Start: model-pipeline-parallelism
  at = await focused(page);
  assert.equal(at.ariaLabel, `${words.start}: ${title}`);
  await panelScreenshot(page, 'keyboard-catalog');
  await page.keyboard.press('Enter');

  let state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  await waitFocus(page, (f) => f.tag === 'h1' && f.text === title, 'the question screen heading');
  const total = state.question.total;
  for (let n = 1; n <= total; n++) {
    state = await waitForState(page, (s, k) => s.screen === 'question' && s.question.index === k && !s.question.feedback, n);
    const q = questionOf(bank, state.question.id);
    const prompt = text(q.prompt, lang, bank);
    assert.equal(await page.title(), `${words.questionOf(n, total)} – ${title} – ImQuiz`);
    if (n === 1) {
      await page.keyboard.press('Tab');
      await waitFocus(page, (f) => f.tag === 'button' && f.text === words.back, 'Back');
      await page.keyboard.press('Tab');
      await waitFocus(page, (f) => f.type === 'radio', 'the first choice');
      await page.keyboard.press('Shift+Tab');
      await waitFocus(page, (f) => f.tag === 'button' && f.text === words.back, 'Back again (Shift+Tab)');
    } else {
      await waitFocus(page, (f) => f.tag === 'h2' && f.text === prompt, 'the new prompt after Next');
      assert.equal(await page.locator('#mirror-live').textContent(), '', 'the last verdict does not linger');
    }
    await page.keyboard.press('Tab');
    await waitFocus(page, (f) => f.type === 'radio' && f.label === state.question.choices[0].text, 'the first choice');

    const wrong = answerWrong.includes(n);
    const pick = wrong ? q.choices.find((c) => !c.correct).id : q.choices.find((c) => c.correct).id;
    const position = state.question.choices.findIndex((c) => c.id === pick);
    await page.keyboard.press('Space');   // checks the first choice
    for (let i = 0; i < position; i++) await page.keyboard.press('ArrowDown');  // arrows move and select
    const pickText = state.question.choices[position].text;
    await waitForState(page, (s, id) => s.question.choices.every((c) => c.selected === (c.id === id)), pick);
    // The radio kept focus through the state updates: it was not re-created.
    at = await waitFocus(page, (f) => f.type === 'radio' && f.label === pickText && f.checked, `the chosen radio "${pickText}"`);
    if (n === 1) await panelScreenshot(page, 'keyboard-question-selected');

    await page.keyboard.press('Enter');   // the form submits: Check
    state = await waitForState(page, (s) => s.question && s.question.feedback);
    assert.equal(state.question.feedback.correct, !wrong);
    await waitFocus(page, (f) => f.tag === 'h2' && f.text === (wrong ? words.incorrect : words.correct), 'the verdict');
    await waitLive(page, expectedAnnouncement(bank, q, lang, pick));
    if (n === 2) await panelScreenshot(page, 'keyboard-question-checked-wrong');

    // The explanation's links come first (in a Markdown bank an image is a link to its file: the
    // schedule drawing of model-pipeline-parallelism), then Next.
    const explanation = typeof q.explanation === 'string' ? q.explanation : q.explanation[lang] || q.explanation[bank.defaultLanguage];
    const links = bank.textFormat === 'markdown' ? explanation.split('](').length - 1 : 0;
    for (let i = 0; i < links; i++) {
      await page.keyboard.press('Tab');
      await waitFocus(page, (f) => f.tag === 'a' && f.inMirror, `link ${i + 1} of ${links} in the explanation`);
    }
    await page.keyboard.press('Tab');
    await waitFocus(page, (f) => f.tag === 'button' && f.text === (n === total ? words.seeResults : words.next), 'Next');
    await page.keyboard.press('Enter');
  }

  state = await waitForState(page, (s) => s.screen === 'results' && s.results);
  assert.equal(state.results.score, 6);
  assert.equal(state.results.percent, 75);
  await waitFocus(page, (f) => f.tag === 'h1' && f.text === words.results, 'the results heading');
  await waitLive(page, `${words.results}. 75%. ${words.score(6, 8)}. ${words.passed}.`);
  assert.equal(await page.title(), `${words.results} – ${title} – ImQuiz`);
  const mirrorText = await page.locator('#mirror').textContent();
  assert.ok(mirrorText.includes(words.score(6, 8)) && mirrorText.includes('75%'), 'the mirror shows the score');
  await panelScreenshot(page, 'keyboard-results');

  // Review mistakes, by keyboard: only the two missed questions, both right this time.
  await page.keyboard.press('Tab');
  await waitFocus(page, (f) => f.tag === 'button' && f.text === words.review, 'Review mistakes');
  await page.keyboard.press('Enter');
  state = await waitForState(page, (s) => s.screen === 'question' && s.question.index === 1);
  assert.equal(state.question.total, 2);
  for (let n = 1; n <= 2; n++) {
    state = await waitForState(page, (s, k) => s.screen === 'question' && s.question.index === k && !s.question.feedback, n);
    const q = questionOf(bank, state.question.id);
    const right = q.choices.find((c) => c.correct).id;
    await page.keyboard.press('Tab');
    if (n === 1) await page.keyboard.press('Tab');   // from the h1: Back, then the choices
    await waitFocus(page, (f) => f.type === 'radio', 'a choice');
    await page.keyboard.press('Space');
    const position = state.question.choices.findIndex((c) => c.id === right);
    for (let i = 0; i < position; i++) await page.keyboard.press('ArrowDown');
    await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, right);
    await page.keyboard.press('Enter');
    await waitForState(page, (s) => s.question && s.question.feedback && s.question.feedback.correct);
    await waitLive(page, expectedAnnouncement(bank, q, lang, right));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
  }
  state = await waitForState(page, (s) => s.screen === 'results' && s.results);
  assert.equal(state.results.score, 2);
  // A review round's results: practice, not a verdict on the quiz.
  await waitLive(page, `${words.reviewRound}. 100%. ${words.score(2, 2)}. ${words.practice}.`);

  // Back to the catalog: Tab past Retry, Enter on "Back to quizzes"; focus lands on its h1.
  await page.keyboard.press('Tab');
  await waitFocus(page, (f) => f.text === words.retry, 'Retry (no Review mistakes when nothing was missed)');
  await page.keyboard.press('Tab');
  await waitFocus(page, (f) => f.text === words.catalog, 'Back to quizzes');
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.screen === 'catalog');
  await waitFocus(page, (f) => f.tag === 'h1' && f.text === 'ImQuiz', 'the catalog heading');
  assert.equal(await page.title(), `${words.quizzes} – ImQuiz`);
  app.expectNoErrors();
  await app.close();
});

test('every question type through the mirror; bank text stays text', async () => {
  const app = await openApp(site.url + '?lang=en&bank=dev/example.json', { browser });
  const { page } = app;
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  const mirror = page.locator('#mirror');
  // Markup in a bank is shown, never parsed.
  assert.equal(await page.locator('#mirror img, #mirror b').count(), 0, 'no element came from bank text');
  assert.ok((await mirror.locator('[data-mirror-prompt]').textContent()).endsWith(MARKUP));
  await mirror.locator('[data-mirror-h1]').focus();
  while (state.screen === 'question') {
    const q = example.questions.find((item) => item.id === state.question.id);
    const key = state.question.index;
    switch (q.type) {
      case 'single_choice':
        await answerInMirror(page, text(q.choices.find((c) => c.correct).text, 'en', example));
        break;
      case 'true_false':
        assert.equal(await mirror.locator('[role=radiogroup] input[type=radio]').count(), 2);
        await answerInMirror(page, q.answer ? 'True' : 'False');
        break;
      case 'multiple_choice': {
        const group = mirror.getByRole('group', { name: text(q.prompt, 'en', example) });
        assert.equal(await group.locator('input[type=checkbox]').count(), q.choices.length, 'checkboxes for multiple choice');
        for (const choice of q.choices.filter((c) => c.correct)) {
          await group.getByRole('checkbox', { name: text(choice.text, 'en', example), exact: true }).focus();
          await page.keyboard.press('Space');
          await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, choice.id);
        }
        await page.keyboard.press('Enter');
        break;
      }
      case 'matching':  // a labelled select per item; Enter on Check
        for (const item of q.items) {
          const answer = text(q.answers.find((a) => a.id === item.match).text, 'en', example);
          await mirror.getByRole('combobox', { name: text(item.text, 'en', example), exact: true }).selectOption({ label: answer });
          await waitForState(page, (s, [i, a]) => s.question.rows.find((r) => r.id === i).answer === a, [item.id, item.match]);
        }
        await mirror.locator('button[data-action=check]').focus();
        await page.keyboard.press('Enter');
        break;
      case 'ordering':  // Move up buttons (Enter on each), item by item to its place
        for (let place = 0; place < q.items.length; place++) {
          const id = q.items[place].id;
          for (let s = await appState(page), at = s.question.rows.findIndex((r) => r.id === id); at > place; at--) {
            await mirror.getByRole('button', { name: s.question.rows[at].up.name, exact: true }).focus();
            await page.keyboard.press('Enter');
            s = await waitForState(page, (st, [i, was]) => st.question.rows.findIndex((r) => r.id === i) === was - 1, [id, at]);
          }
        }
        await mirror.locator('button[data-action=check]').focus();
        await page.keyboard.press('Enter');
        break;
      case 'cloze':  // a labelled field or select per blank (named "Blank 1 of 3"), in the prompt's order; Enter on Check
        for (const row of state.question.rows) {
          const blank = q.blanks.find((b) => b.id === row.id);
          if (blank.choices) {
            const right = blank.choices.find((c) => c.correct);
            await mirror.getByRole('combobox', { name: row.label, exact: true }).selectOption({ label: text(right.text, 'en', example) });
            await waitForState(page, (s, [i, c]) => s.question.rows.find((r) => r.id === i).answer === c, [row.id, right.id]);
          } else {
            const words = blank.answer ? String(blank.answer.value) : text(blank.accept[0], 'en', example);
            await mirror.getByRole('textbox', { name: row.label, exact: true }).focus();
            await page.keyboard.type(words, { delay: 20 });
            await waitForState(page, (s, [i, v]) => s.question.rows.find((r) => r.id === i).field.value === v, [row.id, words]);
          }
        }
        await mirror.locator('button[data-action=check]').focus();
        await page.keyboard.press('Enter');
        break;
      default: {  // numeric, short_text: a labelled text field, Enter checks
        // The focus is on the new prompt, not in text-field.js's answer field over the canvas.
        await waitFocus(page, (f) => f.inMirror && f.tag === 'h2', 'the prompt');
        const answer = q.type === 'short_text' ? 'DNS' : String(q.answer.value !== undefined ? q.answer.value : q.answer.max);
        // The range question is typed into the field over the canvas instead: the same answer,
        // and the mirror takes the learner on from there.
        const field = q.id === 'mtu-range' ? page.locator('#answer-field')
          : mirror.getByRole('textbox', { name: q.type === 'numeric' ? 'Type a number' : 'Type your answer' });
        await field.focus();
        await page.keyboard.type(answer, { delay: 20 });
        await waitForState(page, (s, a) => s.question.typed === a, answer);
        if (q.id !== 'mtu-range') {
          assert.equal(await page.locator('#answer-field').inputValue(), answer, 'the field over the canvas agrees');
        } else {
          assert.equal(await mirror.locator('#mirror-answer').inputValue(), answer, 'the mirror agrees');
        }
        if (q.unit) assert.equal(await field.getAttribute('aria-describedby'), 'mirror-unit');
        await page.keyboard.press('Enter');
      }
    }
    state = await waitForState(page, (s) => s.question && s.question.feedback);
    await waitFocus(page, (f) => f.inMirror && f.tag === 'h2' && f.id === 'mirror-verdict', 'the verdict');
    assert.equal(state.question.feedback.correct, true, `${q.id} answered right through the mirror`);
    // Typed answers also say what was expected ("20", not "20 ± 0").
    const expected = ['numeric', 'short_text'].includes(q.type)
      ? ` ${sentence('Correct answer: ' + state.question.feedback.correctAnswer.map((a) => a.replace(/ ± 0$/, '')).join('; '))}` : '';
    // A matching item's own feedback is said too, in item order. A cloze blank's too, in the prompt's order (the right choice's own feedback first).
    const blankFeedback = (b) => [b.choices && b.choices.find((c) => c.correct).feedback, b.feedback].filter(Boolean)
      .map((f) => ` ${sentence(text(f, 'en', example))}`).join('');
    const itemFeedback = q.type === 'matching'
      ? q.items.filter((i) => i.feedback).map((i) => ` ${sentence(text(i.feedback, 'en', example))}`).join('')
      : q.type === 'cloze'
        ? [...text(q.prompt, 'en', example).matchAll(/\{\{([a-z0-9-]+)\}\}/g)].map((m) => blankFeedback(q.blanks.find((b) => b.id === m[1]))).join('')
        : '';
    await waitLive(page, `Correct.${expected}${itemFeedback} ${sentence(text(q.explanation, 'en', example))}`);
    await panelScreenshot(page, `example-${q.id}-checked`);
    await page.locator('#mirror button[data-action=next]').focus();
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s, k) => s.screen !== 'question' || s.question.index !== k, key);
  }
  assert.equal(state.results.percent, 100);
  app.expectNoErrors();
  await app.close();
});

test('focus is never pulled out of the canvas; the live region still speaks', async () => {
  const app = await openApp(site.url + '?lang=en&quiz=data-parallelism', { browser });
  const { page } = app;
  const state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  assert.equal((await focused(page)).id, 'canvas', 'the canvas has focus at start');
  // The live region is a11y.js's, which arrives just after the first question: a screen reader
  // waits for the page to stop being busy, and so does this test (pressing keys within
  // milliseconds of the question would race the script's download).
  await page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
  const bank = banks['data-parallelism'];
  const q = questionOf(bank, state.question.id);
  const position = state.question.choices.findIndex((c) => q.choices.find((x) => x.id === c.id).correct);
  await page.keyboard.press(String(position + 1));
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.question.feedback);
  await waitLive(page, expectedAnnouncement(bank, q, 'en', q.choices.find((c) => c.correct).id));
  assert.equal((await focused(page)).id, 'canvas', 'the canvas keeps focus after Check');
  assert.equal(await page.locator('#mirror').evaluate((m) => getComputedStyle(m).position), 'absolute', 'the mirror stays hidden');
  app.expectNoErrors();
  await app.close();
});

// ---- Loading: the mirror comes right after the first screen -------------------------------------

// Records, from the start of the page, when #app stops being aria-busy and when the mirror gets
// its first control.
const BUSY_AND_MIRROR = () => {
  const seen = [];
  Object.defineProperty(window, '__seen', { value: seen });
  new MutationObserver(() => {
    const app = document.getElementById('app');
    const mirror = document.getElementById('mirror');
    if (app && !app.hasAttribute('aria-busy') && !seen.includes('not busy')) seen.push('not busy');
    if (mirror && mirror.querySelector('h1, [data-mirror-prompt]') && !seen.includes('mirror filled')) seen.push('mirror filled');
  }).observe(document, { subtree: true, childList: true, attributes: true });
};

test('a11y.js and text-field.js come after the first question and fill in from the state already published; until then the page is busy', async () => {
  const app = await openApp(site.url + '?lang=en&quiz=data-parallelism', { browser, waitFor: 'first-question', initScript: BUSY_AND_MIRROR });
  const { page } = app;
  const state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  await page.locator('#mirror [data-mirror-prompt]').waitFor();
  assert.equal(await page.locator('#mirror [data-mirror-prompt]').textContent(), state.question.prompt);
  assert.equal(await page.locator('#mirror [role=radiogroup] input[type=radio]').count(), state.question.choices.length);
  await page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
  assert.deepEqual(await page.evaluate(() => window.__seen), ['mirror filled', 'not busy'], 'busy until the mirror is there');
  const timing = await page.evaluate(async () => ({
    firstQuestion: await window.ImQuizHost.whenSignal('first-question'),
    requested: performance.getEntriesByType('resource').filter((e) => /\/(a11y|text-field)\.js$/.test(e.name)).map((e) => e.startTime),
  }));
  assert.equal(timing.requested.length, 2, 'both requested');
  for (const at of timing.requested) assert.ok(at >= timing.firstQuestion, `requested at ${at} ms, after the first question (${timing.firstQuestion} ms)`);
  app.expectNoErrors();
  await app.close();
});

test('a11y.js missing: the quiz still runs for everyone, and a screen reader is told', async () => {
  site.faults.set('/a11y.js', (req, res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('gone'));
  try {
    const app = await openApp(site.url + '?lang=en&sw=0', { browser, allowErrors: [/status of 404/] });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'catalog' && s.banks.some((b) => b.state === 'ready'));
    await page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
    assert.equal(await page.locator('#mirror [role=alert]').textContent(),
                 'The accessible version of this page did not load. Reload the page to try again.');
    assert.equal(await page.evaluate(() => document.getElementById('status').className), '', 'no "could not load" screen');
    await page.evaluate(() => window.ImQuizHost.act({ type: 'open', quiz: 'data-parallelism' }));
    await waitForState(page, (s) => s.screen === 'question' && s.question);
    app.expectNoErrors();
    await app.close();
  } finally {
    site.faults.delete('/a11y.js');
  }
});

// ---- 4. The page around: titles, language, preferences, zoom ------------------------------------

test('a title per screen and the language of the page follow the state', async () => {
  const app = await openCatalog('en');
  const { page } = app;
  // a11y.js sets the title, and it arrives after the first question: waited for, not raced.
  await until(async () => (await page.title()) === 'Quizzes – ImQuiz', 'the catalog title');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.locator('#mirror').getByRole('button', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.screen === 'settings');
  await until(async () => (await page.title()) === 'Settings – ImQuiz', 'the settings title');
  // Switching the language by keyboard: the radio keeps focus while every word changes around it.
  await page.locator('#mirror').getByRole('radio', { name: 'English' }).focus();
  await page.keyboard.press('ArrowDown');
  await waitForState(page, (s) => s.language === 'ru');
  await waitFocus(page, (f) => f.type === 'radio' && f.label === 'Русский' && f.checked, 'the Russian radio');
  await until(async () => (await page.title()) === 'Настройки – ImQuiz', 'the Russian title');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  assert.ok((await mirrorSnapshot(page)).includes('group "Язык"'));
  // Esc goes back one step, as on the canvas; focus lands on the catalog's heading.
  await page.keyboard.press('Escape');
  await waitForState(page, (s) => s.screen === 'catalog');
  await waitFocus(page, (f) => f.tag === 'h1' && f.text === 'ImQuiz', 'the catalog heading');
  await until(async () => (await page.title()) === 'Тесты – ImQuiz', 'the catalog title in Russian');
  app.expectNoErrors();
  await app.close();

  const quiz = await openApp(site.url + '?lang=id&quiz=data-parallelism', { browser });
  await waitForState(quiz.page, (s) => s.screen === 'question' && s.question);
  const bank = banks['data-parallelism'];
  const wanted = `Pertanyaan 1 dari 8 – ${text(bank.title, 'id', bank)} – ImQuiz`;
  await until(async () => (await quiz.page.title()) === wanted, wanted);
  assert.equal(await quiz.page.evaluate(() => document.documentElement.lang), 'id');
  quiz.expectNoErrors();
  await quiz.close();
});

test('colour scheme, prefers-contrast and reduced motion reach the canvas and the mirror, also when they change', async (t) => {
  const app = await openApp(site.url + '?lang=en&quiz=data-parallelism', { browser });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'question' && s.question);
  // The canvas's own background (the GL clear colour left and right of the column) tells the
  // palette: light, dark, and their high-contrast versions (src/ui/palette.cpp).
  const cases = [
    { colorScheme: 'light', contrast: 'no-preference', canvas: '#f4f6fa', panel: 'rgb(255, 255, 255)', border: 'rgb(205, 211, 224)' },
    { colorScheme: 'light', contrast: 'more', canvas: '#ffffff', panel: 'rgb(255, 255, 255)', border: 'rgb(0, 0, 0)' },
    { colorScheme: 'dark', contrast: 'no-preference', canvas: '#15171c', panel: 'rgb(31, 35, 43)', border: 'rgb(59, 66, 80)' },
    { colorScheme: 'dark', contrast: 'more', canvas: '#000000', panel: 'rgb(0, 0, 0)', border: 'rgb(255, 255, 255)' },
  ];
  for (const c of cases) {
    const what = `${c.colorScheme} / contrast ${c.contrast}`;
    await page.locator('#canvas').focus();
    if (!await emulate(t, page, { colorScheme: c.colorScheme, contrast: c.contrast })) continue;
    await until(async () => (await pixel(page, 4, 400)) === c.canvas, `canvas background ${c.canvas}, ${what}`);
    await showPanel(page);
    const style = await page.locator('#mirror').evaluate((m) => {
      const s = getComputedStyle(m);
      return { background: s.backgroundColor, border: s.borderTopColor };
    });
    assert.deepEqual(style, { background: c.panel, border: c.border }, `mirror panel, ${what}`);
    await screenshot(page, `a11y-panel-${c.colorScheme}-contrast-${c.contrast}`);
  }
  // Forced colours (Windows high contrast): the system's colours replace ours; the focus ring
  // (an outline) must survive.
  await page.locator('#canvas').focus();
  if (await emulate(t, page, { colorScheme: 'light', contrast: 'no-preference', forcedColors: 'active' })) {
    await page.locator('#mirror button[data-action=catalog]').focus();
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.equal(ring, 'solid', 'a visible focus ring in forced-colours mode');
    await screenshot(page, 'a11y-panel-forced-colors');
    await page.emulateMedia({ forcedColors: 'none' });
  }
  for (const reducedMotion of ['no-preference', 'reduce']) {
    await page.locator('#canvas').focus();
    if (!await emulate(t, page, { reducedMotion })) continue;
    await page.locator('#mirror [data-mirror-h1]').focus();
    const animation = await page.locator('#mirror').evaluate((m) => getComputedStyle(m).animationName);
    assert.equal(animation, reducedMotion === 'reduce' ? 'none' : 'mirror-in', `panel animation, reduced motion ${reducedMotion}`);
  }
  app.expectNoErrors();
  await app.close();
});

test('the text-size setting reaches the canvas and the mirror; the theme setting reaches the mirror', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const app = await openApp(site.url + '?lang=en', { context });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'catalog');
  await page.locator('#mirror').getByRole('button', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  const backHeight = async () => {
    const item = (await appState(page)).items.find((i) => i.id === 'button:back');
    return item ? item.h : 0;
  };
  await waitForState(page, (s) => s.screen === 'settings' && s.items.some((i) => i.id === 'button:back'));
  const before = await backHeight();
  const fontBefore = await page.locator('#mirror').evaluate((m) => parseFloat(getComputedStyle(m).fontSize));
  await page.locator('#mirror').getByRole('radio', { name: '150%' }).focus();
  await page.keyboard.press('Space');
  await waitForState(page, (s) => s.preferences.textScale === 1.5);
  await until(async () => (await backHeight()) > before * 1.3, `canvas controls grow with the text size (from ${before})`);
  const fontAfter = await page.locator('#mirror').evaluate((m) => parseFloat(getComputedStyle(m).fontSize));
  assert.equal(fontAfter, fontBefore * 1.5, 'mirror text grows with the text size');
  await screenshot(page, 'a11y-panel-text-150-dark');

  // Dark system scheme, light theme chosen in Settings: the panel follows the app, not the system.
  if (await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) {
    assert.equal(await page.locator('#mirror').evaluate((m) => getComputedStyle(m).backgroundColor), 'rgb(31, 35, 43)');
  } else {
    await skipStep(t, 'a dark system scheme under the light theme', `${ENGINE} here cannot emulate prefers-color-scheme: dark`);
  }
  await page.locator('#mirror').getByRole('radio', { name: 'Light' }).focus();
  await page.keyboard.press('Space');
  await waitForState(page, (s) => s.preferences.theme === 'light');
  assert.equal(await page.locator('#mirror').evaluate((m) => getComputedStyle(m).backgroundColor), 'rgb(255, 255, 255)');
  await screenshot(page, 'a11y-panel-text-150-light-theme');
  app.expectNoErrors();
  await app.close();
});

test('zoom and reflow: 200% and 400% zoom keep the canvas sharp and the mirror panel inside the screen', async (t) => {
  // Browser zoom is a smaller CSS viewport with a larger device pixel ratio.
  for (let [width, height, ratio] of [[640, 400, 2], [320, 400, 4]]) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: ratio });
    const app = await openApp(site.url + '?lang=ru&quiz=data-parallelism', { context });
    const { page } = app;
    const real = await page.evaluate(() => [innerWidth, innerHeight, devicePixelRatio]);
    if (String(real) !== String([width, height, ratio])) {
      // The nearest real thing: the narrowest window the engine opens, at the screen's ratio.
      await skipStep(t, `${width}x${height} at device pixel ratio ${ratio}`, `${ENGINE} here opens ${real[0]}x${real[1]} at ratio ${real[2]} ` +
                     '(MiniBrowser emulates no device pixel ratio and no window narrower than its toolbar)');
      [width, height, ratio] = real;
    }
    await waitForState(page, (s) => s.screen === 'question' && s.question);
    const backing = () => page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    await until(async () => String(await backing()) === String([width * ratio, height * ratio]),
                `canvas backing store ${width * ratio}x${height * ratio}`);
    await showPanel(page);
    const box = await page.locator('#mirror').evaluate((m) => {
      const r = m.getBoundingClientRect();
      const scroller = document.getElementById('mirror-screen');
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
    });
    assert.ok(box.left >= 0 && box.right <= width + 0.5 && box.top >= 0 && box.bottom <= height + 0.5,
              `panel inside the viewport at ${width}px: ${JSON.stringify(box)}`);
    assert.ok(box.scrollWidth <= box.clientWidth, `no horizontal scrolling inside the panel: ${JSON.stringify(box)}`);
    // By width too: where the engine cannot zoom, both windows are at ratio 1.
    await screenshot(page, `a11y-panel-zoom-${ratio * 100}-${width}px`);
    app.expectNoErrors();
    await app.close();
  }
});

// Regression (WebKitGTK): Shift+Tab arrives there as key "Unidentified", and stayed on the canvas.
test('Tab leaves the canvas for the mirror (no keyboard trap), Shift+Tab too', async () => {
  const app = await openCatalog('en');
  const page = app.page;
  // The canvas has focus after start-up: that is where digits, arrows and Enter go. Tab is
  // a11y.js's, which arrives after the first screen: the page is busy until it is there.
  await page.waitForFunction(() => !document.getElementById('app').hasAttribute('aria-busy'));
  await page.waitForFunction(() => document.activeElement === document.getElementById('canvas'));
  await page.keyboard.press('Tab');
  let active = await page.evaluate(() => ({ inMirror: document.getElementById('mirror').contains(document.activeElement),
                                            tag: document.activeElement.tagName }));
  assert.equal(active.inMirror, true, 'Tab moved focus into the mirror');
  await screenshot(page, 'a11y-tab-from-canvas');
  await page.evaluate(() => document.getElementById('canvas').focus());
  await page.keyboard.press('Shift+Tab');
  active = await page.evaluate(() => document.getElementById('mirror').contains(document.activeElement));
  assert.equal(active, true, 'Shift+Tab moved focus into the mirror');
  app.expectNoErrors();
  await app.close();
});
