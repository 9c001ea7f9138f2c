// Review across quizzes (issue 18, docs/spaced-review.md) in a real browser: a catalog of two
// quizzes, each taken by keyboard with one question missed; the page's clock moved a day and a
// half ahead (no real waiting); the catalog's Review panel then counting both questions due, in
// the canvas and the mirror; its round played by keyboard quiz by quiz to its end; then nothing
// due and the next date. In English (light, 1280 px) and Russian (dark, 320 px at DPR 2); axe-core
// on the mirror's catalog with the panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, openApp, openForAxe, axeMirror, waitForState, waitInPage, screenshot, launchBrowser, focusItem, act,
         movableClock, moveClock, ENGINE } from './harness.mjs';
import { questions, choiceBank, answerByKeys as answer } from './choice-keys.mjs';

const banks = { 'review-a': choiceBank({ id: 'review-a', title: { en: 'Gradients', ru: 'Градиенты' } }),
                'review-b': choiceBank({ id: 'review-b', title: { en: 'Memory', ru: 'Память' } }) };

const site = await startSite();
const json = (body) => (req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)); };
site.faults.set('/quizzes/index.json', json({ format: 'imquiz-catalog', version: 1,
                                               banks: Object.keys(banks).map((id) => ({ id, file: `${id}.json` })) }));
for (const [id, bank] of Object.entries(banks)) site.faults.set(`/quizzes/${id}.json`, json(bank));
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

async function press(page, item) {
  await focusItem(page, item);
  await page.keyboard.press('Space');
}

// Takes quiz `id` by keyboard from the catalog, its first question missed, and comes back.
async function takeMissingOne(page, id) {
  await press(page, `button:open:${id}`);
  for (const [i, q] of questions.entries()) {
    await waitForState(page, (s, n) => s.screen === 'question' && s.question.index === n && !s.question.feedback, i + 1);
    await answer(page, q, i !== 0);
  }
  await waitForState(page, (s) => s.screen === 'results');
  await press(page, 'button:catalog');
  await waitForState(page, (s) => s.screen === 'catalog');
}

const words = {
  en: { heading: 'Review', due: 'Due for review in all quizzes: 2', button: 'Review 2 from all quizzes',
        first: 'Review round: quiz 1 of 2', next: 'Next in this review: Memory', second: 'Review round: quiz 2 of 2',
        none: 'Nothing is due for review. Next review: ' },
  ru: { heading: 'Повторение', due: 'К повторению во всех тестах: 2', button: 'Повторить из всех тестов (2)',
        first: 'Повторение: тест 1 из 2', next: 'Дальше в повторении: Память', second: 'Повторение: тест 2 из 2',
        none: 'Повторять пока нечего. Следующее повторение: ' },
};

for (const [lang, colorScheme, width] of [['en', 'light', 1280], ['ru', 'dark', 320]]) {
  test(`keyboard (${lang}, ${colorScheme}, ${width} px): both quizzes' missed questions in one round, quiz by quiz`, async () => {
    // WebKitGTK's driver cannot scroll with the wheel: a window tall enough for every screen.
    const height = ENGINE === 'webkit' ? 2400 : 800;
    const app = await openApp(`${site.url}?lang=${lang}`, { browser, colorScheme, viewport: { width, height },
                                                            deviceScaleFactor: width < 400 ? 2 : 1, initScript: movableClock });
    const { page } = app;
    let state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 2 && s.banks.every((b) => b.state === 'ready'));
    // Drawn in the scheme asked for, also where the driver cannot emulate it (openApp: theme=dark).
    assert.equal(state.dark, colorScheme === 'dark', `drawn ${state.dark ? 'dark' : 'light'}`);
    assert.equal(state.catalog.review, undefined, 'nothing answered: no review panel');
    await page.locator('#canvas').focus();
    await takeMissingOne(page, 'review-a');
    await takeMissingOne(page, 'review-b');
    state = await waitForState(page, (s) => s.catalog.review);
    assert.equal(state.catalog.review.due, 0, 'nothing due at once');
    assert.ok(state.catalog.review.text.startsWith(words[lang].none), state.catalog.review.text);

    // A day and a half later both missed questions are due. (A key wakes the page, as a learner's would.)
    await moveClock(page, 36 * 3600000);
    await page.keyboard.press('ArrowDown');
    state = await waitForState(page, (s) => s.catalog.review && s.catalog.review.due === 2);
    const { review } = state.catalog;
    assert.deepEqual([review.heading, review.text, review.quizzes, review.button.label],
                     [words[lang].heading, words[lang].due, 2, words[lang].button]);
    // The mirror: a region named by its heading, with the count and the button.
    await waitInPage(page, (text) => {
      const region = document.querySelector('#mirror section[aria-labelledby="mirror-review-heading"]');
      return region && region.textContent.includes(text) && region.querySelector('button');
    }, words[lang].due);
    await screenshot(page, `review-across-${lang}-${colorScheme}-${width}-due`);

    await press(page, 'button:review-all');
    state = await waitForState(page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.question.total, 1);
    assert.equal(state.question.id, questions[0].id);
    assert.equal(state.question.quizTitle, banks['review-a'].title[lang], 'the most forgotten first: quiz A, answered earlier');
    await answer(page, questions[0], true);
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.equal(state.results.heading, words[lang].first);
    assert.equal(state.results.buttons[0].label, words[lang].next);
    await screenshot(page, `review-across-${lang}-${colorScheme}-${width}-next`);

    await press(page, 'button:review-next');
    state = await waitForState(page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.question.total, 1);
    await answer(page, questions[0], true);
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.equal(state.results.heading, words[lang].second);
    assert.ok(!state.results.buttons.some((b) => b.id === 'review-next'), 'the last quiz of the round');
    assert.deepEqual(state.results.questions.map((q) => q.outcome), ['correct']);

    await press(page, 'button:catalog');
    state = await waitForState(page, (s) => s.screen === 'catalog' && s.catalog.review);
    assert.equal(state.catalog.review.due, 0, 'reviewed: nothing due now');
    assert.ok(state.catalog.review.text.startsWith(words[lang].none), state.catalog.review.text);
    assert.deepEqual(state.banks.map((b) => b.due), [0, 0]);
    await screenshot(page, `review-across-${lang}-${colorScheme}-${width}-done`);
    app.expectNoErrors();
    await app.close();
  });
}

test('axe-core finds nothing serious on the catalog with the Review panel', async (t) => {
  const app = await openForAxe(t, browser, `${site.url}?lang=en`, { initScript: movableClock });
  const { page } = app;
  await waitForState(page, (s) => s.screen === 'catalog' && s.banks.every((b) => b.state === 'ready'));
  await page.locator('#canvas').focus();
  await takeMissingOne(page, 'review-a');
  await moveClock(page, 36 * 3600000);
  await page.keyboard.press('ArrowDown');
  await waitForState(page, (s) => s.catalog.review && s.catalog.review.due === 1);
  if (app.axe) await axeMirror(page, 'catalog with the Review panel');
  app.expectNoErrors();
  await app.close();
});
