// The page runtime in a real browser: storage (namespacing, refused storage, a full quota),
// nothing lost (corrupt, newer and old-version records), two tabs, reload mid-quiz, export and
// import, and loading (broken banks, Retry, URL parameters, bank=<url> from here and elsewhere).
// Every page is served with the recommended CSP; a console error fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, openApp, waitForState, appState, clickItem, launchBrowser, SITE_DIR, ENGINE, skipStep, expectDownload,
         chooseFile, act, movableClock, moveClock } from './harness.mjs';
import { serve, securityHeaders } from '../../scripts/serve.mjs';

const browser = await launchBrowser();
const site = await startSite({ authoring: { allowBankLinks: true } });   // bank= links are used below
const temporaryDirs = [];
const temporaryDir = (name) => {
  temporaryDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `imquiz-${name}-`)));
  return temporaryDirs.at(-1);
};
test.after(async () => {
  await browser.close(); await site.close();
  for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const bank = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', 'data-parallelism.json'), 'utf8'));
const correctChoice = (id) => bank.questions.find((q) => q.id === id).choices.find((c) => c.correct).id;
const wrongChoice = (id) => bank.questions.find((q) => q.id === id).choices.find((c) => !c.correct).id;
const ready = (s) => s.screen === 'catalog' && s.banks.length > 0 && s.banks.every((b) => b.state !== 'loading');
const EN = { unavailable: /does not let ImQuiz save progress/, writeFailed: /could not be saved/ };
// No service worker unless the test is about it: a worker taking over mid-test would change
// where requests go.
const NO_SW = 'sw=0';

// Acts as the learner would, through the page's action queue (the accessibility mirror's path).

// Answers the current question (right unless `wrong`), checks it, and moves on. Returns the
// question id answered.
async function answer(page, { wrong = false, next = true } = {}) {
  const state = await waitForState(page, (s) => s.screen === 'question' && s.question && !s.question.feedback);
  const { id, index } = state.question;
  await act(page, { type: 'select', choice: wrong ? wrongChoice(id) : correctChoice(id) });
  await act(page, { type: 'check' });
  await waitForState(page, (s, i) => s.question && s.question.index === i && s.question.feedback, index);
  if (next) {
    await act(page, { type: 'next' });
    await waitForState(page, (s, i) => s.screen === 'results' || (s.question && s.question.index === i + 1), index);
  }
  return id;
}

async function playToResults(page, wrongAt = []) {
  for (;;) {
    const state = await waitForState(page, (s) => s.screen === 'results' || (s.question && !s.question.feedback));
    if (state.screen === 'results') return state;
    await answer(page, { wrong: wrongAt.includes(state.question.index) });
  }
}

// localStorage as a plain object (only the entries under `prefix`).
async function stored(page, prefix = '') {
  return page.evaluate((p) => {
    const out = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith(p)) out[key] = localStorage.getItem(key);
    }
    return out;
  }, prefix);
}

// A folder with links a/ and b/ to the site: two deployments of one build on one origin.
function twoDeployments() {
  const dir = temporaryDir('two');
  fs.symlinkSync(SITE_DIR, path.join(dir, 'a'));
  fs.symlinkSync(SITE_DIR, path.join(dir, 'b'));
  return dir;
}

// ---- 1. Storage ------------------------------------------------------------------------------

test('storage: progress and settings are namespaced by deployment path (/a/ and /b/ on one origin)', async () => {
  const root = await startSite({ dir: twoDeployments() });
  const context = await browser.newContext();
  try {
    const a = await openApp(`${root.url}a/?quiz=data-parallelism&lang=en&${NO_SW}`, { context });
    await answer(a.page);
    assert.equal(await a.page.evaluate(() => window.ImQuizHost.namespace), 'imquiz:/a/:');
    const b = await openApp(`${root.url}b/?lang=en&${NO_SW}`, { context });
    let state = await waitForState(b.page, ready);
    assert.equal(state.banks.find((x) => x.id === 'data-parallelism').inProgress, false, '/b/ does not see /a/\'s attempt');
    await act(b.page, { type: 'theme', value: 'dark' });
    await waitForState(b.page, (s) => s.preferences.theme === 'dark');

    const keys = Object.keys(await stored(b.page)).sort();
    // quiz-files: boot.js remembers the file of a quiz opened by link (quiz=), to request it at once next time;
    // player: that the launch banks (Markdown banks) took the rich player, to download it at once next time.
    assert.deepEqual(keys, ['imquiz:/a/:player', 'imquiz:/a/:progress.data-parallelism', 'imquiz:/a/:quiz-files',
                            'imquiz:/b/:player', 'imquiz:/b/:settings'],
                     'every key is under its deployment; the probe key is gone');
    assert.deepEqual(JSON.parse((await stored(b.page))['imquiz:/a/:quiz-files']), { 'data-parallelism': 'data-parallelism.json' });
    assert.equal(JSON.parse((await stored(b.page))['imquiz:/b/:settings']).theme, 'dark');

    await a.page.reload();
    state = await waitForState(a.page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.question.index, 2, '/a/ resumes its own attempt');
    assert.equal(state.preferences.theme, 'system', '/b/\'s theme did not leak into /a/');
    a.expectNoErrors();
    b.expectNoErrors();
  } finally {
    await context.close();
    await root.close();
  }
});

