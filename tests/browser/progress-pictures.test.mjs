// Progress a learner can see (issue 18, docs/spaced-review.md) in a real browser: a tagged quiz
// taken three times (0, 1 and 3 of 3 right), then the results screen's chart of the scores and its
// bars per tag, and the catalog card's indicator: drawn on the canvas (screenshotted in light and
// dark, at 1280 and 320 px, looked at), the same numbers in the mirror as tables a screen reader
// reads, and axe-core clean on both screens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, openForAxe, axeMirror, waitForState, screenshot, screenshotColors, launchBrowser, act, waitInPage, settledItem, ENGINE } from './harness.mjs';

const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const full = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
const questions = ['single_choice', 'multiple_choice', 'true_false'].map((type) => full.questions.find((q) => q.type === type));
assert.ok(questions.every(Boolean), 'the README example has the three choice types');
// Two tags, one question in both, one in none.
const tags = [['gradients'], ['gradients', 'memory'], []];
const bank = {
  ...full,
  settings: { ...full.settings, shuffleChoices: false, shuffleQuestions: false, passPercent: 60 },
  questions: questions.map((q, i) => ({ ...q, tags: tags[i] })),
};

const site = await startSite({ authoring: { allowBankLinks: true } });
site.faults.set('/dev/progress.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bank));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

// The choices that answer `q` right, or (wrong) its first wrong one.
const picks = (q, right) => {
  if (q.type === 'true_false') return [String(right === q.answer)];
  return right ? q.choices.filter((c) => c.correct).map((c) => c.id) : [q.choices.find((c) => !c.correct).id];
};

// One attempt through the page protocol, the first `right` questions answered right.
async function attempt(page, right) {
  for (const [i, q] of questions.entries()) {
    await waitForState(page, (s, n) => s.screen === 'question' && s.question.index === n && !s.question.feedback, i + 1);
    for (const choice of picks(q, i < right)) {
      await act(page, { type: 'select', choice });
      await waitForState(page, (s, c) => s.question.choices.some((x) => x.id === c && x.selected), choice);
    }
    await act(page, { type: 'check' });
    await waitForState(page, (s) => s.question && s.question.feedback);
    await act(page, { type: 'next' });
  }
  return waitForState(page, (s) => s.screen === 'results');
}

async function takeThreeTimes(page) {
  await attempt(page, 0);
  await act(page, { type: 'retry' });
  await attempt(page, 1);
  await act(page, { type: 'retry' });
  return attempt(page, 3);
}

// The mirror's tables as text: caption, column heads, rows.
const mirrorTables = (page) => page.evaluate(() => [...document.querySelectorAll('#mirror table')].map((table) => ({
  caption: table.caption.textContent,
  columns: [...table.tHead.rows[0].cells].map((cell) => cell.textContent),
  rows: [...table.tBodies[0].rows].map((row) => [...row.cells].map((cell) => cell.textContent)),
  rowHeads: [...table.tBodies[0].rows].every((row) => row.cells[0].tagName === 'TH' && row.cells[0].scope === 'row'),
})));

// Wheel-scrolls the canvas until item `id` is wholly on screen; returns it, at rest.
async function wheelIntoView(page, id) {
  const viewport = page.viewportSize();
  for (let i = 0; i < 30; i++) {
    const item = await settledItem(page, id);
    if (item && item.y >= 0 && item.y + item.h <= viewport.height) return item;
    await page.mouse.move(viewport.width / 2, viewport.height / 2);
    await page.mouse.wheel(0, item && item.y < 0 ? -120 : 120);
  }
  throw new Error(`could not bring "${id}" wholly on screen`);
}

// How many colours the screenshot has inside an item's rectangle (CSS px): a drawn chart has bars,
// lines and anti-aliased numbers; an empty rectangle one or two.
async function coloursIn(page, item) {
  const scale = await page.evaluate(() => window.devicePixelRatio);
  const points = [];
  for (let y = item.y + 1; y < item.y + item.h - 1; y += 2)
    for (let x = item.x + 1; x < item.x + item.w - 1; x += 2) points.push([Math.round(x * scale), Math.round(y * scale)]);
  return new Set((await screenshotColors(page, points)).at).size;
}

const words = {
  en: { scores: 'Your scores', mastery: 'By topic', other: 'Other questions', right: 'Right at least once: 3 of 3' },
  ru: { scores: 'Ваши результаты', mastery: 'По темам', other: 'Другие вопросы', right: 'Верно хотя бы раз: 3 из 3' },
};

for (const [lang, colorScheme, width] of [['en', 'light', 1280], ['ru', 'dark', 320], ['en', 'dark', 1280], ['ru', 'light', 320]]) {
  test(`the chart of scores, the bars per tag and the card's indicator (${lang}, ${colorScheme}, ${width} px)`, async () => {
    // WebKitGTK's driver cannot scroll by the wheel (it sends the scroll and its opposite; see
    // play.test.mjs): there the window is tall enough to hold the results without scrolling.
    const height = ENGINE === 'webkit' ? 2400 : width < 400 ? 640 : 800;
    const app = await openApp(`${site.url}?bank=dev/progress.json&lang=${lang}`, {
      browser, colorScheme, viewport: { width, height }, deviceScaleFactor: width < 400 ? 2 : 1 });
    const { page } = app;
    let state = await takeThreeTimes(page);
    // Drawn in the scheme asked for, also where the driver cannot emulate it (openApp: theme=dark).
    assert.equal(state.dark, colorScheme === 'dark', `drawn ${state.dark ? 'dark' : 'light'}`);

    // The chart: three bars, oldest first, the last one this attempt; the pass mark.
    const { scores, mastery } = state.results;
    assert.equal(scores.heading, words[lang].scores);
    assert.deepEqual(scores.bars.map((b) => [b.label, b.value, b.passed, b.current]),
                     [['1', '0%', false, false], ['2', '33%', false, false], ['3', '100%', true, true]]);
    assert.equal(scores.passPercent, 60);
    // The bars per tag: gradients (two questions), memory (one), the untagged one.
    assert.equal(mastery.heading, words[lang].mastery);
    assert.deepEqual(mastery.bars.map((b) => [b.topic, b.questions, b.seen, b.right]),
                     [['gradients', 2, 2, 2], ['memory', 1, 1, 1], [words[lang].other, 1, 1, 1]]);

    // Drawn: the chart's and the bars' rectangles on the canvas hold more than a background (an
    // item is listed only while it is on screen: wheeled to first).
    for (const id of ['chart:scores', 'chart:mastery']) {
      const item = await wheelIntoView(page, id);
      assert.ok(item.w > 100 && item.h > 40, `${id}: ${JSON.stringify(item)}`);
      const colours = await coloursIn(page, item);
      assert.ok(colours >= 6, `${id} drawn: ${colours} colours`);
      await screenshot(page, `progress-${lang}-${colorScheme}-${width}-${id.slice(6)}`);
    }

    // The mirror: the same numbers as tables with a caption, column heads and row heads.
    await waitInPage(page, () => document.querySelectorAll('#mirror table').length === 2);
    const tables = await mirrorTables(page);
    assert.deepEqual(tables.map((t) => t.caption), [scores.table.caption, mastery.table.caption]);
    assert.deepEqual(tables[0].columns, scores.table.columns);
    assert.deepEqual(tables[0].rows, scores.table.rows);
    assert.deepEqual(tables[1].rows, mastery.table.rows);
    assert.ok(tables.every((t) => t.rowHeads), 'each row led by a row head');

    // The card: its indicator, in the mirror too.
    await act(page, { type: 'catalog' });
    state = await waitForState(page, (s) => s.screen === 'catalog' && s.banks.length === 1 && s.banks[0].progress);
    assert.deepEqual(state.banks[0].progress, { questions: 3, seen: 3, right: 3, text: words[lang].right });
    await waitInPage(page, (text) => [...document.querySelectorAll('#mirror p')].some((p) => p.textContent === text), words[lang].right);
    await screenshot(page, `progress-${lang}-${colorScheme}-${width}-catalog`);
    app.expectNoErrors();
    await app.close();
  });
}

test('axe-core finds nothing serious on the results with the pictures\' tables, nor on the catalog', async (t) => {
  for (const lang of ['en', 'ru']) {
    const app = await openForAxe(t, browser, `${site.url}?bank=dev/progress.json&lang=${lang}`);
    const { page } = app;
    await takeThreeTimes(page);
    await waitForState(page, (s) => s.results.scores.bars.length === 3);
    if (app.axe) await axeMirror(page, `results with the chart's table (${lang})`);
    await act(page, { type: 'catalog' });
    await waitForState(page, (s) => s.screen === 'catalog' && s.banks[0].progress);
    if (app.axe) await axeMirror(page, `catalog with the card's indicator (${lang})`);
    app.expectNoErrors();
    await app.close();
  }
});
