// Spaced review (issue 18, docs/spaced-review.md) in a real browser: a quiz answered by keyboard
// with one question missed, the page's clock moved a day and a half ahead (no real waiting), the
// card then counting one question due, and the review round of it played by keyboard to its
// results; after it, nothing is due. In English (light) and Russian (dark).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, openApp, waitForState, screenshot, launchBrowser, focusItem, movableClock, moveClock } from './harness.mjs';
import { questions, choiceBank, answerByKeys as answer } from './choice-keys.mjs';

const bank = choiceBank();

const site = await startSite({ authoring: { allowBankLinks: true } });
site.faults.set('/dev/review.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bank));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

const words = { en: { due: 'Due for review: 1', button: 'Review 1 due' }, ru: { due: 'К повторению: 1', button: 'Повторить (1)' } };

for (const [lang, colorScheme] of [['en', 'light'], ['ru', 'dark']]) {
  test(`keyboard (${lang}, ${colorScheme}): a question missed is due a day and a half later, and its review round plays to the end`, async () => {
    const app = await openApp(`${site.url}?bank=dev/review.json&lang=${lang}`, { browser, colorScheme, initScript: movableClock });
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.question);
    await page.locator('#canvas').focus();
    for (const [i, q] of questions.entries()) {
      await waitForState(page, (s, n) => s.screen === 'question' && s.question.index === n && !s.question.feedback, i + 1);
      await answer(page, q, i !== 0);   // the first missed
    }
    await waitForState(page, (s) => s.screen === 'results');
    await focusItem(page, 'button:catalog');
    await page.keyboard.press('Space');
    let state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 1);
    assert.equal(state.banks[0].due, 0, 'nothing due at once');

    // A day and a half later: the missed question is due. (A key wakes the page, as a learner's would.)
    await moveClock(page, 36 * 3600000);
    await page.keyboard.press('ArrowDown');
    state = await waitForState(page, (s) => s.banks[0].due === 1);
    assert.ok(state.banks[0].standing.endsWith(words[lang].due), state.banks[0].standing);
    const button = state.banks[0].buttons.find((b) => b.id === `review-due:${bank.id}`);
    assert.equal(button && button.label, words[lang].button);
    await screenshot(page, `spaced-review-${lang}-${colorScheme}-due`);

    await focusItem(page, `button:review-due:${bank.id}`);
    await page.keyboard.press('Space');
    state = await waitForState(page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.question.total, 1, 'a round of the one question due');
    assert.equal(state.question.id, questions[0].id);
    await answer(page, questions[0], true);
    state = await waitForState(page, (s) => s.screen === 'results');
    assert.deepEqual(state.results.questions.map((q) => q.outcome), ['correct']);
    await focusItem(page, 'button:catalog');
    await page.keyboard.press('Space');
    state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 1);
    assert.equal(state.banks[0].due, 0, 'reviewed: nothing due now');
    app.expectNoErrors();
    await app.close();
  });
}
