// ImQuiz in an LMS: SCORM 1.2 and 2004 packages made by `quizc package`, launched in an iframe of
// a host page whose runtime is a real third-party SCORM implementation (npm's scorm-again). The
// host keeps what scorm-again commits on a small "LMS server" (this test's, per learner), as an
// LMS keeps it in its database: the test reads score, status, interactions and suspend data back
// from there. The quiz is played by keyboard; the LMS page is reloaded and the quiz resumes; the
// learner finishes in a second browser profile (no localStorage of the first) from the suspend
// data alone. A bank too long for SCORM 1.2's 4096 characters gets the outcome docs/lms.md gives.
// A hint and a second try leave their cost in the grade, and 2004's interactions say how each
// answer came, in practice and in an exam.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { openApp, waitForState, waitForSignal, launchBrowser, SITE_DIR, ENGINE, testPages, waitInPage, skipStep } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const QUIZC = process.env.IMQUIZ_QUIZC || path.resolve('build/native/src/tools/quizc');
const browser = await launchBrowser();
const lmsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-lms-'));

// ---- Packages -----------------------------------------------------------------------------------
// The shipped site, and a copy of it with a long bank added (600 true/false questions): its
// attempt in progress is over SCORM 1.2's 4096 characters of suspend data.
const longSite = path.join(lmsDir, 'long-site');
fs.cpSync(SITE_DIR, longSite, { recursive: true, dereference: true });
// Ids as authors' tools make them (a hash each, no pattern to deflate away), in a shuffled order.
const LONG_QUESTIONS = 600;
const longId = (i) => `q-${(Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0')}`;
fs.writeFileSync(path.join(longSite, 'quizzes', 'long-quiz.json'), JSON.stringify({
  format: 'imquiz-bank', version: 1, id: 'long-quiz', title: 'A long quiz', languages: ['en'], defaultLanguage: 'en',
  settings: { shuffleQuestions: true },
  questions: Array.from({ length: LONG_QUESTIONS }, (_, i) => ({
    id: longId(i), type: 'true_false', prompt: `Statement ${i + 1} is true.`, answer: i % 2 === 0,
  })),
}));
// One question of each type: every interaction type and every result shape the app sends.
const TYPES_BANK = {
  format: 'imquiz-bank', version: 1, id: 'all-types', title: 'Every question type', languages: ['en'], defaultLanguage: 'en', settings: { passPercent: 60 },
  questions: [
    { id: 'one', type: 'single_choice', prompt: 'One of these', choices: [{ id: 'right', text: 'Right', correct: true }, { id: 'other', text: 'Other' }] },
    { id: 'many', type: 'multiple_choice', prompt: 'Two of these',
      choices: [{ id: 'first', text: 'First', correct: true }, { id: 'second', text: 'Second', correct: true }, { id: 'third', text: 'Third' }] },
    { id: 'yes', type: 'true_false', prompt: 'True?', answer: true },
    { id: 'number', type: 'numeric', prompt: 'Six times seven', answer: { value: 42 } },
    { id: 'word', type: 'short_text', prompt: 'Capital of France', accept: ['Paris'] },
  ],
};
const TYPES_ANSWERS = {   // right, then wrong: the page protocol's actions
  one: [[{ type: 'select', choice: 'right' }], [{ type: 'select', choice: 'other' }]],
  many: [[{ type: 'select', choice: 'first' }, { type: 'select', choice: 'second' }], [{ type: 'select', choice: 'third' }]],
  yes: [[{ type: 'select', choice: 'true' }], [{ type: 'select', choice: 'false' }]],
  number: [[{ type: 'type', text: '42' }], [{ type: 'type', text: '41.5' }]],
  word: [[{ type: 'type', text: 'Paris' }], [{ type: 'type', text: 'Lyon' }]],
};
fs.writeFileSync(path.join(longSite, 'quizzes', 'all-types.json'), JSON.stringify(TYPES_BANK));
// Practice with a hint and two tries, and an exam: what the LMS is told of how each answer came.
const HELP_BANK = {
  format: 'imquiz-bank', version: 1, id: 'with-help', title: 'With help', languages: ['en'], defaultLanguage: 'en',
  settings: { maxTries: 2, tryPenalty: 0.25, passPercent: 50, shuffleQuestions: false, shuffleChoices: false },
  questions: [
    { id: 'helped', type: 'single_choice', prompt: 'One of these', hints: [{ text: 'Not the other one.', cost: 0.25 }],
      choices: [{ id: 'right', text: 'Right', correct: true }, { id: 'other', text: 'Other' }] },
    { id: 'alone', type: 'true_false', prompt: 'True?', answer: true },
  ],
};
const EXAM_BANK = { ...HELP_BANK, id: 'an-exam', title: 'An exam', settings: { mode: 'exam', passPercent: 50, shuffleQuestions: false },
                    questions: HELP_BANK.questions.map(({ hints, ...q }) => q) };
