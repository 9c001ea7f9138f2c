// Matching and ordering questions (issue 16) without dragging, in every way a learner answers:
// the keyboard on the canvas (arrow keys to a control, Space to press it, Enter to check), a
// finger (tap a matching item's answer list and an answer; tap-tap to move an ordering item), and
// the accessibility mirror (a labelled select per matching item, Move up / Move down buttons per
// ordering item, the move announced), in English and Russian, at 320 and 1280 px, with axe-core
// on the mirror. Also: Check waits for every item to be paired; a partly right order scores part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startSite, openApp, waitForState, appState, clickItem, scrollToAndClick, screenshot, launchBrowser,
         fingerOnItems, settledItem, settledState, openForAxe, ENGINE, keyTarget, focusItem, axeMirror } from './harness.mjs';


// The README's full example bank, its matching and ordering questions alone, partialCredit on.
const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const full = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
const bank = { ...full, questions: full.questions.filter((q) => q.type === 'matching' || q.type === 'ordering') };
const matching = bank.questions.find((q) => q.type === 'matching');
const ordering = bank.questions.find((q) => q.type === 'ordering');
assert.ok(matching && ordering, 'the README example has both types');

const site = await startSite({ authoring: { allowBankLinks: true } });
site.faults.set('/dev/arrange.json', (req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bank));
});
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

const text = (value, lang) => (typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage]);
const rowIndex = (s, id) => s.question.rows.findIndex((r) => r.id === id);

async function open(lang, options = {}) {
  const app = await openApp(`${site.url}?bank=dev/arrange.json&lang=${lang}`, { browser, ...options });
  await waitForState(app.page, (s) => s.screen === 'question' && s.question.type === 'matching');
  return app;
}

// Where the page's keys go, for a failure's message: a key that never arrives is a key sent to a
// page without focus, or to another element than the canvas.

// Presses `key` until `done(state)` (at most 3 times, 4 s each): a key press the app never saw
// (WebKitGTK under Xvfb draws few frames, and a press can fall between them unseen) is named in
// the output and pressed again.
async function pressUntil(page, key, done, what) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.keyboard.press(key);
    try {
      return await waitForState(page, done, null, 4000);
    } catch {
      const state = await appState(page);
      console.log(`# ${ENGINE}: ${key} for ${what} did not arrive (focus: ${(state.items.find((i) => i.focused) || {}).id}; ${await keyTarget(page)}); pressed again`);
    }
  }
  throw new Error(`keyboard: ${key} for ${what} never arrived`);
}

for (const lang of ['en', 'ru']) {
  test(`keyboard on the canvas: pair every item, put the items in order, check (${lang})`, async () => {
    const app = await open(lang, { viewport: { width: 1280, height: 800 } });
    const { page } = app;
    await page.locator('#canvas').focus();
    let state = await appState(page);
    // Check waits for every item: disabled until then.
    assert.equal(state.question.primary.enabled, false);
    // Matching: arrows reach an item's answer list, Space opens it, arrows move in it, Space picks.
    for (const item of matching.items) {
      // A key that lands late can leave the focus one select further: then the list that opened
      // is another item's, closed with Esc, and the walk starts again from there.
      const listOf = (st) => (st.items.find((i) => i.id.startsWith('option:') && i.focused) || { id: '' }).id.split(':')[1];
      for (let attempt = 1; ; attempt++) {
        await focusItem(page, `select:${item.id}`);
        await page.keyboard.press('Space');
        const opened = listOf(await waitForState(page, (st) => !!listOf(st), null, 8000).catch(() => appState(page)));
        if (opened === item.id) break;
        console.log(`# ${ENGINE}: Space opened ${opened ? `the list of ${opened}` : 'nothing'}, not ${item.id}'s; again`);
        if (opened) {
          await page.keyboard.press('Escape');
          await waitForState(page, (st) => !st.items.some((i) => i.id.startsWith('option:')), null, 8000);
        }
        if (attempt === 4) throw new Error(`keyboard: the list of ${item.id} did not open`);
      }
      await focusItem(page, `option:${item.id}:${item.match}`);
      state = await pressUntil(page, 'Space', (s) => s.question.rows.find((r) => r.id === item.id).answer === item.match,
                               `${item.id}'s answer`);
      // The list closed, and the focus back on its select, before the next walk.
      state = await waitForState(page, (st) => !st.items.some((i) => i.id.startsWith('option:')) &&
                                               st.items.some((i) => i.focused && i.id === `select:${item.id}`), null, 8000);
    }
    await screenshot(page, `arrange-${lang}-matching-keyboard`);
    assert.ok(state.question.moved.startsWith(text(matching.items[matching.items.length - 1].text, lang)), state.question.moved);
    assert.equal(state.question.primary.enabled, true);
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s) => s.question.feedback);
    assert.equal(state.question.feedback.correct, true);
    assert.ok(state.question.rows.every((r) => r.correct === true));
    await page.keyboard.press('Enter');   // Next
    state = await waitForState(page, (s) => s.question && s.question.type === 'ordering' && !s.question.feedback);

    // Ordering: arrows to an item's Move up button, Space moves it up; each item up to its place.
    const right = ordering.items.map((i) => i.id);
    const inOrder = (s) => s.question.rows.map((r) => r.id).join() === right.join();
    for (let place = 0; place < right.length; place++) {
      const id = right[place];
      for (let at = rowIndex(await appState(page), id); at > place; at = rowIndex(await appState(page), id)) {
        // Walked to again before every press: a move can take the focus away (a button gone).
        for (let attempt = 1; ; attempt++) {
          await focusItem(page, `button:up:${id}`);
          await page.keyboard.press('Space');
          const moved = await waitForState(page, (s) => rowIndex(s, id) < at, null, 6000).then(() => true, () => false);
          if (moved) break;
          console.log(`# ${ENGINE}: Space for Move up: ${id} did not arrive (${await keyTarget(page)}); walked to it and pressed again`);
          if (attempt === 4) throw new Error(`keyboard: Move up: ${id} never happened`);
        }
      }
    }
    state = await waitForState(page, inOrder);
    assert.match(state.question.moved, /\d/);
    await screenshot(page, `arrange-${lang}-ordering-keyboard`);
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s) => s.question.feedback);
    assert.equal(state.question.feedback.correct, true);
    await screenshot(page, `arrange-${lang}-ordering-checked`);
    app.expectNoErrors();
    await app.close();
  });
}