// The browser refuses storage (privacy mode, blocked third-party storage): property access throws.
const REFUSE_STORAGE = () => {
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
  });
};

test('storage refused (SecurityError): plays in memory, says so once, exports a JSON file', async (t) => {
  const app = await openApp(`${site.url}?lang=en&${NO_SW}`, { browser, initScript: REFUSE_STORAGE, acceptDownloads: true });
  let state = await waitForState(app.page, ready);
  assert.equal(state.storagePersistent, false);
  assert.match(state.notice, EN.unavailable);
  assert.equal(await app.page.evaluate(() => window.ImQuizHost.storage.problem()), 'SecurityError');
  // Dismissed before playing: the saves that go to memory from now on must not raise a second notice.
  await clickItem(app.page, 'button:dismiss-notice');
  await waitForState(app.page, (s) => s.notice === '');
  await clickItem(app.page, 'button:open:data-parallelism');
  state = await playToResults(app.page, [3]);
  assert.equal(state.results.percent, 87.5);
  assert.equal(state.notice, '', 'told once, not again for every save');
  await act(app.page, { type: 'catalog' });
  state = await waitForState(app.page, (s) => s.screen === 'catalog');
  assert.equal(state.banks.find((b) => b.id === 'data-parallelism').attempts, 1, 'kept in memory');

  await clickItem(app.page, 'button:settings');
  await waitForState(app.page, (s) => s.screen === 'settings');
  const download = await expectDownload(t, app.page, () => clickItem(app.page, 'button:export'));
  assert.equal(download.name, 'imquiz-progress.json');
  const exported = JSON.parse(download.text);
  assert.equal(exported.format, 'imquiz-progress-export');
  assert.equal(exported.records.length, 1);
  assert.equal(exported.records[0].bankId, 'data-parallelism');
  assert.equal(exported.records[0].finished.length, 1);
  assert.equal(exported.records[0].bestPercent, 87.5);
  app.expectNoErrors();
  await app.close();
});

// setItem throws QuotaExceededError once the test sets window.quotaFull (the probe passes first).
const QUOTA_SWITCH = () => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (window.quotaFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return setItem.call(this, key, value);
  };
};

test('storage full mid-quiz (QuotaExceededError): the quiz goes on, one clear notice, nothing saved is lost', async (t) => {
  const app = await openApp(`${site.url}?quiz=data-parallelism&lang=en&${NO_SW}`, { browser, initScript: QUOTA_SWITCH,
                                                                                    acceptDownloads: true });
  await answer(app.page);
  await answer(app.page);
  const before = await stored(app.page);
  const key = 'imquiz:/:progress.data-parallelism';
  const savedAttempt = JSON.parse(before[key]).inProgress;
  assert.equal(savedAttempt.current, 2, 'two answers saved');
  assert.equal((await appState(app.page)).notice, '');

  await app.page.evaluate(() => { window.quotaFull = true; });
  await answer(app.page);
  let state = await waitForState(app.page, (s) => s.notice !== '');
  assert.match(state.notice, EN.writeFailed);
  assert.equal(await app.page.evaluate(() => window.ImQuizHost.storage.problem()), 'QuotaExceededError');
  await clickItem(app.page, 'button:dismiss-notice');
  state = await playToResults(app.page);
  assert.equal(state.results.percent, 100, 'the quiz went on to the end');
  assert.equal(state.notice, '', 'the notice came once');
  assert.deepEqual(await stored(app.page), before, 'what was saved before is still there, unchanged');

  // The session's progress is not lost either: it is in memory, and Export has it.
  await act(app.page, { type: 'settings' });
  await waitForState(app.page, (s) => s.screen === 'settings');
  const download = await expectDownload(t, app.page, () => clickItem(app.page, 'button:export'));
  const exported = JSON.parse(download.text);
  assert.equal(exported.records[0].finished.length, 1);
  assert.equal(exported.records[0].bestPercent, 100);

  // Space again: the next save writes everything, the finished attempt included.
  await app.page.evaluate(() => { window.quotaFull = false; });
  await act(app.page, { type: 'close-settings' });
  await act(app.page, { type: 'retry' });
  await waitForState(app.page, (s) => s.screen === 'question' && s.question.index === 1);
  const after = JSON.parse((await stored(app.page))[key]);
  assert.equal(after.finished.length, 1);
  assert.equal(after.bestPercent, 100);
  app.expectNoErrors();
  await app.close();
});