fs.writeFileSync(path.join(longSite, 'quizzes', 'with-help.json'), JSON.stringify(HELP_BANK));
fs.writeFileSync(path.join(longSite, 'quizzes', 'an-exam.json'), JSON.stringify(EXAM_BANK));
const longCatalog = JSON.parse(fs.readFileSync(path.join(longSite, 'quizzes', 'index.json'), 'utf8'));
longCatalog.banks.push({ id: 'long-quiz', file: 'long-quiz.json' }, { id: 'all-types', file: 'all-types.json' },
                       { id: 'with-help', file: 'with-help.json' }, { id: 'an-exam', file: 'an-exam.json' });
fs.writeFileSync(path.join(longSite, 'quizzes', 'index.json'), JSON.stringify(longCatalog));

function makePackage(version, site, quiz, name) {
  const zip = path.join(lmsDir, `${name}.zip`);
  const made = spawnSync(QUIZC, ['package', '--scorm', version, '--site', site, '--quiz', quiz, '-o', zip], { encoding: 'utf8' });
  assert.equal(made.status, 0, `quizc package: ${made.stderr}`);
  const unzipped = spawnSync('python3', ['-m', 'zipfile', '-e', zip, path.join(lmsDir, name)], { encoding: 'utf8' });
  assert.equal(unzipped.status, 0, unzipped.stderr);
  return fs.statSync(zip).size;
}
const packageBytes = {};
for (const version of ['1.2', '2004']) {
  const tag = version.replace('.', '');
  packageBytes[version] = makePackage(version, SITE_DIR, 'data-parallelism', `pkg${tag}`);
  makePackage(version, longSite, 'long-quiz', `long${tag}`);
  makePackage(version, longSite, 'all-types', `types${tag}`);
  makePackage(version, longSite, 'with-help', `help${tag}`);
  makePackage(version, longSite, 'an-exam', `exam${tag}`);
}
fs.cpSync(path.resolve('node_modules/scorm-again/dist/scorm12.min.js'), path.join(lmsDir, 'scorm12.js'));
fs.cpSync(path.resolve('node_modules/scorm-again/dist/scorm2004.min.js'), path.join(lmsDir, 'scorm2004.js'));

// ---- The LMS -------------------------------------------------------------------------------------
// lms.html?version=1.2|2004&pkg=<folder>&learner=<name>: scorm-again's API on the host page, loaded
// with what the server kept for that learner (as an LMS starts its runtime), then the package's
// launch page in an iframe. Commits go to the server by scorm-again itself (lmsCommitUrl).
fs.writeFileSync(path.join(lmsDir, 'lms.html'), `<!doctype html>
<html><head><meta charset="utf-8"><title>LMS</title></head>
<body><h1>Course</h1><script src="scorm12.js"></script><script src="scorm2004.js"></script><script src="lms-host.js"></script></body></html>`);
fs.writeFileSync(path.join(lmsDir, 'lms-host.js'), `
(function () {
  var params = new URLSearchParams(location.search);
  var version = params.get('version'), learner = params.get('learner');
  var key = 'learner=' + encodeURIComponent(learner) + '&version=' + version;
  fetch('/lms/state?' + key).then(function (r) { return r.json(); }).then(function (saved) {
    var settings = { lmsCommitUrl: '/lms/commit?' + key, logLevel: 5, autocommit: false };
    var api = version === '1.2' ? new Scorm12API(settings) : new Scorm2004API(settings);
    if (saved) {
      var cmi = saved.cmi || saved;
      api.loadFromJSON(cmi);
      var exit = version === '1.2' ? (cmi.core && cmi.core.exit) : cmi.exit;
      if (exit === 'suspend') { if (version === '1.2') api.cmi.core.entry = 'resume'; else api.cmi.entry = 'resume'; }
    }
    window[version === '1.2' ? 'API' : 'API_1484_11'] = api;
    var frame = document.createElement('iframe');
    frame.id = 'quiz'; frame.width = '1000'; frame.height = '700';
    frame.src = params.get('pkg') + '/scorm.html';
    document.body.appendChild(frame);
    // The embedding handshake (docs/embedding.md): the statements the quiz sends reach this page too.
    window.statements = [];
    window.addEventListener('message', function (event) {
      if (event.source !== frame.contentWindow || !event.data) return;
      if (event.data.type === 'imquiz:xapi') statements.push(event.data.statement);
    });
    frame.addEventListener('load', function () { frame.contentWindow.postMessage({ type: 'imquiz:hello' }, location.origin); });
  });
})();`);

