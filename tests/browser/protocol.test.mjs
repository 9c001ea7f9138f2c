// The page protocol (docs/page-protocol.md): every state document the app publishes, on every
// screen and in every situation these walks reach, is valid against docs/page-protocol.schema.json;
// and the page acts only through the actions the document carries (the mirror, the text field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Ajv from 'ajv';
import { startSite, openApp, waitForState, launchBrowser, act } from './harness.mjs';

const schema = JSON.parse(fs.readFileSync('docs/page-protocol.schema.json', 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const example = readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0];

const site = await startSite({ authoring: { allowBankLinks: true } });   // bank= links are used below
site.faults.set('/dev/example.json', (req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(example));
// The same as an exam, and as practice with two tries a question.
const withSettings = (settings) => JSON.stringify({ ...JSON.parse(example), settings: { ...JSON.parse(example).settings, ...settings } });
site.faults.set('/dev/exam.json', (req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(withSettings({ mode: 'exam' })));
site.faults.set('/dev/tries.json', (req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(withSettings({ maxTries: 2 })));
site.faults.set('/quizzes/broken.json', (req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"format":'));
const browser = await launchBrowser();
test.after(async () => { await browser.close(); await site.close(); });

// Every state the page receives, kept by a listener installed before the app starts.
async function recorded(page) {
  return page.evaluate(() => window.__imquizStates.splice(0));
}
async function open(url) {
  return openApp(url, { browser, initScript: () => {
    window.__imquizStates = [];
    let host;
    Object.defineProperty(window, 'ImQuizHost', {
      configurable: true,
      get() { return host; },
      set(value) { host = value; host.stateListeners.push((s) => window.__imquizStates.push(s)); },
    });
  } });
}

function assertValid(states, where) {
  assert.ok(states.length > 0, `${where}: states were published`);
  for (const state of states) {
    const ok = validate(state);
    assert.ok(ok, `${where} (${state.screen}): ${JSON.stringify(validate.errors, null, 1)}`);
  }
}


test('catalog, question (every type), feedback, results, settings: every state matches the schema', async () => {
  const app = await open(`${site.url}?bank=dev/example.json&lang=en`);
  const { page } = app;
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  const seen = new Set();
  while (state.screen === 'question') {
    const q = state.question;
    seen.add(q.type);
    if (q.hint) {
      await act(page, q.hint.action);
      state = await waitForState(page, (s) => s.question.hints.length > 0);
    }
    // Act only through what the document offers: a choice's own action, or typing.
    if (q.choices.length) await act(page, q.choices[0].action);
    else if (q.type === 'matching') for (const row of q.rows) await act(page, row.options[1].action);  // [0] unpairs
    else if (q.type === 'ordering') await act(page, q.rows[q.rows.length - 1].up.action);
    else if (q.type === 'cloze') {
      for (const row of q.rows) {
        await act(page, row.field ? { type: 'fill', blank: row.id, value: row.field.numeric ? 'not a number' : 'words' }
                                  : row.options[1].action);
      }
    } else await act(page, { type: 'type', text: q.field.numeric ? 'not a number' : 'words' });
    state = await waitForState(page, (s) => s.question && s.question.primary.enabled);
    if (q.field && q.field.numeric) {
      await act(page, state.question.primary.action);
      state = await waitForState(page, (s) => s.question.field && s.question.field.problem !== '');
      await act(page, { type: 'type', text: '1' });
      state = await waitForState(page, (s) => s.question.field.problem === '' && s.question.primary.enabled);
    }
    // A cloze number blank that is not a number: its row says why, then it is fixed.
    const numberRow = q.type === 'cloze' && q.rows.find((r) => r.field && r.field.numeric);
    if (numberRow) {
      await act(page, state.question.primary.action);
      state = await waitForState(page, (s, id) => s.question.rows.find((r) => r.id === id).field.problem !== '', numberRow.id);
      await act(page, { type: 'fill', blank: numberRow.id, value: '1' });
      state = await waitForState(page, (s, id) => s.question.rows.find((r) => r.id === id).field.problem === '' &&
                                                  s.question.primary.enabled, numberRow.id);
    }
    await act(page, state.question.primary.action);
    state = await waitForState(page, (s) => s.question && s.question.feedback);
    assert.ok(state.question.feedback.announcement.startsWith(state.question.feedback.verdict));
    const index = state.question.index;
    await act(page, state.question.primary.action);
    state = await waitForState(page, (s, i) => s.screen !== 'question' || s.question.index !== i, index);
  }
  assert.deepEqual([...seen].sort(), ['cloze', 'matching', 'multiple_choice', 'numeric', 'ordering', 'short_text',
                                      'single_choice', 'true_false']);
  assert.equal(state.screen, 'results');
  await act(page, { type: 'settings' });
  state = await waitForState(page, (s) => s.screen === 'settings');
  for (const group of state.settings.groups) assert.equal(group.options.filter((o) => o.selected).length, 1, group.id);
  await act(page, state.settings.groups.find((g) => g.id === 'language').options.find((o) => o.value === 'ru').action);
  await waitForState(page, (s) => s.language === 'ru' && s.settings.heading === 'Настройки');
  assertValid(await recorded(page), 'a whole attempt');
  app.expectNoErrors();
  await app.close();
});

test('an exam (the palette, flags, the confirmation, the results) and tries (a try told): every state matches the schema', async () => {
  let app = await open(`${site.url}?bank=dev/exam.json&lang=ru`);
  let { page } = app;
  let state = await waitForState(page, (s) => s.screen === 'question' && s.question.exam);
  for (const item of state.question.exam.palette) {
    await act(page, item.action);
    state = await waitForState(page, (s, n) => s.question.exam.palette.find((p) => p.current).number === n, item.number);
    if (state.question.choices.length) await act(page, state.question.choices[state.question.choices.length - 1].action);
    if (Number(item.number) % 2) await act(page, state.question.exam.flag.action);
  }
  await act(page, state.question.exam.submit.action);
  state = await waitForState(page, (s) => s.question.exam.confirmation);
  await act(page, state.question.exam.confirmation.confirm.action);
  state = await waitForState(page, (s) => s.screen === 'results');
  assertValid(await recorded(page), 'an exam');
  app.expectNoErrors();
  await app.close();

  app = await open(`${site.url}?bank=dev/tries.json&lang=en`);
  ({ page } = app);
  state = await waitForState(page, (s) => s.screen === 'question' && s.question);
  // A wrong choice of the example's first question: a try told.
  const first = JSON.parse(example).questions[0];
  assert.equal(state.question.id, first.id);
  await act(page, state.question.choices.find((c) => c.id === first.choices.find((f) => !f.correct).id).action);
  await act(page, { type: 'check' });
  state = await waitForState(page, (s) => s.question.tryAgain);
  assertValid(await recorded(page), 'tries');
  app.expectNoErrors();
  await app.close();
});

test('the catalog with a failed bank, a missing quiz, and a notice: every state matches the schema', async () => {
  const app = await open(`${site.url}?quiz=no-such-quiz&lang=id`);
  const { page } = app;
  const state = await waitForState(page, (s) => s.screen === 'catalog' && s.quizNotFound && s.banks.every((b) => b.state !== 'loading'));
  assert.equal(state.catalog.notFound, 'quiz=no-such-quiz');
  for (const bank of state.banks) assert.equal(bank.buttons[0].name, `${bank.buttons[0].label}: ${bank.title}`);
  assertValid(await recorded(page), 'catalog');
  await app.close();
});