// ---- 2. Nothing is lost ------------------------------------------------------------------------

// Opens the catalog with `records` (bank id -> stored text) in localStorage before the app starts.
async function openWithRecords(records, query = '') {
  const context = await browser.newContext();
  const seed = await context.newPage();
  await seed.goto(`${site.url}version.json`);   // the origin, without starting the app
  await seed.evaluate((entries) => {
    for (const [id, text] of Object.entries(entries)) localStorage.setItem(`imquiz:/:progress.${id}`, text);
  }, records);
  await seed.close();
  const app = await openApp(`${site.url}?lang=en&${NO_SW}${query}`, { context });
  return { ...app, state: await waitForState(app.page, ready) };
}

test('a corrupt record is moved aside and the app runs', async () => {
  const garbage = '{"version":2,"bankId":"data-parallelism","finished":[';
  const app = await openWithRecords({ 'data-parallelism': garbage });
  assert.equal(app.state.banks.find((b) => b.id === 'data-parallelism').attempts, 0);
  let keys = await stored(app.page, 'imquiz:/:progress.data-parallelism');
  assert.deepEqual(keys, { 'imquiz:/:progress.data-parallelism.unreadable': garbage }, 'moved aside, byte for byte');
  await clickItem(app.page, 'button:open:data-parallelism');
  await answer(app.page);
  keys = await stored(app.page, 'imquiz:/:progress.data-parallelism');
  assert.equal(keys['imquiz:/:progress.data-parallelism.unreadable'], garbage, 'the copy stays');
  assert.equal(JSON.parse(keys['imquiz:/:progress.data-parallelism']).inProgress.current, 1);
  app.expectNoErrors();
  await app.close();
});

test('a partly unreadable record keeps its readable part and the original aside', async () => {
  const good = { attemptId: 'a1', bankFingerprint: '', startedAtMs: 1700000000000, finishedAtMs: 1700000100000,
                 durationMs: 100000, score: 6, maxScore: 8, percent: 75, passed: true, questions: [] };
  const text = JSON.stringify({ version: 2, bankId: 'data-parallelism', bestPercent: 75,
                                finished: [good, { ...good, attemptId: 'a2', percent: 'lots' }], questionStats: {} });
  const app = await openWithRecords({ 'data-parallelism': text });
  const slot = app.state.banks.find((b) => b.id === 'data-parallelism');
  assert.equal(slot.attempts, 1);
  assert.equal(slot.bestPercent, 75);
  const keys = await stored(app.page, 'imquiz:/:progress.data-parallelism');
  assert.equal(keys['imquiz:/:progress.data-parallelism.unreadable'], text);
  assert.equal(JSON.parse(keys['imquiz:/:progress.data-parallelism']).finished.length, 1);
  app.expectNoErrors();
  await app.close();
});

test('a record from a newer version is left untouched, even after playing', async () => {
  const future = JSON.stringify({ version: 3, bankId: 'data-parallelism', somethingNew: { a: 1 } });
  const app = await openWithRecords({ 'data-parallelism': future });
  assert.equal(app.state.banks.find((b) => b.id === 'data-parallelism').attempts, 0, 'the app runs');
  assert.match(app.state.notice, /newer version of ImQuiz/, 'the learner is told why nothing is saved');
  await clickItem(app.page, 'button:open:data-parallelism');
  await answer(app.page);
  assert.deepEqual(await stored(app.page, 'imquiz:/:progress.'), { 'imquiz:/:progress.data-parallelism': future });
  app.expectNoErrors();
  await app.close();
});

