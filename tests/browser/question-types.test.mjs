// Every question type in the browser, with the full example bank from quizzes/README.md (so the
// documented example is played, not only parsed): single and multiple choice by mouse, true/false
// by keyboard, numeric and short text typed into the answer field. Loaded with `bank=<url>`, the
// way authors try a bank under development.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, waitForState, appState, scrollToAndClick, clickItem, screenshot,
         launchBrowser } from './harness.mjs';

const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const example = readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0];
const bank = JSON.parse(example);

const site = await startSite({ authoring: { allowBankLinks: true } });   // bank= links are used below
site.faults.set('/dev/example.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(example);
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

const text = (value, lang) => (typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage]);

// A cloze prompt as shown before anything is filled in: each {{id}} a numbered gap.
const clozeGaps = (prompt) => { let n = 0; return prompt.replace(/\{\{[a-z0-9-]+\}\}/g, () => `[${++n} ____]`); };

// How to answer each question right (and, for some, wrong first to see the verdict).
async function answer(page, q, lang, tag) {
  switch (q.type) {
    case 'single_choice':
      await scrollToAndClick(page, `choice:${q.choices.find((c) => c.correct).id}`);
      break;
    case 'multiple_choice':
      for (const choice of q.choices.filter((c) => c.correct)) {
        await scrollToAndClick(page, `choice:${choice.id}`);
        await waitForState(page, (s, id) => s.question.choices.find((c) => c.id === id).selected, choice.id);
      }
      break;
    case 'true_false': {
      const state = await appState(page);
      const position = state.question.choices.findIndex((c) => c.id === String(q.answer)) + 1;
      await page.keyboard.press(String(position));
      break;
    }
    case 'numeric':
      await clickItem(page, 'input:answer');
      // A comma decimal separator, as many learners type it.
      await page.keyboard.type(q.answer.value !== undefined ? String(q.answer.value).replace('.', ',') : String(q.answer.max));
      break;
    case 'short_text':
      await clickItem(page, 'input:answer');
      await page.keyboard.type(`  ${text(q.accept[1], lang).toUpperCase()} `);  // case and spaces ignored
      break;
    case 'matching':
      // Each item's list of answers opened by a click, the answer clicked in it.
      for (const item of q.items) {
        await scrollToAndClick(page, `select:${item.id}`);
        await clickItem(page, `option:${item.id}:${item.match}`);
        await waitForState(page, (s, [i, a]) => s.question.rows.find((r) => r.id === i).answer === a, [item.id, item.match]);
      }
      break;
    case 'ordering':
      // Each item moved up to its place with its Move up button.
      for (let place = 0; place < q.items.length; place++) {
        const id = q.items[place].id;
        for (let guard = 0; guard < q.items.length; guard++) {
          const at = (await appState(page)).question.rows.findIndex((r) => r.id === id);
          if (at === place) break;
          await scrollToAndClick(page, `button:up:${id}`);
          await waitForState(page, (s, [i, was]) => s.question.rows.findIndex((r) => r.id === i) === was - 1, [id, at]);
        }
      }
      break;
    case 'cloze':
      // Each blank: its list opened by a click and the right choice clicked, or its field clicked
      // and the answer typed (the number with a comma, a text in capitals).
      for (const blank of q.blanks) {
        if (blank.choices) {
          await scrollToAndClick(page, `select:${blank.id}`);
          await clickItem(page, `option:${blank.id}:${blank.choices.find((c) => c.correct).id}`);
        } else {
          await scrollToAndClick(page, `input:blank:${blank.id}`);
          await page.keyboard.type(blank.answer ? String(blank.answer.value).replace('.', ',') : text(blank.accept[0], lang).toUpperCase());
        }
        await waitForState(page, (s, id) => s.question.rows.find((r) => r.id === id).answer ||
                                           (s.question.rows.find((r) => r.id === id).field || {}).value, blank.id);
      }
      break;
    default:
      throw new Error(`unknown type ${q.type}`);
  }
  await screenshot(page, `types-${tag}-${q.type}-answered`);
}

for (const lang of ['en', 'ru']) {
  test(`every question type plays right (${lang})`, async () => {
    const app = await openApp(`${site.url}?bank=dev/example.json&lang=${lang}`, { browser });
    const page = app.page;
    for (let n = 1; n <= bank.questions.length; n++) {
      let state = await waitForState(page, (s, k) => s.screen === 'question' && s.question.index === k && !s.question.feedback, n);
      const q = bank.questions.find((x) => x.id === state.question.id);
      assert.equal(state.question.type, q.type);
      assert.equal(state.question.prompt, q.type === 'cloze' ? clozeGaps(text(q.prompt, lang)) : text(q.prompt, lang));
      await answer(page, q, lang, lang);
      if (q.type === 'numeric' || q.type === 'short_text') await page.keyboard.press('Enter');
      else await scrollToAndClick(page, 'button:check');
      state = await waitForState(page, (s) => s.question.feedback);
      assert.equal(state.question.feedback.correct, true, `${q.id} (${q.type}) should be right`);
      assert.equal(state.question.feedback.explanation, text(q.explanation, lang));
      await screenshot(page, `types-${lang}-${q.type}-checked`);
      await scrollToAndClick(page, 'button:next');
    }
    const state = await waitForState(page, (s) => s.screen === 'results');
    assert.equal(state.results.percent, 100);
    app.expectNoErrors();
    await app.close();
  });
}

test('a wrong numeric answer shows the expected value; a multiple choice half right scores partially', async () => {
  const app = await openApp(`${site.url}?bank=dev/example.json&lang=en`, { browser });
  const page = app.page;
  let state = await waitForState(page, (s) => s.screen === 'question');
  // Pass the first question quickly through page actions (check the first choice, then next).
  while (state.question.type !== 'multiple_choice') {
    const id = state.question.id;
    await page.evaluate((choice) => {
      window.ImQuizHost.act({ type: 'select', choice });
      window.ImQuizHost.act({ type: 'check' });
      window.ImQuizHost.act({ type: 'next' });
    }, state.question.choices[0].id);
    state = await waitForState(page, (s, prev) => s.question && s.question.id !== prev, id);
  }
  const q = bank.questions.find((x) => x.id === state.question.id);
  await scrollToAndClick(page, `choice:${q.choices.find((c) => c.correct).id}`);
  await scrollToAndClick(page, 'button:check');
  state = await waitForState(page, (s) => s.question.feedback);
  assert.equal(state.question.feedback.correct, false);
  assert.ok(state.question.feedback.score > 0 && state.question.feedback.score < 1, 'partial credit');
  await screenshot(page, 'types-multiple-partial');
  app.expectNoErrors();
  await app.close();
});

test('a bank URL that does not answer gives a clear error, not a blank page', async () => {
  const app = await openApp(`${site.url}?bank=dev/missing.json&lang=en`, { browser });
  const state = await waitForState(app.page, (s) => s.banks.length && s.banks[0].state === 'fetch-failed');
  assert.match(state.banks[0].error, /404/);
  await screenshot(app.page, 'types-bank-missing');
  app.expectNoErrors = () => {};  // the 404 itself is logged by the browser
  await app.close();
});