const store = new Map();   // learner + version -> the last commit scorm-again sent
const lms = await serve(lmsDir, {
  headers: {},
  intercept: (req, res, urlPath) => {
    const url = new URL(req.url, 'http://x');
    const key = `${url.searchParams.get('learner')}|${url.searchParams.get('version')}`;
    if (urlPath === '/favicon.ico') { res.writeHead(204).end(); return true; }   // the browser asks for it
    if (urlPath === '/lms/state') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(store.get(key) || null));
      return true;
    }
    if (urlPath === '/lms/commit') {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        store.set(key, JSON.parse(body));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ result: true, errorCode: 0 }));
      });
      return true;
    }
    return testPages(lmsDir)(req, res, urlPath);
  },
});
test.after(async () => { await browser.close(); await lms.close(); fs.rmSync(lmsDir, { recursive: true, force: true }); });

const bank = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', 'data-parallelism.json'), 'utf8'));
const questionOf = (id) => bank.questions.find((q) => q.id === id);

// What the LMS keeps, in one shape for both versions.
function kept(learner, version) {
  const saved = store.get(`${learner}|${version}`);
  if (!saved) return null;
  const cmi = saved.cmi || saved;
  const interactions = Object.values(cmi.interactions || {}).filter((i) => i && typeof i === 'object' && i.id !== undefined);
  return version === '1.2'
    ? { status: cmi.core.lesson_status, success: null, score: cmi.core.score, exit: cmi.core.exit, suspend: cmi.suspend_data,
        sessionTime: cmi.core.session_time,
        interactions: interactions.map((i) => ({ id: i.id, type: i.type, response: i.student_response, result: i.result, latency: i.latency })) }
    : { status: cmi.completion_status, success: cmi.success_status, score: cmi.score, exit: cmi.exit, suspend: cmi.suspend_data,
        sessionTime: cmi.session_time,
        interactions: interactions.map((i) => ({ id: i.id, type: i.type, response: i.learner_response, result: i.result, latency: i.latency,
                                                 description: i.description })) };
}
// The progress record in suspend data (web/lms.js: "1::" or "2:<attempt id>:", then base64 of
// raw deflate, or "0:" and the JSON), decoded here by node's zlib.
function suspendedRecord(data) {
  const match = /^([12]):([^:]*):([\s\S]*)$/.exec(data);
  assert.ok(match, `suspend data format: ${data.slice(0, 40)}`);
  const payload = match[3];
  return JSON.parse(payload.startsWith('0:') ? payload.slice(2) : zlib.inflateRawSync(Buffer.from(payload, 'base64')).toString('utf8'));
}
// The 0-based position of the question the suspended attempt is on (after Next: the next one).
const currentIn = (data) => {
  const record = suspendedRecord(data);
  return record.inProgress ? record.inProgress.current : -1;
};
const answeredIn = (data) => {
  const record = suspendedRecord(data);
  return record.inProgress ? record.inProgress.questions.filter((q) => q.answer).length : 0;
};

async function waitForLms(learner, version, predicate, what, timeout = 15000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = kept(learner, version);
    if (now && predicate(now)) return now;
    if (Date.now() > deadline) throw new Error(`the LMS never kept ${what}: ${JSON.stringify(now && { ...now, suspend: now.suspend && now.suspend.length })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function openLms(url, options = {}) {
  const app = await openApp(url, { browser, waitFor: null, ...options });
  const frame = await (await app.page.waitForSelector('#quiz')).contentFrame();
  await waitForSignal(frame, 'first-frame');
  await focusQuiz(app.page, frame);
  return { ...app, frame };
}

// Keys reach the app through its canvas, which the learner focuses first (boot.js never takes
// the focus from a host page).
async function focusQuiz(page, frame) {
  await frame.evaluate(() => document.getElementById('canvas').focus());
}

// WebKitGTK's driver does not deliver key presses into the LMS page's iframe (focus() in it, or a click
// into it, does not help): there the answers go through the page protocol, as a named skip.
async function byKeyboard(t) {
  if (ENGINE === 'webkit') await skipStep(t, 'answers by keyboard inside the LMS iframe', 'WebKitGTK\'s driver sends no keys into an iframe: the page protocol\'s actions instead');
}

// Does `step` (a key press, or page actions) and waits until `arrived(state, arg)`; if that has
// not happened within 5 s, names it with where the focus was and what the quiz showed, and does
// it once more (`again` first, if given). Seen under load in fresh-clone runs: in Firefox a key
// press that never reached the app within 15 s, the focus on the canvas (2 of 7 tests; Enter,
// digits); in WebKit a select and check by the page protocol after which question 1 stayed
// unchecked. The test is about the LMS (play.test.mjs holds the keyboard to account). Doing a step
// twice is harmless here: every question of this bank is single choice, and a check of a checked
// question does nothing.
async function stepUntil(app, step, arrived, arg, what, again) {
  await step();
  try {
    await waitForState(app.frame, arrived, arg, 5000);
  } catch (error) {
    // What the quiz showed, and whether its document draws frames at all (WebKitGTK has been seen
    // not to act on a queued action in a window of its own: platform.test.mjs, two tabs).
    const seen = await app.frame.evaluate(async () => {
      const s = window.ImQuizHost.state;
      const q = s && s.question;
      const frames = await new Promise((resolve) => { requestAnimationFrame(() => resolve(true)); setTimeout(() => resolve(false), 1000); });
      return { focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
               visibility: document.visibilityState, framesWithin1s: frames,
               screen: s && s.screen, question: q && q.index, selected: q && q.choices && q.choices.filter((c) => c.selected).map((c) => c.id),
               feedback: Boolean(q && q.feedback) };
    });
    console.log(`# [${ENGINE}] ${what} did not arrive (${JSON.stringify(seen)}); done again`);
    if (again) await again();
    await step();
    await waitForState(app.frame, arrived, arg);
  }
}