test('a version-1 record is migrated, with the original kept as a backup', async () => {
  const v1 = JSON.stringify({
    version: 1, quiz: 'data-parallelism', best: 75,
    history: [{ finishedAt: 1700000000, durationSeconds: 120, correct: 6, total: 8, passed: true,
                answers: { 'gpu-replica-contents': true, 'replica-sync-collective': false } }],
    current: { seed: 7, index: 2, answers: {} },
    stats: { 'gpu-replica-contents': { seen: 1, right: 1 }, 'replica-sync-collective': { seen: 1, right: 0 } },
  });
  const app = await openWithRecords({ 'data-parallelism': v1 });
  const slot = app.state.banks.find((b) => b.id === 'data-parallelism');
  assert.equal(slot.attempts, 1);
  assert.equal(slot.bestPercent, 75);
  assert.equal(slot.inProgress, false, 'a v1 attempt in progress cannot be resumed exactly');
  const keys = await stored(app.page, 'imquiz:/:progress.data-parallelism');
  assert.equal(keys['imquiz:/:progress.data-parallelism.backup-v1'], v1, 'backup, byte for byte');
  const v2 = JSON.parse(keys['imquiz:/:progress.data-parallelism']);
  assert.equal(v2.version, 2);
  assert.equal(v2.finished[0].durationMs, 120000);
  assert.equal(v2.finished[0].percent, 75);
  assert.match(v2.finished[0].attemptId, /^v1-/);
  assert.deepEqual(v2.questionStats['replica-sync-collective'], { seen: 1, correct: 0, lastSeenMs: 1700000000000 });
  // Loading again does not back up a second time.
  await app.page.reload();
  await waitForState(app.page, ready);
  assert.deepEqual(Object.keys(await stored(app.page, 'imquiz:/:progress.')).sort(),
                   ['imquiz:/:progress.data-parallelism', 'imquiz:/:progress.data-parallelism.backup-v1']);
  app.expectNoErrors();
  await app.close();
});

// ---- 3. Two tabs ---------------------------------------------------------------------------------

test('two tabs on the same quiz: both finished attempts end up in storage', async () => {
  const context = await browser.newContext();
  const url = `${site.url}?quiz=data-parallelism&lang=en&${NO_SW}`;
  const first = await openApp(url, { context });
  const idOf = async (page) => (await waitForState(page, (s) => s.question)).question.id;
  const firstQuestion = await idOf(first.page);
  assert.ok(JSON.parse((await stored(first.page))['imquiz:/:progress.data-parallelism']).inProgress);
  // The second tab finds the first one's attempt in progress and continues it: the hard case,
  // where both tabs play what started as one attempt.
  const second = await openApp(url, { context });
  assert.equal(await idOf(second.page), firstQuestion, 'the second tab resumed the stored attempt');
  // Interleaved: each tab saves between the other's saves.
  for (let n = 0; n < 8; n++) {
    await answer(first.page, { wrong: n === 0 });
    await answer(second.page, { wrong: n < 2 });
  }
  const one = await waitForState(first.page, (s) => s.screen === 'results');
  const two = await waitForState(second.page, (s) => s.screen === 'results');
  assert.equal(one.results.percent, 87.5);
  assert.equal(two.results.percent, 75);
  const record = JSON.parse((await stored(first.page))['imquiz:/:progress.data-parallelism']);
  assert.equal(record.finished.length, 2, 'both attempts are stored');
  assert.deepEqual(record.finished.map((a) => a.percent).sort(), [75, 87.5]);
  assert.notEqual(record.finished[0].attemptId, record.finished[1].attemptId);
  assert.equal(record.bestPercent, 87.5);
  assert.equal(record.questionStats['gpu-replica-contents'].seen, 2, 'stats count both attempts once each');
  // The tab that finished first learns of the other's attempt through the storage event.
  await waitForState(first.page, (s) => s.banks[0].attempts === 2);
  first.expectNoErrors();
  second.expectNoErrors();
  await context.close();
});

// ---- 4. Reload mid-quiz ----------------------------------------------------------------------------

test('reload mid-quiz resumes at the same question with the same choice order', async () => {
  const app = await openApp(`${site.url}?quiz=data-parallelism&lang=en&${NO_SW}`, { browser });
  await answer(app.page);
  await answer(app.page, { next: false });   // the second is checked but Next not pressed
  let state = await waitForState(app.page, (s) => s.question && s.question.feedback);
  const before = { id: state.question.id, index: state.question.index, order: state.question.choices.map((c) => c.id) };
  assert.equal(before.index, 2);

  await app.page.reload();
  state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
  assert.deepEqual({ id: state.question.id, index: state.question.index, order: state.question.choices.map((c) => c.id) },
                   before);
  assert.ok(state.question.feedback, 'the checked answer is shown again');

  // Without quiz=, through the catalog's Continue.
  await app.page.goto(`${site.url}?lang=en&${NO_SW}`);
  state = await waitForState(app.page, ready);
  assert.equal(state.banks.find((b) => b.id === 'data-parallelism').inProgress, true);
  await clickItem(app.page, 'button:open:data-parallelism');
  state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
  assert.deepEqual({ id: state.question.id, index: state.question.index, order: state.question.choices.map((c) => c.id) },
                   before);
  app.expectNoErrors();
  await app.close();
});

