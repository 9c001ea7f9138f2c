// The desktop player (imquiz-desktop, platform/sdl) under Xvfb with Mesa's software renderer:
// screenshots of the catalog, a question and the results (not blank, and the app's own published
// state says what they show); both launch quizzes played to the results by mouse and by keyboard
// (xdotool, through the X server as a person's input comes); the author's watch loop end to end
// (edit a bank on disk, see it reloaded on the same question, break it, see the problem with its
// file and JSON path, fix it), and on a catalog folder with a picture; CPU at rest.
//   node tests/desktop/desktop.test.mjs --bin build/native/src/program/desktop/imquiz-desktop
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodePng } from '../browser/engines/png.mjs';

const binAt = process.argv.indexOf('--bin');
const BIN = path.resolve(binAt > 0 ? process.argv[binAt + 1] : 'build/native/src/program/desktop/imquiz-desktop');
const QUIZZES = path.resolve('quizzes');
const ARTIFACTS = path.resolve(process.env.IMQUIZ_ARTIFACTS || 'build/native/desktop-artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-desktop-'));

// ---- Xvfb, the player, xdotool ----

let display = null;
let xvfb = null;
async function startDisplay() {
  if (display) return display;
  xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
               { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  display = await new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  return display;
}
after(() => {
  if (xvfb) xvfb.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

function environment() {
  return { ...process.env, DISPLAY: display, LIBGL_ALWAYS_SOFTWARE: '1', HOME: work, GTK_THEME: '' };
}

// Runs the player to a screenshot and returns the state it published with it.
async function screenshot(name, args) {
  await startDisplay();
  const png = path.join(ARTIFACTS, `${name}.png`);
  const stateFile = path.join(work, `${name}.json`);
  fs.rmSync(png, { force: true });
  const result = await run(BIN, [...args, '--screenshot', png, '--state-file', stateFile, '--data', path.join(work, `data-${name}`)]);
  assert.equal(result.code, 0, `imquiz-desktop --screenshot failed: ${result.stderr}`);
  return { png, state: readState(stateFile) };
}

function run(file, args) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: environment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function readState(file) {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { ...data.state, items: data.items || data.state?.items || [], signals: data.signals, resting: data.resting };
  } catch {
    return null;  // not written yet
  }
}

// A running player, with its state file.
class Player {
  constructor(name, args) {
    this.stateFile = path.join(work, `${name}.json`);
    this.name = name;
    this.stderr = '';
    this.child = spawn(BIN, [...args, '--state-file', this.stateFile], { env: environment(), stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
  }
  state() { return readState(this.stateFile); }
  async waitFor(predicate, what, timeout = 20000) {
    const deadline = Date.now() + timeout;
    let state = null;
    while (Date.now() < deadline) {
      state = this.state();
      if (state && predicate(state)) return state;
      await new Promise((r) => setTimeout(r, 50));  // polling the app's state file, not a fixed wait
    }
    throw new Error(`${this.name}: ${what} did not happen in ${timeout} ms; last state: ${JSON.stringify(state)?.slice(0, 600)}\n${this.stderr}`);
  }
  async window() {
    if (this.windowId) return this.windowId;
    await this.waitFor((s) => s.signals.includes('first-frame'), 'the first frame');
    this.windowId = xdotool('search', '--sync', '--pid', String(this.child.pid)).trim().split('\n').pop();
    // No window manager: the pointer's window has the keyboard; put it there.
    xdotool('mousemove', '--window', this.windowId, '5', '5');
    return this.windowId;
  }
  async click(id) {
    const window = await this.window();
    let item = null;
    for (let scrolls = 0; scrolls < 30; ++scrolls) {
      // Aimed only at rest: a state written with a change has the rectangles of the frame before
      // ImGui moved things (after Check, the Next button moves down), and a click there missed.
      const state = await this.waitFor((s) => s.resting && s.items.some((i) => i.id === id), `item ${id} on screen, at rest`);
      item = state.items.find((i) => i.id === id);
      const height = this.height;
      if (item.y + item.h <= height && item.y >= 0) break;
      xdotool('mousemove', '--window', window, '20', '20', 'click', item.y < 0 ? '4' : '5');
      await this.waitFor((s) => JSON.stringify(s.items.find((i) => i.id === id)) !== JSON.stringify(item), `a scroll towards ${id}`);
    }
    const x = Math.round(item.x + item.w / 2), y = Math.round(item.y + item.h / 2);
    xdotool('mousemove', '--window', window, String(x), String(y));
    // Held as a hand holds it, so that the press and the release reach the window in frames of
    // their own: a quick click landed in one batch and hid that a popup opened on the release
    // was never drawn (1 run in 3 in CI).
    xdotool('mousedown', '1');
    await new Promise((r) => setTimeout(r, 120));
    xdotool('mouseup', '1');
  }
  async key(...keys) {
    await this.window();
    xdotool('key', '--delay', '60', ...keys);
  }
  async type(text) {
    await this.window();
    xdotool('type', '--delay', '60', text);
  }
  async shot(name) {
    const before = this.state().signals.filter((s) => s === 'window-shot').length;
    this.child.kill('SIGUSR1');
    await this.waitFor((s) => s.signals.filter((x) => x === 'window-shot').length > before, 'the window screenshot');
    const png = path.join(ARTIFACTS, `${name}.png`);
    fs.copyFileSync(`${this.stateFile}.png`, png);
    return png;
  }
  async quit() {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

function xdotool(...args) {
  return execFileSync('xdotool', args, { env: environment(), encoding: 'utf8' });
}

// ---- PNG: decoded by the browser tests' reader, to look at the pixels ----

// How much of the picture is not the background (its most common colour), and in how many colours.
function inkOf(file) {
  const { width, height, channels, pixels } = decodePng(fs.readFileSync(file));
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += channels) {
    const key = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const background = Math.max(...counts.values());
  return { width, height, colours: counts.size, ink: 1 - background / (width * height) };
}

function assertDrawn(file, { width, height }) {
  const ink = inkOf(file);
  assert.equal(ink.width, width, `${file}: width`);
  assert.equal(ink.height, height, `${file}: height`);
  // Text is anti-aliased: a drawn screen has hundreds of colours; a blank or garbled one few.
  assert.ok(ink.colours > 50, `${file}: only ${ink.colours} colours (blank?)`);
  assert.ok(ink.ink > 0.02, `${file}: only ${(ink.ink * 100).toFixed(2)}% of it differs from the background`);
  return ink;
}

// ---- Screenshots ----

test('--screenshot: the catalog, in English, at 960x720', async () => {
  const { png, state } = await screenshot('catalog-en', [QUIZZES, '--size', '960x720', '--lang', 'en']);
  assertDrawn(png, { width: 960, height: 720 });
  assert.equal(state.screen, 'catalog');
  assert.deepEqual(state.banks.map((b) => b.state), ['ready', 'ready']);
  assert.ok(state.banks.some((b) => b.title === 'Data Parallelism Quiz'), JSON.stringify(state.banks.map((b) => b.title)));
});

test('--screenshot: a question with its SVG picture, in Russian, dark, at scale 2', async () => {
  // The pipeline quiz explains one answer with the GPipe schedule (images/gpipe-schedule.svg): a
  // copy of the bank with that question first, the picture in its prompt, opens on it.
  const bank = JSON.parse(fs.readFileSync(path.join(QUIZZES, 'model-pipeline-parallelism.json'), 'utf8'));
  const withPicture = bank.questions.findIndex((q) => JSON.stringify(q.explanation).includes('gpipe-schedule.svg'));
  assert.ok(withPicture >= 0, 'the pipeline quiz shows the GPipe schedule');
  const [question] = bank.questions.splice(withPicture, 1);
  for (const language of Object.keys(question.prompt)) {
    const picture = question.explanation[language].match(/!\[[^\]]*\]\(images\/gpipe-schedule\.svg\)/);
    assert.ok(picture, `the ${language} explanation shows the picture`);
    question.prompt[language] += `\n\n${picture[0]}`;
  }
  bank.questions.unshift(question);
  const folder = path.join(work, 'picture-first');
  fs.mkdirSync(path.join(folder, 'images'), { recursive: true });
  fs.copyFileSync(path.join(QUIZZES, 'images/gpipe-schedule.svg'), path.join(folder, 'images/gpipe-schedule.svg'));
  fs.writeFileSync(path.join(folder, 'bank.json'), JSON.stringify(bank));
  const { png, state } = await screenshot('question-ru-dark', [path.join(folder, 'bank.json'), '--size', '480x1000', '--scale', '2',
                                                                '--lang', 'ru', '--theme', 'dark']);
  const ink = assertDrawn(png, { width: 960, height: 2000 });
  assert.equal(state.screen, 'question');
  assert.equal(state.language, 'ru');
  assert.equal(state.dark, true);
  assert.match(state.question.prompt, /[а-я]/, 'the prompt in Russian');
  const picture = state.pictures.find((p) => p.source === 'images/gpipe-schedule.svg');
  assert.equal(picture?.state, 'ready', JSON.stringify(state.pictures));
  assert.ok(state.items.some((i) => i.id === 'picture:images/gpipe-schedule.svg'), 'the picture is drawn');
  assert.ok(ink.colours > 200, `a picture and text: ${ink.colours} colours`);
});

test('--screenshot: bad arguments and a missing file are refused with a message', async () => {
  await startDisplay();
  let result = await run(BIN, [path.join(work, 'nowhere.json')]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /nowhere\.json: no such file or folder/);
  result = await run(BIN, [QUIZZES, '--size', '10x10']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--size 10x10/);
});

// ---- Playing by mouse and keyboard ----

const ANSWERED = (s) => s.screen === 'question' && s.question.primary?.id === 'next';

async function playByMouse(player) {
  for (let step = 0; step < 40; ++step) {
    const state = await player.waitFor((s) => s.screen === 'results' || (s.screen === 'question' && s.question.primary), 'a question or the results');
    if (state.screen === 'results') return state;
    const index = state.question.index;
    if (ANSWERED(state)) {
      await player.click('button:next');
      await player.waitFor((s) => s.screen === 'results' || s.question.index !== index, `question ${index + 1}`);
      continue;
    }
    const choice = state.question.choices[step % state.question.choices.length];
    await player.click(`choice:${choice.id}`);
    await player.waitFor((s) => s.question?.choices.find((c) => c.id === choice.id)?.selected, `choice ${choice.id} selected`);
    await player.click('button:check');
    await player.waitFor(ANSWERED, `question ${index} checked`);
  }
  throw new Error('the quiz did not end in 40 steps');
}

async function playByKeyboard(player) {
  for (let step = 0; step < 40; ++step) {
    const state = await player.waitFor((s) => s.screen === 'results' || (s.screen === 'question' && s.question.primary), 'a question or the results');
    if (state.screen === 'results') return state;
    const index = state.question.index;
    if (ANSWERED(state)) {
      await player.key('Return');
      await player.waitFor((s) => s.screen === 'results' || s.question.index !== index, `question ${index + 1} after Enter`);
      continue;
    }
    if (state.question.field) {
      // A key typed while the new question's field was not yet active was lost under load (a
      // fresh-clone run: question 3 stayed empty for 20 s): typed at rest, when the field has
      // taken the keyboard, and once more if nothing arrived in 5 s; a late first key then makes
      // "11", which plays on just the same.
      await player.waitFor((s) => s.resting && s.question?.index === index, `question ${index} at rest`);
      await player.type('1');
      try {
        await player.waitFor((s) => s.question?.field?.value === '1', 'the typed answer', 5000);
      } catch {
        console.log(`# typed answer on question ${index} did not arrive in 5 s; typed again`);
        await player.type('1');
        await player.waitFor((s) => /^1+$/.test(s.question?.field?.value || ''), 'the typed answer, typed again');
      }
    } else {
      const digit = String(1 + (step % state.question.choices.length));
      await player.key(digit);
      await player.waitFor((s) => s.question?.choices[Number(digit) - 1]?.selected, `choice ${digit} by its key`);
    }
    await player.key('Return');
    await player.waitFor(ANSWERED, `question ${index} checked by Enter`);
  }
  throw new Error('the quiz did not end in 40 steps');
}

test('both launch quizzes, played to the results by mouse and by keyboard', async () => {
  await startDisplay();
  for (const [quiz, how] of [['data-parallelism', 'mouse'], ['model-pipeline-parallelism', 'keyboard']]) {
    const player = new Player(`${quiz}-${how}`, [QUIZZES, '--quiz', quiz, '--lang', 'en', '--size', '900x1000',
                                                 '--data', path.join(work, `data-${quiz}`)]);
    player.height = 1000;
    try {
      const results = how === 'mouse' ? await playByMouse(player) : await playByKeyboard(player);
      assert.equal(results.screen, 'results');
      assert.equal(results.results.questions.length, 8, 'every question in the results');
      // The mouse and the keys picked choices in turn: the score is what the engine made of them.
      const right = results.results.questions.filter((q) => q.correct).length;
      assert.equal(results.results.percent, right / 8 * 100, results.results.percentText);
      const png = await player.shot(`results-${quiz}-${how}`);
      assertDrawn(png, { width: 900, height: 1000 });
    } finally {
      await player.quit();
    }
    // Progress was kept in the data folder: the next start shows the finished attempt on the card.
    const { state } = await screenshot(`catalog-after-${quiz}`, [QUIZZES, '--size', '960x720', '--lang', 'en']);
    assert.equal(state.screen, 'catalog');
  }
});

// The README's full example bank (quizzes/README.md), as its tests read it.
function readmeBank() {
  const readme = fs.readFileSync(path.join(QUIZZES, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- readme-example: full bank -->');
  const start = readme.indexOf('```json\n', marker) + 8;
  return JSON.parse(readme.slice(start, readme.indexOf('\n```\n', start) + 1));
}

test('typed answers are edited in the window (numeric and short text of the README example bank)', async () => {
  await startDisplay();
  const bank = readmeBank();
  const typed = bank.questions.filter((q) => q.type === 'numeric' || q.type === 'short_text');
  assert.ok(typed.length >= 2, 'the example bank has typed questions');
  bank.questions = typed;
  const file = path.join(work, 'typed.json');
  fs.writeFileSync(file, JSON.stringify(bank));
  const player = new Player('typed', [file, '--lang', 'en', '--size', '900x1000', '--data', path.join(work, 'data-typed')]);
  player.height = 1000;
  try {
    const results = await playByKeyboard(player);
    assert.equal(results.screen, 'results');
    // Backspace and retyping in the field: a second attempt's first answer, corrected.
    await player.click('button:retry');
    // At rest, so that the field has taken the keyboard: keys typed in the frames before that were
    // lost under load (a fresh-clone run: the field stayed empty for 20 s).
    await player.waitFor((s) => s.screen === 'question' && !ANSWERED(s) && s.resting, 'a new attempt, at rest');
    // Each step waited for: under load the keys come faster than the frames.
    await player.type('12');
    await player.waitFor((s) => s.question?.field?.value === '12', 'the typed 12');
    await player.key('BackSpace');
    await player.waitFor((s) => s.question?.field?.value === '1', 'the 2 taken back');
    await player.type('7');
    await player.waitFor((s) => s.question?.field?.value === '17', 'the corrected answer 17');
    await player.shot('typed-answer');
  } finally {
    await player.quit();
  }
});

test('a cloze question in the window: each blank typed into or picked from its list, then checked', async () => {
  await startDisplay();
  const bank = readmeBank();
  bank.questions = bank.questions.filter((q) => q.type === 'cloze');
  assert.equal(bank.questions.length, 1, 'the example bank has a cloze question');
  const file = path.join(work, 'cloze.json');
  fs.writeFileSync(file, JSON.stringify(bank));
  const player = new Player('cloze', [file, '--lang', 'ru', '--size', '700x1100', '--data', path.join(work, 'data-cloze')]);
  player.height = 1100;
  try {
    await player.waitFor((s) => s.screen === 'question' && s.question.type === 'cloze', 'the cloze question');
    const row = (s, id) => s.question?.rows.find((r) => r.id === id);
    for (const blank of bank.questions[0].blanks) {
      if (blank.choices) {
        const right = blank.choices.find((c) => c.correct).id;
        await player.click(`select:${blank.id}`);
        await player.waitFor((s) => s.items.some((i) => i.id === `option:${blank.id}:${right}`), `the list of ${blank.id}`);
        await player.click(`option:${blank.id}:${right}`);
        await player.waitFor((s) => row(s, blank.id)?.answer === right, `${blank.id}: ${right} picked`);
      } else {
        const words = blank.answer ? String(blank.answer.value) : 'A';
        await player.click(`input:blank:${blank.id}`);
        await player.type(words);
        await player.waitFor((s) => row(s, blank.id)?.field?.value === words, `${blank.id}: ${words} typed`);
      }
    }
    await player.click('button:check');
    const state = await player.waitFor(ANSWERED, 'the cloze question checked');
    assert.equal(state.question.feedback.correct, true, JSON.stringify(state.question.rows));
    await player.shot('cloze-checked');
  } finally {
    await player.quit();
  }
});

test('hints and tries in the window: a wrong try told, a hint shown, right on the second try', async () => {
  await startDisplay();
  const bank = readmeBank();
  bank.questions = bank.questions.filter((q) => q.hints);
  assert.equal(bank.questions.length, 1, 'the example bank has a question with hints');
  bank.settings = { ...bank.settings, shuffleChoices: false, maxTries: 2 };
  const question = bank.questions[0];
  const wrong = question.choices.find((c) => !c.correct).id, right = question.choices.find((c) => c.correct).id;
  const file = path.join(work, 'hints.json');
  fs.writeFileSync(file, JSON.stringify(bank));
  const player = new Player('hints', [file, '--lang', 'en', '--size', '700x1000', '--data', path.join(work, 'data-hints')]);
  player.height = 1000;
  try {
    await player.waitFor((s) => s.screen === 'question', 'the question');
    await player.click(`choice:${wrong}`);
    await player.waitFor((s) => s.question.choices.find((c) => c.id === wrong).selected, `${wrong} picked`);
    await player.click('button:check');
    let state = await player.waitFor((s) => s.question.tryAgain, 'the try told');
    assert.equal(state.question.tryAgain.verdict, 'Not right yet');
    assert.equal(state.question.feedback, undefined);
    await player.click('button:hint');
    state = await player.waitFor((s) => s.question.hints.length === 1, 'the hint shown');
    await player.shot('hints-try-again');
    await player.click(`choice:${right}`);
    // Another answer: what was said about the try goes, and Check moves up.
    await player.waitFor((s) => s.question.choices.find((c) => c.id === right).selected && !s.question.tryAgain, `${right} picked`);
    await player.click('button:check');
    state = await player.waitFor(ANSWERED, 'checked');
    assert.equal(state.question.feedback.correct, true);
    assert.equal(state.question.feedback.costs, 'Hints used: 1 · Tries: 2 · Points: 0.57 of 1');
  } finally {
    await player.quit();
  }
});

test('an exam in the window: the palette, a flag, Submit and the confirmation, then the review', async () => {
  await startDisplay();
  const bank = readmeBank();
  bank.questions = bank.questions.filter((q) => q.type === 'true_false' || q.type === 'single_choice');
  bank.settings = { ...bank.settings, mode: 'exam', shuffleQuestions: false, shuffleChoices: false };
  const file = path.join(work, 'exam.json');
  fs.writeFileSync(file, JSON.stringify(bank));
  const player = new Player('exam', [file, '--lang', 'en', '--size', '700x1000', '--data', path.join(work, 'data-exam')]);
  player.height = 1000;
  try {
    let state = await player.waitFor((s) => s.screen === 'question' && s.question.exam, 'the exam');
    const last = String(state.question.exam.palette.length);
    await player.click(`question:${last}`);
    await player.waitFor((s) => s.question.exam.palette.find((p) => p.current).number === last, `question ${last}`);
    await player.click('choice:true');
    await player.waitFor((s) => s.question.exam.palette[Number(last) - 1].answered, 'answered');
    await player.click('button:flag');
    await player.waitFor((s) => s.question.exam.flagged, 'flagged');
    await player.click('button:finish');
    state = await player.waitFor((s) => s.question.exam.confirmation, 'the confirmation');
    assert.equal(state.question.exam.unanswered, 'Not answered: 1.');
    await player.shot('exam-confirmation');
    await player.click('button:confirm-submit');
    state = await player.waitFor((s) => s.screen === 'results', 'the results');
    assert.deepEqual(state.results.questions.map((q) => q.outcome), ['skipped', 'correct']);
  } finally {
    await player.quit();
  }
});

// ---- The author's watch loop ----

test('--watch: a saved bank is reloaded on the same question; a broken one is told with its path; fixed, it plays on', async () => {
  await startDisplay();
  const folder = path.join(work, 'watched');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'data-parallelism.json');
  const bank = JSON.parse(fs.readFileSync(path.join(QUIZZES, 'data-parallelism.json'), 'utf8'));
  fs.writeFileSync(file, JSON.stringify(bank, null, 2));
  const player = new Player('watch', [file, '--watch', '--lang', 'en', '--size', '900x1000', '--data', path.join(work, 'data-watch')]);
  player.height = 1000;
  try {
    let state = await player.waitFor((s) => s.screen === 'question', 'the bank opened');
    // One answer, so that the reload must keep the attempt's place.
    await player.key('1');
    await player.key('Return');
    await player.waitFor(ANSWERED, 'checked');
    await player.key('Return');
    state = await player.waitFor((s) => s.question?.index === 2 && !ANSWERED(s), 'question 2');
    const onScreen = state.question.id;

    // 1. An edit of the prompt on screen: reloaded within a second, same question.
    const edited = structuredClone(bank);
    const question = edited.questions.find((q) => q.id === onScreen);
    question.prompt = { ...question.prompt, en: 'Edited while playing: which copy does each worker keep?' };
    // From the save to the state the window drew, for each of the three saves below.
    const reloads = [];
    let saved = Date.now();
    fs.writeFileSync(file, JSON.stringify(edited, null, 2));
    state = await player.waitFor((s) => s.question?.prompt?.startsWith('Edited while playing'), 'the edit shown', 5000);
    reloads.push(Date.now() - saved);
    assert.equal(state.question.id, onScreen);
    assert.equal(state.question.index, 2);
    assert.equal(state.notice, '');

    // 2. A broken save: the problem with file and JSON path, the last good version still on screen.
    const broken = structuredClone(edited);
    delete broken.questions[3].choices;
    saved = Date.now();
    fs.writeFileSync(file, JSON.stringify(broken, null, 2));
    state = await player.waitFor((s) => s.notice !== '', 'the problem told', 5000);
    reloads.push(Date.now() - saved);
    assert.match(state.notice, /The saved file has problems/);
    assert.ok(state.notice.includes(`${file}:questions[3]`), state.notice);
    assert.equal(state.question.id, onScreen, 'the last good version plays on');
    assert.ok(state.question.prompt.startsWith('Edited while playing'));
    await player.shot('watch-problem');
    // Still playable beside it.
    await player.key('1');
    await player.key('Return');
    await player.waitFor(ANSWERED, 'checked while the problem is shown');

    // 3. Fixed: the notice goes, the attempt goes on where it was.
    saved = Date.now();
    fs.writeFileSync(file, JSON.stringify(edited, null, 2));
    state = await player.waitFor((s) => s.notice === '', 'the problem gone', 5000);
    reloads.push(Date.now() - saved);
    assert.equal(state.question.id, onScreen);
    assert.ok(ANSWERED(state), 'the answer given meanwhile is kept');
    // Within a second, as the issue asks; the median of the three, as one save on a loaded
    // machine (CI runs browsers beside this) may wait for the CPU.
    const median = [...reloads].sort((a, b) => a - b)[1];
    console.log(`# save to window: ${reloads.join(', ')} ms (median ${median} ms)`);
    assert.ok(median < 1000, `the median reload took ${median} ms: ${reloads.join(', ')}`);

    // 4. At rest: no frame is drawn, almost no CPU (watching looks at the file 5 times a second).
    const cpu = () => {  // utime + stime, in clock ticks (proc(5): fields 14 and 15)
      const fields = fs.readFileSync(`/proc/${player.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
    await new Promise((r) => setTimeout(r, 1000));  // let the last frames after the reload end
    const before = cpu(), started = Date.now();
    await new Promise((r) => setTimeout(r, 5000));  // the measurement's own window: 5 s at rest
    const seconds = (Date.now() - started) / 1000;
    const percent = ((cpu() - before) / ticks) / seconds * 100;
    console.log(`# CPU at rest with --watch: ${percent.toFixed(2)}% of one core over ${seconds.toFixed(1)} s`);
    assert.ok(percent < 2, `CPU at rest ${percent.toFixed(2)}%`);
  } finally {
    await player.quit();
  }
});

test('--watch on a catalog folder: a bank of it and its picture, saved again, are read again', async () => {
  await startDisplay();
  const folder = path.join(work, 'watched-folder');
  fs.mkdirSync(path.join(folder, 'images'), { recursive: true });
  fs.copyFileSync(path.join(QUIZZES, 'index.json'), path.join(folder, 'index.json'));
  for (const bank of ['data-parallelism.json', 'model-pipeline-parallelism.json', 'images/gpipe-schedule.svg'])
    fs.copyFileSync(path.join(QUIZZES, bank), path.join(folder, bank));
  const file = path.join(folder, 'model-pipeline-parallelism.json');
  const bank = JSON.parse(fs.readFileSync(file, 'utf8'));
  const player = new Player('watch-folder', [folder, '--watch', '--quiz', 'model-pipeline-parallelism', '--lang', 'en',
                                             '--size', '900x1000', '--data', path.join(work, 'data-watch-folder')]);
  player.height = 1000;
  try {
    let state = await player.waitFor((s) => s.screen === 'question' && s.pictures?.[0]?.state === 'ready', 'the quiz and its picture');
    const picture = state.pictures[0];
    bank.title.en = 'Pipelines, second draft';
    fs.writeFileSync(file, JSON.stringify(bank));
    state = await player.waitFor((s) => s.question?.quizTitle === 'Pipelines, second draft', 'the new title');
    // A smaller picture: read, checked and decoded again, its new size in the state.
    const svg = fs.readFileSync(path.join(QUIZZES, 'images/gpipe-schedule.svg'), 'utf8');
    const [, width] = svg.match(/<svg[^>]*\bwidth="(\d+)/);
    const halved = svg.replace(/(<svg[^>]*\bwidth=")(\d+)/, (_, head, w) => head + Math.round(w / 2))
                      .replace(/(<svg[^>]*\bheight=")(\d+)/, (_, head, h) => head + Math.round(h / 2));
    assert.notEqual(halved, svg, 'the SVG has a width and a height to change');
    fs.writeFileSync(path.join(folder, 'images/gpipe-schedule.svg'), halved);
    state = await player.waitFor((s) => s.pictures?.[0]?.state === 'ready' && s.pictures[0].width === Math.round(width / 2),
                                 `the picture ${picture.width} px wide read again at ${Math.round(width / 2)} px`);
  } finally {
    await player.quit();
  }
});