function pressKey(app, key, arrived, arg, what) {
  return stepUntil(app, () => app.page.keyboard.press(key), arrived, arg, what, () => focusQuiz(app.page, app.frame));
}

// Answers the question on screen by keyboard (its choice's number, Enter to check, Enter for the
// next one); right unless `wrong`. Returns what was answered.
async function answerByKeyboard(app, wrong) {
  const state = await waitForState(app.frame, (s) => s.screen === 'question' && s.question && !s.question.feedback);
  const { id, index, choices } = state.question;
  const q = questionOf(id);
  const pick = q.choices.find((c) => !!c.correct === !wrong).id;
  if (ENGINE === 'webkit') {   // the nearest thing: the page protocol's actions (named by byKeyboard)
    const selectAndCheck = async () => {
      for (const action of [{ type: 'select', choice: pick }, { type: 'check' }]) await app.frame.evaluate((a) => window.ImQuizHost.act(a), action);
    };
    await stepUntil(app, selectAndCheck, (s, i) => s.question && s.question.index === i && s.question.feedback, index, `select and check on question ${index}`);
    await app.frame.evaluate(() => window.ImQuizHost.act({ type: 'next' }));
    await waitForState(app.frame, (s, i) => s.screen === 'results' || (s.question && s.question.index !== i), index);
    return { id, pick, correct: !wrong, index };
  }
  const number = String(choices.findIndex((c) => c.id === pick) + 1);
  await pressKey(app, number, (s, p) => s.question.choices.find((c) => c.id === p).selected, pick, `${number} on question ${index}`);
  await pressKey(app, 'Enter', (s, i) => s.question && s.question.index === i && s.question.feedback, index, `Enter to check question ${index}`);
  await pressKey(app, 'Enter', (s, i) => s.screen === 'results' || (s.question && s.question.index !== i), index, `Enter for Next after question ${index}`);
  return { id, pick, correct: !wrong, index };
}

// SCORM 1.2's CMITimespan: lms.js writes HHHH:MM:SS.SS, scorm-again keeps two hour digits.
const LATENCY = { '1.2': /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/, 2004: /^PT\d+(\.\d+)?S$/ };