// ---- 5. Export and import -----------------------------------------------------------------------

test('export, then import into a fresh profile, restores best score, attempts and the review schedule', async (t) => {
  const source = await openApp(`${site.url}?quiz=data-parallelism&lang=en&${NO_SW}`, { browser, acceptDownloads: true,
                                                                                      initScript: movableClock });
  await playToResults(source.page, [2, 5]);
  await act(source.page, { type: 'retry' });
  // The app takes the action on its next frame: until then the state is still the first attempt's
  // results, and playing "to the results" would stop at once (WebKit under Xvfb draws few frames,
  // so there it did: the export then held one finished attempt and one just started).
  await waitForState(source.page, (s) => s.screen === 'question' && s.question.index === 1 && !s.question.feedback);
  await playToResults(source.page, [4]);
  // Forty days on, every question answered is due for review: the schedule the file must carry.
  await moveClock(source.page, 40 * 86400000);
  await act(source.page, { type: 'settings' });
  const dp = (s) => s.banks.find((b) => b.id === 'data-parallelism');
  const before = dp(await waitForState(source.page, (s) => s.screen === 'settings' &&
                                       s.banks.some((b) => b.id === 'data-parallelism' && b.due > 0)));
  const download = await expectDownload(t, source.page, () => clickItem(source.page, 'button:export'));
  const file = path.join(temporaryDir('export'), 'progress.json');
  fs.writeFileSync(file, download.text);
  source.expectNoErrors();
  await source.close();

  const fresh = await openApp(`${site.url}?lang=en&${NO_SW}`, { browser, initScript: movableClock });
  await moveClock(fresh.page, 40 * 86400000);
  let state = await waitForState(fresh.page, ready);
  assert.equal(state.banks.find((b) => b.id === 'data-parallelism').attempts, 0);
  assert.equal(state.banks.find((b) => b.id === 'data-parallelism').due, 0);
  await clickItem(fresh.page, 'button:settings');
  await waitForState(fresh.page, (s) => s.screen === 'settings');
  await chooseFile(t, fresh.page, () => clickItem(fresh.page, 'button:import'), file);
  state = await waitForState(fresh.page, (s) => s.importMessage && s.banks[0].attempts === 2);
  const slot = state.banks.find((b) => b.id === 'data-parallelism');
  assert.equal(slot.bestPercent, 87.5);
  assert.equal(slot.attempts, 2);
  // The same questions due, and the same picture of what is known.
  assert.equal(slot.due, before.due);
  assert.deepEqual(slot.progress, before.progress);
  await fresh.page.reload();
  state = await waitForState(fresh.page, ready);
  assert.equal(state.banks.find((b) => b.id === 'data-parallelism').attempts, 2, 'the import was saved');
  fresh.expectNoErrors();
  await fresh.close();
});

// ---- 6. Loading ------------------------------------------------------------------------------------

test('one broken bank never breaks the catalog; Retry refetches', async () => {
  const catalog = { format: 'imquiz-catalog', version: 1, banks: [
    { id: 'data-parallelism', file: 'data-parallelism.json' },
    { id: 'late-bank', file: 'late-bank.json' },
    { id: 'broken-bank', file: 'broken-bank.json' },
  ] };
  const late = { ...bank, id: 'late-bank', title: { en: 'Late bank' } };
  const broken = { format: 'imquiz-bank', version: 1, id: 'broken-bank', title: 'Broken', questions: [] };
  let lateRequests = 0;
  const json = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...securityHeaders() }).end(JSON.stringify(body));
  };
  site.faults.set('/quizzes/index.json', (req, res) => json(res, 200, catalog));
  site.faults.set('/quizzes/late-bank.json', (req, res) => {
    lateRequests += 1;
    if (lateRequests === 1) json(res, 404, { error: 'not yet' });
    else json(res, 200, late);
  });
  site.faults.set('/quizzes/broken-bank.json', (req, res) => json(res, 200, broken));
  try {
    const app = await openApp(`${site.url}?lang=en&${NO_SW}`, { browser, allowErrors: [/status of 404/] });
    let state = await waitForState(app.page, ready);
    const byId = Object.fromEntries(state.banks.map((b) => [b.id, b]));
    assert.equal(byId['data-parallelism'].state, 'ready');
    assert.equal(byId['late-bank'].state, 'fetch-failed');
    assert.match(byId['late-bank'].error, /404/);
    assert.equal(byId['broken-bank'].state, 'invalid');
    assert.ok(byId['broken-bank'].problems.some((p) => /questions/.test(p)), byId['broken-bank'].problems.join('\n'));
    assert.ok(state.items.some((i) => i.id === 'button:open:data-parallelism'), 'the good bank can be started');
    assert.equal(lateRequests, 1, 'the head start and the app share one request');

    await clickItem(app.page, 'button:retry-load:late-bank');
    state = await waitForState(app.page, (s) => s.banks.find((b) => b.id === 'late-bank').state === 'ready');
    assert.equal(state.banks.find((b) => b.id === 'late-bank').title, 'Late bank');
    assert.equal(lateRequests, 2);
    app.expectNoErrors();
    await app.close();
  } finally {
    site.faults.clear();
  }
});