test('touch at 320 px: tap an answer list and an answer; tap-tap to move an item', async (t) => {
  const app = await open('ru', { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const { page } = app;
  const { tapItem } = await fingerOnItems(t, page);
  // One item wrong on purpose: partialCredit gives 2 of 3.
  const wrongItem = matching.items[2];
  const distractor = matching.answers.find((a) => !matching.items.some((i) => i.match === a.id));
  for (const item of matching.items) {
    const answer = item === wrongItem ? distractor.id : item.match;
    await tapItem(`select:${item.id}`);
    await waitForState(page, (s, id) => s.items.some((i) => i.id.startsWith(`option:${id}:`)), item.id);
    await tapItem(`option:${item.id}:${answer}`);
    await waitForState(page, (s, [i, a]) => s.question.rows.find((r) => r.id === i).answer === a, [item.id, answer]);
  }
  await screenshot(page, 'arrange-ru-320-matching-touch');
  await tapItem('button:check');
  let state = await waitForState(page, (s) => s.question.feedback);
  assert.equal(state.question.feedback.correct, false);
  assert.ok(Math.abs(state.question.feedback.score - 2 / 3) < 1e-9, `score ${state.question.feedback.score}`);
  const wrongRow = state.question.rows.find((r) => r.id === wrongItem.id);
  assert.equal(wrongRow.correct, false);
  assert.ok(wrongRow.status.includes(text(matching.answers.find((a) => a.id === wrongItem.match).text, 'ru')), wrongRow.status);
  await screenshot(page, 'arrange-ru-320-matching-checked');
  await tapItem('button:next');
  state = await waitForState(page, (s) => s.question && s.question.type === 'ordering' && !s.question.feedback);

  // Tap-tap: pick up the last item, tap the first: the last moves to place 1 (its words say so).
  const last = state.question.rows[state.question.rows.length - 1].id;
  await tapItem(`pick:${last}`);
  await tapItem(`pick:${state.question.rows[0].id}`);
  state = await waitForState(page, (s, id) => s.question.rows[0].id === id, last);
  assert.match(state.question.moved, /1/);
  await screenshot(page, 'arrange-ru-320-ordering-touch');
  app.expectNoErrors();
  await app.close();
});

for (const lang of ['en', 'ru']) {
  test(`the mirror: selects and move buttons, moves announced, axe-core clean (${lang})`, async (t) => {
    const app = await openForAxe(t, browser, `${site.url}?bank=dev/arrange.json&lang=${lang}`);
    const { page } = app;
    await waitForState(page, (s) => s.screen === 'question' && s.question.type === 'matching');
    await page.waitForFunction(() => document.querySelector('#mirror select'), null, { timeout: 30000 });
    const mirror = page.locator('#mirror');
    let snapshot = await mirror.ariaSnapshot();
    for (const item of matching.items)
      assert.ok(snapshot.includes(`combobox "${text(item.text, lang)}"`), `a select named ${item.text}:\n${snapshot}`);
    if (app.axe) await axeMirror(page, `matching (${lang})`);

    // Pair through the selects (the browser's own control), then Enter submits the form: Check.
    for (const item of matching.items) {
      const answer = text(matching.answers.find((a) => a.id === item.match).text, lang);
      await mirror.getByRole('combobox', { name: text(item.text, lang), exact: true }).selectOption({ label: answer });
      await waitForState(page, (s, [i, a]) => s.question.rows.find((r) => r.id === i).answer === a, [item.id, item.match]);
    }
    const last = matching.items[matching.items.length - 1];
    assert.match(await mirror.locator('.mirror-moved').textContent(), new RegExp(text(last.text, lang)));
    await mirror.locator('button[data-action=check]').focus();
    await page.keyboard.press('Enter');
    let state = await waitForState(page, (s) => s.question.feedback);
    assert.equal(state.question.feedback.correct, true);
    await screenshot(page, `arrange-${lang}-mirror-matching-checked`);
    await mirror.locator('button[data-action=next]').focus();
    await page.keyboard.press('Enter');
    state = await waitForState(page, (s) => s.question && s.question.type === 'ordering' && !s.question.feedback);
    await page.waitForFunction(() => document.querySelector('#mirror ol.mirror-rows'), null, { timeout: 10000 });

    // Ordering: a list; each item's Move up / Move down, named with the item.
    snapshot = await mirror.ariaSnapshot();
    const rows = state.question.rows;
    assert.ok(snapshot.includes(`list "${text(ordering.prompt, lang)}"`), snapshot);
    for (const row of rows.slice(1)) assert.ok(snapshot.includes(`button "${row.up.name}"`), `${row.up.name}:\n${snapshot}`);
    if (app.axe) await axeMirror(page, `ordering (${lang})`);
    // Move the last item up to place 1 with its button (Enter on it), each move announced.
    const mover = state.question.rows[state.question.rows.length - 1].id;
    while (rowIndex(state, mover) > 0) {
      const at = rowIndex(state, mover);
      await mirror.getByRole('button', { name: state.question.rows[at].up.name, exact: true }).focus();
      await page.keyboard.press('Enter');
      state = await waitForState(page, (s, [id, was]) => rowIndex(s, id) === was - 1, [mover, at]);
    }
    const placeWords = lang === 'ru' ? 'на месте 1 из 3' : 'at place 1 of 3';
    await page.waitForFunction((words) => document.querySelector('#mirror .mirror-moved').textContent.includes(words), placeWords,
                               { timeout: 5000 });
    await screenshot(page, `arrange-${lang}-mirror-ordering`);
    app.expectNoErrors();
    await app.close();   // closes its context too (a second close hangs WebKit's driver)
  });
}

// axe-core on the mirror's panel as a keyboard user has it: focus in it, its slide-in finished
// (colours read half-way through the animation are not the panel's).

test('1280 px: a partly right order scores part with partialCredit, and says the right places', async () => {
  const app = await open('en', { viewport: { width: 1280, height: 800 } });
  const { page } = app;
  // Matching answered through page actions: this test is about the order.
  for (const item of matching.items) await page.evaluate((a) => window.ImQuizHost.act(a), { type: 'match', item: item.id, answer: item.match });
  await page.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
  await waitForState(page, (s) => s.question.feedback);
  await page.evaluate(() => window.ImQuizHost.act({ type: 'next' }));
  let state = await waitForState(page, (s) => s.question && s.question.type === 'ordering' && !s.question.feedback);
  // The last item first, the others in order: two of the three... of two neighbour pairs, one right.
  const right = ordering.items.map((i) => i.id);
  const wanted = [right[2], right[0], right[1]];
  for (let place = 0; place < wanted.length; place++) {
    for (let guard = 0; guard < 3 && rowIndex(await appState(page), wanted[place]) !== place; guard++) {
      const at = rowIndex(await appState(page), wanted[place]);
      await scrollToAndClick(page, `button:up:${wanted[place]}`);
      await waitForState(page, (s, [id, was]) => rowIndex(s, id) === was - 1, [wanted[place], at]);
    }
  }
  state = await waitForState(page, (s, w) => s.question.rows.map((r) => r.id).join() === w.join(), wanted);
  await clickItem(page, 'button:check');
  state = await waitForState(page, (s) => s.question.feedback);
  assert.equal(state.question.feedback.correct, false);
  assert.equal(state.question.feedback.score, 0.5);
  assert.equal(state.question.feedback.verdict, 'Partly correct');
  assert.equal(state.question.rows[0].status, 'Right place: 3');
  await screenshot(page, 'arrange-en-1280-ordering-partial');
  app.expectNoErrors();
  await app.close();
});