for (const version of ['1.2', '2004']) {
  const pkg = `pkg${version.replace('.', '')}`;
  const learner = `ada-${version}`;
  const url = `${lms.url}lms.html?version=${version}&pkg=${pkg}&learner=${learner}`;
  const is12 = version === '1.2';

  test(`SCORM ${version} in scorm-again: play by keyboard, reload and resume, finish on a second computer`, async (t) => {
    await byKeyboard(t);
    // First computer: two answers, one wrong.
    let app = await openLms(url);
    const first = await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 1);
    const total = first.question.total;
    const answered = [await answerByKeyboard(app, false), await answerByKeyboard(app, true)];
    let now = await waitForLms(learner, version, (k) => k.interactions.length === 2 && k.suspend && answeredIn(k.suspend) === 2 &&
                               currentIn(k.suspend) === 2, 'two interactions, both answers and the move to question 3 in suspend data');
    assert.equal(now.status, 'incomplete');
    if (!is12) assert.equal(now.success, 'unknown');
    answered.forEach((a, i) => {
      const interaction = now.interactions[i];
      assert.equal(interaction.id, is12 ? a.id : `urn:imquiz:data-parallelism:${a.id}`);
      assert.equal(interaction.type, 'choice');
      assert.equal(interaction.response, a.pick);
      assert.equal(interaction.result, a.correct ? 'correct' : is12 ? 'wrong' : 'incorrect');
      assert.match(interaction.latency, LATENCY[version]);
    });
    assert.match(now.suspend, /^1::[A-Za-z0-9+/=]+$/, 'the whole record, deflated, in base64');
    assert.ok(now.suspend.length <= 4096, `${now.suspend.length} characters`);
    console.log(`# SCORM ${version}: suspend data after 2 of ${total} answers: ${now.suspend.length} characters`);
    app.expectNoErrors();

    // The LMS page reloads: the quiz resumes at question 3; one more answer.
    await app.page.reload();
    app.frame = await (await app.page.waitForSelector('#quiz')).contentFrame();
    await waitForSignal(app.frame, 'first-frame');
    await focusQuiz(app.page, app.frame);
    await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 3);
    answered.push(await answerByKeyboard(app, false));
    // Saved after Next too: the attempt is on question 4 (the last save before the page goes is
    // the one a closing page may not get committed: see docs/lms.md, Limits).
    now = await waitForLms(learner, version, (k) => k.interactions.length === 3 && answeredIn(k.suspend) === 3 && currentIn(k.suspend) === 3,
                           'the third answer, and the move to question 4');
    assert.equal(now.exit, 'suspend', 'an attempt in progress: the LMS offers to resume');
    app.expectNoErrors();
    await app.close();

    // Second computer: a fresh profile, nothing in its storage; the attempt resumes from the
    // suspend data alone, at question 4, and is finished there.
    app = await openLms(url);
    assert.deepEqual(await app.frame.evaluate((key) => Object.keys(localStorage).filter((k) => k.endsWith(key)).length, 'progress.data-parallelism'), 1);
    await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 4);
    for (let n = 4; n <= total; n++) answered.push(await answerByKeyboard(app, false));
    const results = (await waitForState(app.frame, (s) => s.screen === 'results' && s.results)).results;
    assert.equal(results.missed, 1, 'the wrong answer on the first computer counts');
    now = await waitForLms(learner, version, (k) => k.interactions.length === total && (is12 ? k.status !== 'incomplete' : k.status === 'completed') &&
                           suspendedRecord(k.suspend).finished.length === 1, 'the finished attempt');
    const percent = Math.round(results.percent * 100) / 100;
    if (is12) {
      assert.equal(now.status, results.passed ? 'passed' : 'failed');
      assert.deepEqual([Number(now.score.raw), Number(now.score.min), Number(now.score.max)], [percent, 0, 100]);
    } else {
      assert.equal(now.success, results.passed ? 'passed' : 'failed');
      assert.deepEqual([Number(now.score.raw), Number(now.score.min), Number(now.score.max)], [results.score, 0, results.maxScore]);
      assert.equal(Number(now.score.scaled), Math.round(results.score / results.maxScore * 10000) / 10000);
    }
    assert.deepEqual(now.interactions.map((i) => i.result === 'correct'), answered.map((a) => a.correct));
    assert.match(now.sessionTime, is12 ? LATENCY['1.2'] : LATENCY[2004], 'session time');
    assert.equal(suspendedRecord(now.suspend).finished.length, 1, 'the finished attempt is in the suspend data');
    console.log(`# SCORM ${version}: suspend data after the ${total}-question attempt finished: ${now.suspend.length} characters`);
    app.expectNoErrors();
    await app.close();
    now = await waitForLms(learner, version, (k) => k.exit !== 'suspend', 'a normal exit');
    assert.equal(now.exit, is12 ? '' : 'normal', 'no attempt in progress: nothing to resume');
  });

  test(`SCORM ${version}: a bank over the suspend-data budget keeps what fits and says so`, async () => {
    const longLearner = `grace-${version}`;
    const longUrl = `${lms.url}lms.html?version=${version}&pkg=long${version.replace('.', '')}&learner=${longLearner}`;
    let app = await openLms(longUrl);
    for (let n = 1; n <= 3; n++) {
      await waitForState(app.frame, (s, i) => s.screen === 'question' && s.question && s.question.index === i && !s.question.feedback, n);
      await app.frame.evaluate(() => window.ImQuizHost.act({ type: 'select', choice: 'true' }));
      await app.frame.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
      await waitForState(app.frame, (s, i) => s.question && s.question.index === i && s.question.feedback, n);
      await app.frame.evaluate(() => window.ImQuizHost.act({ type: 'next' }));
    }
    // The move to question 4 is stored before the record is read (and, for 1.2, the page
    // reloaded): a reload right after the last 'next' came back on question 3 under load.
    await waitInPage(app.frame, () => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('progress.long-quiz'));
      const saved = key && JSON.parse(localStorage.getItem(key));
      return Boolean(saved && saved.inProgress && saved.inProgress.current === 3);
    });
    const record = await app.frame.evaluate(() => localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith('progress.long-quiz'))));
    let now = await waitForLms(longLearner, version, (k) => k.interactions.length === 3 && k.suspend, 'three interactions');
    console.log(`# SCORM ${version}: ${LONG_QUESTIONS}-question attempt, 3 answered: record ${record.length} characters, ` +
                `suspend data ${now.suspend.length} characters`);
    if (is12) {
      assert.ok(now.suspend.length <= 4096, `${now.suspend.length} characters: over SCORM 1.2's limit`);
      const attemptId = JSON.parse(record).inProgress.attemptId;
      assert.ok(now.suspend.startsWith(`2:${attemptId}:`), 'the record without the attempt in progress, which is named');
      await waitInPage(app.frame, () => document.querySelector('.lms-notice') &&
                                        /too long for the LMS to keep/.test(document.querySelector('.lms-notice').textContent));
      // The same browser resumes it (its own storage has it) ...
      await app.page.reload();
      app.frame = await (await app.page.waitForSelector('#quiz')).contentFrame();
      await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 4);
      await app.close();
      // ... a second computer starts the quiz afresh, as docs/lms.md says.
      app = await openLms(longUrl);
      await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 1);
    } else {
      assert.ok(now.suspend.startsWith('1::'), '2004 keeps 64,000 characters: the whole record');
      assert.ok(now.suspend.length <= 64000);
      assert.equal(await app.frame.evaluate(() => document.querySelector('.lms-notice')), null);
    }
    await app.close();
  });
}