test('each file is requested once per page load (the head start is reused)', async () => {
  const counts = new Map();
  const server = await serve(SITE_DIR, { intercept: (req, res, urlPath) => {
    counts.set(urlPath, (counts.get(urlPath) || 0) + 1);
    return false;
  } });
  try {
    const app = await openApp(`${server.url}?lang=en&${NO_SW}`, { browser });
    await waitForState(app.page, (s) => ready(s) && s.banks.every((b) => b.state === 'ready'));
    // imquiz.wasm: the guess of a first visit, cancelled when the banks choose the rich player.
    for (const file of ['/quizzes/index.json', '/fonts/imquiz-sans.ttf', '/imquiz.wasm', '/imquiz-rich.wasm',
                        '/quizzes/data-parallelism.json', '/quizzes/model-pipeline-parallelism.json'])
      assert.equal(counts.get(file), 1, `${file} requested ${counts.get(file)} times`);
    app.expectNoErrors();
    await app.close();
  } finally {
    await server.close();
  }
});

// Streaming compilation needs the application/wasm type. A host that sends another gets the slow
// path from the same response: it used to ask for the wasm again (two downloads, and a second
// request also when a navigation cut the first one off).
test('a host that serves the wasm under another type: the app starts from one download', async () => {
  const players = ['/imquiz.wasm', '/imquiz-rich.wasm'];   // the rich one runs the launch banks
  for (const file of players) {
    const wasm = fs.readFileSync(path.join(SITE_DIR, file));
    site.faults.set(file, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', ...securityHeaders() }).end(wasm);
    });
  }
  const before = players.map((file) => site.requestCount(file));
  try {
    const app = await openApp(`${site.url}?lang=en&${NO_SW}`, { browser });
    await waitForState(app.page, ready);
    assert.deepEqual(players.map((file, i) => site.requestCount(file) - before[i]), [1, 1], 'each requested once');
    app.expectNoErrors();
    await app.close();
  } finally {
    site.faults.clear();
  }
});

test('a quiz opened by link: its bank is requested at once, beside the catalog (guessed on a first visit, remembered after); after a rename the right file', async () => {
  const context = await browser.newContext();
  const url = `${site.url}?quiz=data-parallelism&lang=en&${NO_SW}`;
  const remembered = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('imquiz:/:quiz-files')));
  const sendFile = (res, file) => res.writeHead(200, { 'Content-Type': 'application/json', ...securityHeaders() })
    .end(fs.readFileSync(path.join(SITE_DIR, file)));
  const question = (s) => s.screen === 'question' && s.question && s.quiz && s.quiz.id === 'data-parallelism';
  // The catalog answers slowly: the bank is asked for before it comes.
  let arrivals = [];
  const slowCatalog = () => {
    site.faults.set('/quizzes/index.json', (req, res) => {
      arrivals.push('catalog requested');
      setTimeout(() => { arrivals.push('catalog answered'); sendFile(res, 'quizzes/index.json'); }, 1500);
    });
    site.faults.set('/quizzes/data-parallelism.json', () => { arrivals.push('bank requested'); return false; });
  };
  try {
    // A first visit: nothing remembered, the file guessed as catalogs name them (<id>.json).
    slowCatalog();
    const first = await openApp(url, { context });
    await waitForState(first.page, question);
    assert.deepEqual(arrivals, ['catalog requested', 'bank requested', 'catalog answered']);
    assert.deepEqual(await remembered(first.page), { 'data-parallelism': 'data-parallelism.json' });
    first.expectNoErrors();
    await first.page.close();

    // The next visit: the remembered file.
    arrivals = [];
    const second = await openApp(url, { context });
    await waitForState(second.page, question);
    assert.deepEqual(arrivals, ['catalog requested', 'bank requested', 'catalog answered']);
    second.expectNoErrors();
    await second.page.close();

    // The author moved the file: the remembered one is asked for once (a 404), the catalog's opens.
    site.faults.clear();
    const catalog = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', 'index.json'), 'utf8'));
    for (const entry of catalog.banks) if (entry.id === 'data-parallelism') entry.file = 'moved/data-parallelism.json';
    let oldRequests = 0;
    site.faults.set('/quizzes/index.json', (req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json', ...securityHeaders() }).end(JSON.stringify(catalog)));
    site.faults.set('/quizzes/data-parallelism.json', (req, res) => {
      oldRequests += 1;
      res.writeHead(404, { 'Content-Type': 'text/plain', ...securityHeaders() }).end('moved');
    });
    site.faults.set('/quizzes/moved/data-parallelism.json', (req, res) => sendFile(res, 'quizzes/data-parallelism.json'));
    const third = await openApp(url, { context, allowErrors: [/status of 404/] });
    await waitForState(third.page, question);
    assert.equal(oldRequests, 1, 'the stale memory cost one request');
    assert.deepEqual(await remembered(third.page), { 'data-parallelism': 'moved/data-parallelism.json' });
    third.expectNoErrors();

    // A first visit to the moved file: the guess is asked for once (a 404), the catalog's opens.
    oldRequests = 0;
    const fresh = await browser.newContext();
    try {
      const firstAfterMove = await openApp(url, { context: fresh, allowErrors: [/status of 404/] });
      await waitForState(firstAfterMove.page, question);
      assert.equal(oldRequests, 1, 'the wrong guess cost one request');
      firstAfterMove.expectNoErrors();
    } finally {
      await fresh.close();
    }
  } finally {
    site.faults.clear();
    await context.close();
  }
});