// The statements the LMS page received, each checked by a third-party xAPI validator
// (@learninglocker/xapi-validation) with the actor the host adds (the quiz knows no learner).
const validateStatement = createRequire(import.meta.url)('@learninglocker/xapi-validation').default;
function checkXapi(statements) {
  for (const statement of statements) {
    const warnings = validateStatement({ actor: { objectType: 'Agent', mbox: 'mailto:learner@example.com' }, ...statement });
    assert.deepEqual(warnings.map((w) => `${w.path.join('.')}: ${w.name}`), [], `${statement.verb.id}: ${JSON.stringify(statement)}`);
  }
}

for (const version of ['1.2', '2004']) {
  const is12 = version === '1.2';
  test(`SCORM ${version}: every question type, passed then failed, then a review round that keeps the grade: interactions in the LMS, statements valid xAPI`, async () => {
    const learner = `types-${version}`;
    const app = await openLms(`${lms.url}lms.html?version=${version}&pkg=types${version.replace('.', '')}&learner=${learner}`);
    const act = (action) => app.frame.evaluate((a) => window.ImQuizHost.act(a), action);
    // Answers the `total` questions on screen, right or wrong; the results.
    const answerAll = async (wrong, total) => {
      for (let n = 1; n <= total; n++) {
        const state = await waitForState(app.frame, (s, i) => s.screen === 'question' && s.question && s.question.index === i && !s.question.feedback, n);
        for (const action of TYPES_ANSWERS[state.question.id][wrong ? 1 : 0]) await act(action);
        await act({ type: 'check' });
        await waitForState(app.frame, (s, i) => s.question && s.question.index === i && s.question.feedback, n);
        await act({ type: 'next' });
      }
      return (await waitForState(app.frame, (s) => s.screen === 'results' && s.results)).results;
    };
    for (const wrong of [false, true]) {
      const results = await answerAll(wrong, TYPES_BANK.questions.length);
      assert.equal(results.passed, !wrong);
      const count = TYPES_BANK.questions.length * (wrong ? 2 : 1);
      const now = await waitForLms(learner, version, (k) => k.interactions.length === count &&
                                   (is12 ? k.status === (wrong ? 'failed' : 'passed') : k.success === (wrong ? 'failed' : 'passed')), `run ${wrong ? 2 : 1}`);
      const byId = Object.fromEntries(now.interactions.slice(-TYPES_BANK.questions.length).map((i) => [i.id.split(':').pop(), i]));
      const expected = is12
        ? { one: ['choice', 'right', 'other'], many: ['choice', 'first,second', 'third'], yes: ['true-false', 't', 'f'],
            number: ['numeric', '42', '41.5'], word: ['fill-in', 'Paris', 'Lyon'] }
        : { one: ['choice', 'right', 'other'], many: ['choice', 'first[,]second', 'third'], yes: ['true-false', 'true', 'false'],
            number: ['numeric', '42', '41.5'], word: ['fill-in', 'Paris', 'Lyon'] };
      for (const [id, [type, right, wrongResponse]] of Object.entries(expected)) {
        assert.equal(byId[id].type, type, `${id}: type`);
        assert.equal(byId[id].response, wrong ? wrongResponse : right, `${id}: response`);
        assert.equal(byId[id].result, wrong ? (is12 ? 'wrong' : 'incorrect') : 'correct', `${id}: result`);
        // 2004's description says how the answer came (1.2 has no such field).
        if (!is12) assert.equal(byId[id].description, 'practice; try 1; hints used: 0', `${id}: description`);
      }
      if (!wrong) await act({ type: 'retry' });
    }
    // Review mistakes, every answer right now: practice. Its answers reach the LMS as interactions;
    // its 100% is not the grade, which stays the failed attempt's (a completion of the round comes,
    // and is kept: the session time moves, nothing else).
    const graded = kept(learner, version);
    await act({ type: 'review' });
    const review = await answerAll(false, TYPES_BANK.questions.length);
    assert.equal(review.heading, 'Review round');
    const questions = TYPES_BANK.questions.length;
    const after = await waitForLms(learner, version, (k) => k.interactions.length === 3 * questions && k.sessionTime !== graded.sessionTime,
                                   'the review round\'s answers and its completion');
    assert.deepEqual([after.status, after.success, after.score], [graded.status, graded.success, graded.score]);
    assert.deepEqual(after.interactions.slice(-questions).map((i) => i.result), Array(questions).fill('correct'));
    if (!is12) assert.deepEqual(after.interactions.slice(-questions).map((i) => i.description),
                                Array(questions).fill('practice; try 1; hints used: 0; review round'));

    await waitInPage(app.page, (n) => window.statements.length >= n, 2 * (questions + 3) + questions + 2);
    const statements = await app.page.evaluate(() => window.statements);
    // The round's statements say it is one (urn:imquiz:xapi:round), and it has no verdict.
    const round = statements.filter((s) => s.context && s.context.extensions && s.context.extensions['urn:imquiz:xapi:round'] === 'review');
    assert.deepEqual(round.map((s) => s.verb.id.split('/').pop()), ['attempted', ...Array(questions).fill('answered'), 'completed']);
    assert.equal(statements.length, 2 * (questions + 3) + questions + 2);
    const verbs = statements.map((s) => s.verb.id.split('/').pop());
    assert.deepEqual([...new Set(verbs)].sort(), ['answered', 'attempted', 'completed', 'failed', 'passed']);
    assert.deepEqual([...new Set(statements.filter((s) => s.object.definition.interactionType).map((s) => s.object.definition.interactionType))].sort(),
                     ['choice', 'fill-in', 'numeric', 'true-false']);
    checkXapi(statements);
    // The validator can fail: a statement with a malformed duration and an out-of-range score.
    const broken = JSON.parse(JSON.stringify(statements.find((s) => s.verb.id.endsWith('/completed'))));
    broken.result.duration = '12 seconds';
    broken.result.score.scaled = 2;
    assert.ok(validateStatement({ actor: { mbox: 'mailto:learner@example.com' }, ...broken }).length >= 2);
    app.expectNoErrors();
    await app.close();
  });
}