test('URL parameters: quiz=, lang=, theme=, embed=1', async () => {
  const app = await openApp(`${site.url}?quiz=model-pipeline-parallelism&lang=ru&theme=dark&embed=1&${NO_SW}`,
                            { browser });
  const state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
  assert.equal(state.quiz.id, 'model-pipeline-parallelism');
  assert.equal(state.language, 'ru');
  assert.match(state.question.prompt, /[А-Яа-яЁё]/);
  assert.equal(state.preferences.theme, 'dark');
  assert.equal(state.embed, true);
  assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'ru');
  app.expectNoErrors();
  await app.close();
});

test('bank=<url>: a same-origin bank under development opens directly', async () => {
  const dev = { ...bank, id: 'my-draft', title: { en: 'My draft' } };
  site.faults.set('/drafts/my-draft.json', (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', ...securityHeaders() }).end(JSON.stringify(dev));
    return true;
  });
  try {
    const app = await openApp(`${site.url}?bank=drafts/my-draft.json&lang=en&${NO_SW}`, { browser });
    const state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.quiz.id, 'my-draft');
    assert.deepEqual(state.banks.map((b) => b.id), ['my-draft'], 'without the catalog');
    app.expectNoErrors();
    await app.close();
  } finally {
    site.faults.clear();
  }
});