// A hint and a second try cost points, and the grade the LMS keeps is what they left; SCORM 2004
// says of each answer how it came (mode, try, hints), 1.2 has no field for it (docs/lms.md).
for (const version of ['1.2', '2004']) {
  const is12 = version === '1.2';
  const tag = version.replace('.', '');
  test(`SCORM ${version}: a hint and a second try in practice, then an exam: the grade they leave, and how each answer came`, async () => {
    const learner = `helped-${version}`;
    let app = await openLms(`${lms.url}lms.html?version=${version}&pkg=help${tag}&learner=${learner}`);
    const act = (action) => app.frame.evaluate((a) => window.ImQuizHost.act(a), action);
    await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.id === 'helped');
    await act({ type: 'hint' });
    await waitForState(app.frame, (s) => s.question.hints.length === 1);
    await act({ type: 'select', choice: 'other' });
    await act({ type: 'check' });
    await waitForState(app.frame, (s) => s.question.tryAgain);
    await act({ type: 'select', choice: 'right' });
    await act({ type: 'check' });
    assert.equal((await waitForState(app.frame, (s) => s.question.feedback)).question.feedback.tone, 'correct');
    await act({ type: 'next' });
    await waitForState(app.frame, (s) => s.question && s.question.id === 'alone' && !s.question.feedback);
    await act({ type: 'select', choice: 'true' });
    await act({ type: 'check' });
    await waitForState(app.frame, (s) => s.question.feedback);
    await act({ type: 'next' });
    const results = (await waitForState(app.frame, (s) => s.screen === 'results' && s.results)).results;
    // 1 × (1 − 0.25 for the hint − 0.25 for the second try) + 1.
    assert.equal(results.score, 1.5);
    let now = await waitForLms(learner, version, (k) => k.interactions.length === 2 && (is12 ? k.status === 'passed' : k.success === 'passed'),
                               'two interactions and a pass');
    if (is12) assert.equal(Number(now.score.raw), 75);
    else assert.deepEqual([Number(now.score.raw), Number(now.score.max), Number(now.score.scaled)], [1.5, 2, 0.75]);
    assert.deepEqual(now.interactions.map((i) => i.result), ['correct', 'correct'], 'right on the second try is right');
    assert.deepEqual(now.interactions.map((i) => i.response), ['right', is12 ? 't' : 'true'], 'the answer that counted');
    if (!is12) assert.deepEqual(now.interactions.map((i) => i.description), ['practice; try 2; hints used: 1', 'practice; try 1; hints used: 0']);
    else assert.ok(now.interactions.every((i) => i.description === undefined));
    app.expectNoErrors();
    await app.close();

    // The exam: nothing is checked until it is submitted; the LMS hears of both answers then.
    const examLearner = `examined-${version}`;
    app = await openLms(`${lms.url}lms.html?version=${version}&pkg=exam${tag}&learner=${examLearner}`);
    await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.exam && s.question.id === 'helped');
    await act({ type: 'select', choice: 'right' });
    await act({ type: 'go-to', question: 2 });
    await waitForState(app.frame, (s) => s.question && s.question.id === 'alone');
    await act({ type: 'select', choice: 'false' });
    await waitForState(app.frame, (s) => s.question.exam.palette.every((p) => p.answered));
    assert.equal(kept(examLearner, version) === null || kept(examLearner, version).interactions.length === 0, true, 'nothing told before the submit');
    await act({ type: 'submit' });
    await waitForState(app.frame, (s) => s.question && s.question.exam && s.question.exam.confirmation);
    await act({ type: 'confirm-submit' });
    const examResults = (await waitForState(app.frame, (s) => s.screen === 'results' && s.results)).results;
    assert.equal(examResults.score, 1);
    now = await waitForLms(examLearner, version, (k) => k.interactions.length === 2 && (is12 ? k.status === 'passed' : k.success === 'passed'),
                           'the exam\'s two interactions and a pass');
    assert.deepEqual(now.interactions.map((i) => i.result), ['correct', is12 ? 'wrong' : 'incorrect']);
    if (!is12) assert.deepEqual(now.interactions.map((i) => i.description), ['exam; try 1; hints used: 0', 'exam; try 1; hints used: 0']);
    app.expectNoErrors();
    await app.close();
  });
}