test('bank=<url> on another origin: only where authoring.json lists it and the CSPs allow it', async () => {
  const bankText = fs.readFileSync(path.join(SITE_DIR, 'quizzes', 'data-parallelism.json'));
  // The bank server: localhost is another origin than 127.0.0.1.
  const other = await serve(SITE_DIR, { host: '127.0.0.1', intercept: (req, res, urlPath) => {
    const headers = { 'Content-Type': 'application/json' };
    if (urlPath === '/cors/bank.json') headers['Access-Control-Allow-Origin'] = '*';
    else if (urlPath !== '/plain/bank.json') return false;
    res.writeHead(200, headers).end(bankText);
    return true;
  } });
  const otherOrigin = `http://localhost:${other.port}`;
  const authoring = JSON.stringify({ allowBankLinks: true, bankOrigins: [otherOrigin] });
  const withAuthoring = (req, res, urlPath) => {
    if (urlPath !== '/authoring.json') return false;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(authoring);
    return true;
  };
  // A deployment that lists the bank server in connect-src of its header and of index.html's
  // <meta> policy (both apply), as the README tells authors to.
  const widened = (policy) => policy.replace("connect-src 'self'", `connect-src 'self' ${otherOrigin}`);
  const dir = temporaryDir('cors-site');
  fs.cpSync(SITE_DIR, dir, { recursive: true });
  const indexFile = path.join(dir, 'index.html');
  const indexHtml = fs.readFileSync(indexFile, 'utf8');
  assert.match(indexHtml, /<meta http-equiv="Content-Security-Policy"[^>]*connect-src 'self'/);
  fs.writeFileSync(indexFile, indexHtml.replace(/(<meta http-equiv="Content-Security-Policy" content="[^"]*connect-src 'self')/,
                                                `$1 ${otherOrigin}`));
  for (const compressed of ['.br', '.gz']) fs.rmSync(indexFile + compressed, { force: true });
  const headers = { ...securityHeaders(), 'Content-Security-Policy': widened(securityHeaders()['Content-Security-Policy']) };
  const page = await serve(dir, { headers, intercept: withAuthoring });
  // The shipped page (meta connect-src 'self') under a header that would allow the bank server.
  const shipped = await serve(SITE_DIR, { headers, intercept: withAuthoring });
  try {
    let app = await openApp(`${page.url}?bank=${encodeURIComponent(`${otherOrigin}/cors/bank.json`)}&lang=en&${NO_SW}`,
                            { browser });
    let state = await waitForState(app.page, (s) => s.screen === 'question' && s.question);
    assert.equal(state.quiz.id, 'data-parallelism');
    assert.equal(await app.page.evaluate(() => window.ImQuizHost.developmentBankUrl), `${otherOrigin}/cors/bank.json`);
    app.expectNoErrors();
    await app.close();

    app = await openApp(`${page.url}?bank=${encodeURIComponent(`${otherOrigin}/plain/bank.json`)}&lang=en&${NO_SW}`,
                        { browser, allowErrors: [/CORS policy/, /net::ERR_FAILED/, /Cross-Origin Request Blocked/] });
    state = await waitForState(app.page, (s) => s.banks.length && s.banks[0].state === 'fetch-failed');
    assert.match(state.banks[0].error, /Access-Control-Allow-Origin/);
    assert.match(state.banks[0].error, new RegExp(otherOrigin));
    app.expectNoErrors();
    await app.close();

    // index.html's own policy (connect-src 'self') refuses any other origin: say that, not "offline".
    app = await openApp(`${shipped.url}?bank=${encodeURIComponent(`${otherOrigin}/cors/bank.json`)}&lang=en&${NO_SW}`,
                        { browser, allowErrors: [/Content Security Policy|Content-Security-Policy/] });
    state = await waitForState(app.page, (s) => s.banks.length && s.banks[0].state === 'fetch-failed');
    assert.match(state.banks[0].error, /Content-Security-Policy.*connect-src/);
    app.expectNoErrors();
    await app.close();

    // A deployment that allows bank= links from itself only refuses the other server before any
    // request (tests/browser/hostile.test.mjs has the rest).
    app = await openApp(`${site.url}?bank=${encodeURIComponent(`${otherOrigin}/cors/bank.json`)}&lang=en&${NO_SW}`,
                        { browser, waitFor: 'fatal' });
    assert.match(await app.page.textContent('#status'), new RegExp(`not from ${otherOrigin}`));
    app.expectNoErrors();
    await app.close();
  } finally {
    await page.close();
    await shipped.close();
    await other.close();
  }
});

// ---- Start-up -----------------------------------------------------------------------------------

test('regression: input while the wasm is still loading does not throw', async () => {
  const held = [];
  let wasmAsked;
  const wasmHeld = new Promise((resolve) => { wasmAsked = resolve; });
  // Both players' (src/app/player.h): boot.js downloads its guess, then the one the banks choose.
  for (const player of ['imquiz', 'imquiz-rich'])
    site.faults.set(`/${player}.wasm`, (req, res) => { held.push({ res, player }); if (player === 'imquiz-rich') wasmAsked(); return true; });
  try {
    const app = await openApp(`${site.url}?lang=en&${NO_SW}`, { browser, waitFor: null });
    // imquiz.js has run (its exports exist), the wasm has not arrived.
    await app.page.waitForFunction(() => window.Module && typeof window.Module._imquiz_wake === 'function' &&
                                         !window.ImQuizHost.hasSignal('first-frame'));
    // boot.js asks for the wasm before imquiz.js, but the request reaches the server when the
    // browser sends it: under load Firefox sent it after running imquiz.js (the old assertion
    // here, made at once, then failed). The server's own signal is waited for.
    let timer;
    await Promise.race([wasmHeld, new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('the wasm request never reached the server')), 30000);
    })]).finally(() => clearTimeout(timer));
    assert.equal(await app.page.evaluate(() => window.ImQuizHost.hasSignal('first-frame')), false,
                 'no first frame while the wasm request is held');
    await app.page.mouse.move(100, 100);
    await app.page.mouse.move(200, 150);
    await app.page.setViewportSize({ width: 900, height: 700 });
    await app.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
    for (const { res, player } of held)   // the launch banks are Markdown banks: the rich one is used
      res.writeHead(200, { 'Content-Type': 'application/wasm', ...securityHeaders() }).end(fs.readFileSync(path.join(SITE_DIR, `${player}.wasm`)));
    await waitForState(app.page, ready);
    app.expectNoErrors();
    await app.close();
  } finally {
    site.faults.clear();
  }
});