test('without an LMS, and with one that fails, the quiz plays and says why nothing is recorded', async (t) => {
  await byKeyboard(t);
  let app = await openApp(`${lms.url}pkg12/scorm.html`, { browser });
  await waitForState(app.page, (s) => s.screen === 'question' && s.question && s.question.index === 1);
  assert.match(await app.page.evaluate(() => document.querySelector('.lms-notice').textContent), /No LMS was found/);
  app.expectNoErrors();
  await app.close();
  fs.writeFileSync(path.join(lmsDir, 'broken.html'), '<!doctype html><body><script src="broken.js"></script></body>');
  fs.writeFileSync(path.join(lmsDir, 'broken.js'), `
    window.API = { LMSInitialize: function () { return 'false'; }, LMSGetLastError: function () { return '101'; },
                   LMSGetErrorString: function () { return 'General exception'; } };
    var frame = document.createElement('iframe'); frame.id = 'quiz'; frame.src = 'pkg12/scorm.html'; document.body.appendChild(frame);`);
  app = await openLms(`${lms.url}broken.html`);
  await waitForState(app.frame, (s) => s.screen === 'question' && s.question && s.question.index === 1);
  assert.match(await app.frame.evaluate(() => document.querySelector('.lms-notice').textContent), /The LMS did not start this quiz \(101 General exception\)/);
  await answerByKeyboard(app, false);
  app.expectNoErrors();
  await app.close();
  console.log(`# package sizes (zip): SCORM 1.2 ${packageBytes['1.2']} B, 2004 ${packageBytes['2004']} B [${ENGINE}]`);
});
