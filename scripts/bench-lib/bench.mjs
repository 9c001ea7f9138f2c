#!/usr/bin/env node
// The benchmark behind `scripts/bench`: ImQuiz's release site and the peer (quizdown) in one run, in
// headless Chromium, both served from loopback by scripts/serve.mjs. Prints a table (ImQuiz / peer
// ratios, spread of the samples) and writes every sample to build/bench/results.json.
// See docs/benchmark.md for what is measured and how.
//   node scripts/bench-lib/bench.mjs --peer-dir DIR [--runs 7] [--idle-seconds 10] [--scaling-runs 3]
//                                    [--no-scaling] [--only cold,warm,idle,memory,scaling,results,rich,mobile,lighthouse]
//                                    [--site build/web/site] [--out build/bench] [--lighthouse DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve, securityHeaders } from '../serve.mjs';
import { buildPeerSite } from './peer.mjs';
import { makeScalingSite, makeRichSite, makePlainLaunchSite } from './banks.mjs';
import { slowNetwork } from './network.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---- options -----------------------------------------------------------------------------------
const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const options = {
  peerDir: path.resolve(option('--peer-dir', path.join(os.homedir(), '.cache', 'imquiz', 'bench-peer'))),
  site: path.resolve(option('--site', path.join(top, 'build', 'web', 'site'))),
  out: path.resolve(option('--out', path.join(top, 'build', 'bench'))),
  runs: Number(option('--runs', 7)),
  idleSeconds: Number(option('--idle-seconds', 10)),
  scalingRuns: Number(option('--scaling-runs', 3)),
  // Parts to run (all by default): cold,warm,idle,memory,scaling,results. The full set is what the targets need.
  parts: new Set((option('--only', 'cold,warm,idle,memory,scaling,results,rich,mobile,lighthouse')).split(',')
    .filter((p) => !(p === 'scaling' && args.includes('--no-scaling')))),
  // Where scripts/bench installed Lighthouse (pinned); without it the lighthouse part is skipped.
  lighthouse: option('--lighthouse', null),
  quiz: 'data-parallelism',
  lang: 'en',
  viewport: { width: 1280, height: 800 },
};
// The same Chromium flags as the browser tests (tests/browser/harness.mjs, TOOLCHAIN.md).
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
  '--disable-default-apps', '--mute-audio',
];
const TIMEOUT = 60000;

// The phone Lighthouse's mobile preset stands for (its "slow 4G" and mid-range CPU): 150 ms round
// trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU slowed 4x, a 412x823 screen with touch. The network
// is a proxy in front of each site (network.mjs), the CPU DevTools' throttling of the page
// (Lighthouse's own run simulates both from an unthrottled trace: comparable, not equal).
const MOBILE = {
  context: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true },
  link: { rttMs: 150, downBytesPerSecond: 1.6 * 1024 * 1024 / 8, upBytesPerSecond: 750 * 1024 / 8 },
  cpuSlowdown: 4,
};
const log = (...parts) => console.error('[bench]', ...parts);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- statistics and sizes ----------------------------------------------------------------------
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length });

const sizeCache = new Map();
// raw, gzip -9 and brotli -q 11 of a file, by the same command-line tools assemble-site.sh uses.
function fileSizes(file) {
  if (sizeCache.has(file)) return sizeCache.get(file);
  const raw = fs.statSync(file).size;
  const gzip = execFileSync('gzip', ['-9', '-n', '-c', file], { maxBuffer: 1 << 30 }).length;
  const brotli = execFileSync('brotli', ['-q', '11', '-c', file], { maxBuffer: 1 << 30 }).length;
  const sizes = { raw, gzip, brotli };
  sizeCache.set(file, sizes);
  return sizes;
}

// ---- the two apps ------------------------------------------------------------------------------
// Each app knows its URL and how to tell, inside the page, that the first question is visible.
function imquizApp(baseUrl, quiz = options.quiz) {
  return {
    name: 'ImQuiz',
    url: `${baseUrl}?quiz=${encodeURIComponent(quiz)}&lang=${options.lang}`,
    // The app's own signal, raised after the frame that shows the question; its value is
    // performance.now() at that moment.
    async firstQuestion(page, timeout = TIMEOUT) {
      await page.waitForFunction(() => window.ImQuizHost &&
        (window.ImQuizHost.hasSignal('first-question') || window.ImQuizHost.hasSignal('fatal')), null,
      { timeout, polling: 20 });
      return page.evaluate(() => {
        if (!window.ImQuizHost.hasSignal('first-question')) throw new Error('the app reported a fatal error');
        return window.ImQuizHost.whenSignal('first-question');
      });
    },
  };
}

function peerApp(baseUrl, prompt) {
  return {
    name: 'quizdown',
    url: baseUrl,
    // quizdown renders into an open shadow root; the question heading reads "Q1: <prompt>". Polled
    // at every animation frame; the value is performance.now() of the first frame it is visible.
    async firstQuestion(page, timeout = TIMEOUT) {
      const handle = await page.waitForFunction((wanted) => {
        const host = document.querySelector('.quizdown');
        const root = host && host.shadowRoot;
        if (!root) return false;
        for (const heading of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
          if (!heading.textContent.replace(/\s+/g, ' ').includes(wanted)) continue;
          const box = heading.getBoundingClientRect();
          const style = getComputedStyle(heading);
          if (box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none')
            return performance.now();
        }
        return false;
      }, prompt, { timeout, polling: 'raf' });
      return handle.jsonValue();
    },
  };
}

async function newContext(browser, extra = {}) {
  return browser.newContext({ viewport: options.viewport, deviceScaleFactor: 1, colorScheme: 'light', ...extra });
}

// A page of a fresh context, as the desktop (null) or the phone (MOBILE) profile has it.
async function openPage(browser, profile = null) {
  const context = await newContext(browser, profile ? profile.context : {});
  const page = await context.newPage();
  if (profile) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  }
  return { context, page };
}

// ImQuiz's steps to its first question (ms from navigation start): the page's first byte, the
// wasm's first and last byte (Resource Timing), the module compiled and instantiated (boot.js's
// wasm-ready signal; streaming compilation overlaps the download, so this is the tail after the
// last byte), the first frame drawn. quizdown has only the page's first byte.
async function stepsToFirstQuestion(page) {
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0];
    const steps = { pageFirstByte: navigation ? navigation.responseStart : null };
    const host = window.ImQuizHost;
    if (!host) return steps;
    // The chosen player's wasm (a wrong guess's download is cut off): the one whose script ran.
    const resources = performance.getEntriesByType('resource');
    const named = (file) => resources.filter((e) => new URL(e.name).pathname.endsWith('/' + file));
    const player = named('imquiz-rich.js').length ? 'imquiz-rich' : 'imquiz';
    const wasm = named(player + '.wasm').sort((a, b) => b.responseEnd - a.responseEnd)[0];
    const when = (name) => (host.hasSignal(name) ? host.whenSignal(name) : null);
    return Promise.all([when('wasm-ready'), when('first-frame')]).then(([compiled, firstFrame]) => ({
      ...steps, wasmFirstByte: wasm ? wasm.responseStart : null, wasmLastByte: wasm ? wasm.responseEnd : null, compiled, firstFrame }));
  });
}

// Requests of `page`, with what went over the wire; `settle` waits for their sizes.
function recordRequests(page) {
  const requests = [];
  page.on('request', (request) => requests.push(request));
  return async function settle(siteDir, beforeEpochMs) {
    const rows = [];
    for (const request of requests) {
      const timing = request.timing();
      const url = new URL(request.url());
      if (url.protocol !== 'http:') continue;
      const response = await request.response().catch(() => null);
      const sizes = await Promise.race([request.sizes().catch(() => null), sleep(2000).then(() => null)]);
      let urlPath = decodeURIComponent(url.pathname);
      if (urlPath.endsWith('/')) urlPath += 'index.html';
      const file = path.join(siteDir, urlPath);
      rows.push({
        path: urlPath.replace(/^\//, ''),
        query: url.search,
        type: request.resourceType(),
        startedBeforeFirstQuestion: timing.startTime > 0 && timing.startTime <= beforeEpochMs,
        status: response ? response.status() : 0,
        fromServiceWorker: response ? response.fromServiceWorker() : false,
        encoding: response ? (response.headers()['content-encoding'] || 'identity') : null,
        wireBodyBytes: sizes ? sizes.responseBodySize : null,
        file: fs.existsSync(file) && fs.statSync(file).isFile() ? fileSizes(file) : null,
      });
    }
    return rows;
  };
}

// One load in a fresh context (empty cache, no service worker): time to first question, its steps
// and, on the desktop profile, the requests made before it.
async function coldLoad(browser, app, siteDir, profile = null) {
  const { context, page } = await openPage(browser, profile);
  const settle = recordRequests(page);
  await page.goto(app.url, { waitUntil: 'commit' });
  const firstQuestionMs = await app.firstQuestion(page);
  const steps = await stepsToFirstQuestion(page);
  if (profile) {
    await context.close();
    return { firstQuestionMs, steps };
  }
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  const navigation = await page.evaluate(() => {
    const entry = performance.getEntriesByType('navigation')[0];
    return entry ? { responseEnd: entry.responseEnd, domContentLoaded: entry.domContentLoadedEventEnd } : null;
  });
  await sleep(300);   // let responses that started before the question finish reporting their sizes
  const requests = await settle(siteDir, timeOrigin + firstQuestionMs);
  await context.close();
  return { firstQuestionMs, navigation, requests, steps };
}

// One context per app for the warm loads: a first (cold) visit, then reloads. For ImQuiz the
// service worker registered on the first visit may answer the reloads; each sample says whether it
// controlled the page.
async function openWarm(browser, app, profile = null) {
  const { context, page } = await openPage(browser, profile);
  await page.goto(app.url, { waitUntil: 'commit' });
  await app.firstQuestion(page);
  await page.waitForLoadState('load');
  const serviceWorkerReady = await page.evaluate(async () => {
    if (!navigator.serviceWorker || !(await navigator.serviceWorker.getRegistration())) return false;
    return Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 10000))]);
  });
  return { context, page, serviceWorkerReady, samples: [] };
}

async function warmLoad(app, warm) {
  await warm.page.reload({ waitUntil: 'commit' });
  const firstQuestionMs = await app.firstQuestion(warm.page);
  const controlled = await warm.page.evaluate(() => !!(navigator.serviceWorker && navigator.serviceWorker.controller));
  const steps = await stepsToFirstQuestion(warm.page);
  warm.samples.push({ firstQuestionMs, serviceWorkerControlled: controlled, steps });
  await warm.page.waitForLoadState('load');
}

// Counts the page's animation-frame callbacks and WebGL clears (ImQuiz clears once per drawn frame).
// Wrapping, not adding a requestAnimationFrame loop of our own: that would itself cost frames.
const FRAME_COUNTERS = () => {
  const counts = { animationFrames: 0, glFrames: 0 };
  Object.defineProperty(window, '__benchCounts', { value: counts });
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = function (callback) {
    return raf(function (time) { counts.animationFrames++; return callback(time); });
  };
  for (const name of ['WebGLRenderingContext', 'WebGL2RenderingContext']) {
    const type = window[name];
    if (!type) continue;
    const clear = type.prototype.clear;
    type.prototype.clear = function (mask) { counts.glFrames++; return clear.call(this, mask); };
  }
};

async function cdpMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

// Main-thread work and frames over `seconds` with no input, starting `settleMs` after the first
// question is visible.
async function idle(browser, app, seconds, settleMs = 2000) {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.addInitScript(FRAME_COUNTERS);
  if (app.initScript) await page.addInitScript(app.initScript);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
  await page.goto(app.url, { waitUntil: 'commit' });
  await app.firstQuestion(page);
  await page.waitForLoadState('load');
  await sleep(settleMs);
  const before = await page.evaluate(() => ({ ...window.__benchCounts }));
  const m0 = await cdpMetrics(cdp);
  await sleep(seconds * 1000);
  const m1 = await cdpMetrics(cdp);
  const after = await page.evaluate(() => ({ ...window.__benchCounts }));
  await context.close();
  const delta = (key) => m1[key] - m0[key];
  return {
    seconds, settleMs,
    taskMs: delta('TaskDuration') * 1000,
    scriptMs: delta('ScriptDuration') * 1000,
    layouts: delta('LayoutCount'),
    styleRecalcs: delta('RecalcStyleCount'),
    animationFrames: after.animationFrames - before.animationFrames,
    glFrames: after.glFrames - before.glFrames,
  };
}

async function heapNumbers(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  const metrics = await cdpMetrics(cdp);
  // Emscripten keeps Module.HEAP8 current when memory grows (checked to survive closure: the
  // property is assigned by name). null for pages without wasm.
  const wasmHeapBytes = await page.evaluate(() => (window.Module && window.Module.HEAP8 ? window.Module.HEAP8.length : null));
  return { wasmHeapBytes, jsHeapUsedBytes: metrics.JSHeapUsedSize, jsHeapTotalBytes: metrics.JSHeapTotalSize };
}

// Plays the whole launch quiz as fast as the page allows, then reads memory. ImQuiz through its
// page actions (ImQuizHost.act); quizdown by clicking its labels and buttons.
async function playWholeQuiz(browser, app, bank) {
  const context = await newContext(browser);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(app.url, { waitUntil: 'commit' });
  await app.firstQuestion(page);
  await page.waitForLoadState('load');
  await sleep(1000);
  const atFirstQuestion = await heapNumbers(page, cdp);
  const correct = Object.fromEntries(bank.questions.map((q) => [q.id, q.choices.find((c) => c.correct)]));
  const started = Date.now();
  let answered = 0;
  if (app.name === 'ImQuiz') {
    const state = () => page.evaluate(() => window.ImQuizHost.state);
    const until = async (predicate, what) => {
      const deadline = Date.now() + 15000;
      for (;;) {
        const s = await state();
        if (s && predicate(s)) return s;
        if (Date.now() > deadline) throw new Error(`ImQuiz: timed out waiting for ${what} (screen ${s && s.screen})`);
        await sleep(10);
      }
    };
    for (;;) {
      const s = await until((x) => x.screen === 'results' || (x.screen === 'question' && x.question && !x.question.feedback),
        'a question or the results');
      if (s.screen === 'results') break;
      const index = s.question.index;
      await page.evaluate((choice) => window.ImQuizHost.act({ type: 'select', choice }), correct[s.question.id].id);
      await page.evaluate(() => window.ImQuizHost.act({ type: 'check' }));
      await until((x) => x.question && x.question.index === index && x.question.feedback, 'feedback');
      await page.evaluate(() => window.ImQuizHost.act({ type: 'next' }));
      answered++;
      await until((x) => x.screen === 'results' || (x.question && x.question.index !== index), 'the next question');
    }
    const results = (await state()).results;
    if (!results || results.score !== bank.questions.length) throw new Error(`ImQuiz: unexpected results ${JSON.stringify(results)}`);
  } else {
    const text = (value) => (typeof value === 'string' ? value : value[options.lang]);
    for (let n = 1; n <= bank.questions.length; n++) {
      const question = bank.questions[n - 1];
      await page.locator('h3', { hasText: `Q${n}:` }).waitFor({ state: 'visible', timeout: 15000 });
      await page.locator('label', { hasText: text(correct[question.id].text) }).click();
      const button = n < bank.questions.length ? 'Next' : 'Evaluate';
      await page.locator(`button[title="${button}"]`).click();
      answered++;
    }
    await page.locator('h3, h2, h1', { hasText: /\d+\s*\/\s*\d+|%/ }).first().waitFor({ timeout: 15000 }).catch(() => {});
  }
  const playMs = Date.now() - started;
  await sleep(1000);
  const afterQuiz = await heapNumbers(page, cdp);
  await context.close();
  return { answered, playMs, atFirstQuestion, afterQuiz };
}

// ---- Lighthouse ---------------------------------------------------------------------------------
// One run of Lighthouse's CLI (its default mobile preset: simulated slow 4G and a 4x slower CPU) on
// Debian's Chromium with the tests' flags. Its whole report is kept beside results.json; the numbers
// the table needs, and its failed audits, are returned. Not execFileSync: the sites are served by
// this process, which must go on answering while Lighthouse loads them.
async function lighthouse(app, file) {
  const cli = path.join(options.lighthouse, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const chromeFlags = ['--headless=new', ...CHROMIUM_ARGS].join(' ');
  const failed = await new Promise((resolve) => {
    execFile(process.execPath, [cli, app.url, '--quiet', '--output=json', `--output-path=${file}`, '--only-categories=performance',
                                `--chrome-flags=${chromeFlags}`],
             { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM || '/usr/bin/chromium' }, timeout: 240000, maxBuffer: 1 << 26 },
             (error, stdout, stderr) => resolve(error ? String(stderr || error.message).trim().split('\n').slice(-3).join(' ') : null));
  });
  if (failed) return { error: failed };
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const audit = (id) => report.audits[id] || {};
  const findings = Object.values(report.audits)
    .filter((a) => typeof a.score === 'number' && a.score < 0.9 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
    .sort((a, b) => a.score - b.score)
    .map((a) => `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return {
    version: report.lighthouseVersion,
    settings: { formFactor: report.configSettings.formFactor, throttlingMethod: report.configSettings.throttlingMethod,
                throttling: report.configSettings.throttling },
    score: report.categories.performance.score,
    totalBlockingTimeMs: audit('total-blocking-time').numericValue,
    firstContentfulPaintMs: audit('first-contentful-paint').numericValue,
    largestContentfulPaintMs: audit('largest-contentful-paint').numericValue,
    speedIndexMs: audit('speed-index').numericValue,
    interactiveMs: audit('interactive').numericValue,
    totalBytes: audit('total-byte-weight').numericValue,
    requests: ((audit('network-requests').details || {}).items || []).length,
    findings,
    file: path.relative(top, file),
  };
}

// ---- bank scaling (ImQuiz only) ----------------------------------------------------------------
const SCALING = [
  { count: 100, shape: 'realistic' },
  { count: 1000, shape: 'realistic' },
  { count: 10000, shape: 'realistic' },
  // About 20 MB: over the documented 16 MiB file limit. The page (boot.js) stops reading at that
  // limit and says so in the engine's words; the engine would refuse it with the same message.
  { count: 30000, shape: 'realistic', expect: 'refused: file larger than max_file_bytes (16 MiB)' },
  { count: 100000, shape: 'realistic', expect: 'refused: file larger than max_file_bytes (16 MiB)' },
  { count: 100000, shape: 'compact', expect: 'refused: more than max_questions (20,000)' },
];

async function scalingLoad(browser, siteUrl, id) {
  const context = await newContext(browser);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const crashed = new Promise((resolve) => page.on('crash', () => resolve('crash')));
  await page.goto(`${siteUrl}?quiz=${id}&lang=${options.lang}`, { waitUntil: 'commit' });
  const outcome = await Promise.race([crashed, page.waitForFunction(() => {
    const host = window.ImQuizHost;
    if (!host) return false;
    if (host.hasSignal('first-question')) return 'first-question';
    if (host.hasSignal('fatal')) return 'fatal';
    const bank = host.state && host.state.banks && host.state.banks[0];
    if (bank && (bank.state === 'invalid' || bank.state === 'fetch-failed')) return bank.state;
    return false;
  }, null, { timeout: 180000, polling: 20 }).then((h) => h.jsonValue())]);
  const sample = { outcome };
  if (outcome !== 'crash') {
    sample.ms = outcome === 'first-question'
      ? await page.evaluate(() => window.ImQuizHost.whenSignal('first-question'))
      : await page.evaluate(() => performance.now());
    const state = await page.evaluate(() => window.ImQuizHost.state);
    const bank = state && state.banks && state.banks[0];
    sample.screen = state && state.screen;
    sample.bankState = bank && bank.state;
    if (bank && bank.problems) sample.problems = bank.problems;
    if (bank && bank.error) sample.error = bank.error;
    Object.assign(sample, await heapNumbers(page, cdp));
  }
  await context.close();
  return sample;
}

// ---- the results screen of a big attempt (ImQuiz only) ------------------------------------------
// Issue 24's limit: results of a 20,000-question bank under 50 ms a frame and a few hundred MB,
// against the same screen of a 100-question bank in the same run (drawing only what is on screen
// makes the two alike). The attempt is not played question by question (20,000 rounds of page
// actions): one question is answered, the stored record gets answers for all but the last, the
// page reloads, resumes at the last question, and its Next opens the results.
const RESULTS_BANKS = [100, 20000];
const FRAME_TIMER = () => {
  window.__benchFrameMs = [];
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => {
    const start = performance.now();
    try { callback(time); } finally { window.__benchFrameMs.push(performance.now() - start); }
  });
};

async function bigResults(browser, siteUrl, id) {
  const context = await newContext(browser);
  await context.addInitScript(FRAME_TIMER);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const until = async (predicate, arg) => (await page.waitForFunction(predicate, arg, { timeout: 120000, polling: 20 })).jsonValue();
  const act = (action) => page.evaluate((a) => window.ImQuizHost.act(a), action);
  await page.goto(`${siteUrl}?quiz=${id}&lang=${options.lang}`);
  const first = await until(() => { const s = window.ImQuizHost && window.ImQuizHost.state; return s && s.screen === 'question' && s.question; });
  await act({ type: 'select', choice: first.choices[0].id });
  await act({ type: 'check' });
  await until(() => window.ImQuizHost.state.question.feedback);
  await act({ type: 'next' });
  const key = `imquiz:/:progress.${id}`;
  const record = JSON.parse(await until((k) => localStorage.getItem(k), key));
  const questions = record.inProgress.questions;
  for (const question of questions.slice(0, -1))
    question.answer = question.answer || { response: { choiceIds: ['a'] }, score: 1, correct: true, answeredAtMs: record.inProgress.lastActivityMs };
  record.inProgress.current = questions.length - 1;
  const recordBytes = await page.evaluate(([k, v]) => { localStorage.setItem(k, v); return v.length; }, [key, JSON.stringify(record)]);
  const reloadStarted = Date.now();
  await page.reload();
  await until((n) => { const s = window.ImQuizHost && window.ImQuizHost.state; return s && s.screen === 'question' && s.question && s.question.index === n; }, questions.length);
  const resumeMs = Date.now() - reloadStarted;
  await act({ type: 'select', choice: 'a' });
  await act({ type: 'check' });
  await until(() => window.ImQuizHost.state.question.feedback);
  const nextSent = await page.evaluate(() => performance.now());
  await act({ type: 'next' });
  const shownAt = await until(() => window.ImQuizHost.state.screen === 'results' && performance.now());
  const state = await page.evaluate(() => window.ImQuizHost.state);
  if (state.results.maxScore !== questions.length) throw new Error(`results of ${state.results.maxScore} questions, not ${questions.length}`);
  // Scrolling: each wheel step is a frame that lays out and draws the rows on screen.
  await page.evaluate(() => { window.__benchFrameMs = []; });
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 400);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  }
  const frames = await page.evaluate(() => window.__benchFrameMs);
  const sorted = [...frames].sort((a, b) => a - b);
  const heap = await heapNumbers(page, cdp);
  await context.close();
  return { questions: questions.length, recordBytes, resumeMs, toResultsMs: shownAt - nextSent, frames: frames.length,
           frameMs: { median: median(frames), p95: sorted[Math.floor(sorted.length * 0.95)], max: sorted[sorted.length - 1] }, ...heap };
}

// ---- Markdown texts (ImQuiz only): issue 15's budgets ---------------------------------------------
// The same questions as a plain bank and as a Markdown bank whose first question has code, a
// formula and an image (banks.mjs, makeRichSite). For the Markdown bank, "shown" is not the first
// frame but the question complete: every picture decoded (or failed), and every formula drawn
// from its texture (an item "math:<TeX>" in the state) or shown as its TeX error. Typeset alone
// is not drawn: the texture is decoded after (a formula typeset ahead of time is typeset at once).
// Timed when the app publishes that state (a state listener, set up before the app runs), as the
// first-question signal is raised after the frame that shows it: polling from here would add the
// poll's own wait behind the page's busy main thread (250-300 ms on this machine).
const RICH_COMPLETE_TIMER = () => {
  const complete = (s) => {
    if (!s || s.screen !== 'question' || !s.question) return false;
    const runs = (s.question.promptRich || []).flatMap((b) => b.runs || []);
    const drawn = new Set((s.items || []).filter((i) => i.id.startsWith('math:')).map((i) => i.id.slice(5)));
    const mathPending = runs.some((r) => (r.type === 'math' || r.type === 'display-math') && !r.error &&
                                         !(r.typeset && drawn.has(r.text)));
    return !mathPending && (s.pictures || []).every((p) => p.state !== 'loading');
  };
  // boot.js has run by then; the app, loaded after, has published nothing yet.
  document.addEventListener('DOMContentLoaded', () => window.ImQuizHost.stateListeners.push((state) => {
    if (window.__benchRichComplete === undefined && complete(state)) window.__benchRichComplete = performance.now();
  }));
};

// The time the question was complete (a page with RICH_COMPLETE_TIMER), once it is.
async function waitForRichComplete(page) {
  return (await page.waitForFunction(() => window.__benchRichComplete, null, { timeout: TIMEOUT, polling: 100 })).jsonValue();
}

async function richLoad(browser, siteUrl, id, profile = null) {
  const { context, page } = await openPage(browser, profile);
  await page.addInitScript(RICH_COMPLETE_TIMER);
  const app = imquizApp(siteUrl, id);
  await page.goto(app.url, { waitUntil: 'commit' });
  const firstQuestionMs = await app.firstQuestion(page);
  const completeMs = await waitForRichComplete(page);
  const pictures = await page.evaluate(() => (window.ImQuizHost.state.pictures || []).map((p) => p.state));
  await context.close();
  return { firstQuestionMs, completeMs, pictures };
}

// Frames of the rich question while the learner scrolls it (30 wheel steps), as in part 6.
async function richFrames(browser, siteUrl, id) {
  const context = await newContext(browser, { viewport: { width: 390, height: 700 } });
  await context.addInitScript(FRAME_TIMER);
  await context.addInitScript(RICH_COMPLETE_TIMER);
  const page = await context.newPage();
  await page.goto(imquizApp(siteUrl, id).url);
  await waitForRichComplete(page);
  await page.evaluate(() => { window.__benchFrameMs = []; });
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, i < 15 ? 120 : -120);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  }
  const frames = await page.evaluate(() => window.__benchFrameMs);
  const sorted = [...frames].sort((a, b) => a - b);
  await context.close();
  return { frames: frames.length, median: median(frames), p95: sorted[Math.floor(sorted.length * 0.95)], max: sorted[sorted.length - 1] };
}

// ---- the run -----------------------------------------------------------------------------------
const fmtInt = (n) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en'));
const fmtKB = (n) => (n === null || n === undefined ? '–' : (n / 1024).toFixed(1));
const fmtMB = (n) => (n === null || n === undefined ? '–' : (n / 1048576).toFixed(1));
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) + 'x' : '–');
const range = (s) => `${fmtInt(s.median)} [${fmtInt(s.min)}–${fmtInt(s.max)}]`;
const pad = (text, width) => String(text).padEnd(width);
const lpad = (text, width) => String(text).padStart(width);

function byteTotals(rows) {
  const totals = { raw: 0, gzip: 0, brotli: 0, wire: 0 };
  for (const row of rows) {
    if (!row.file) continue;
    totals.raw += row.file.raw; totals.gzip += row.file.gzip; totals.brotli += row.file.brotli;
    totals.wire += row.wireBodyBytes || 0;
  }
  return totals;
}

async function main() {
  if (!fs.existsSync(path.join(options.site, 'imquiz.wasm'))) throw new Error(`no built site at ${options.site}: run scripts/build-web.sh web`);
  fs.mkdirSync(options.out, { recursive: true });
  const bank = JSON.parse(fs.readFileSync(path.join(options.site, 'quizzes', `${options.quiz}.json`), 'utf8'));
  const peer = buildPeerSite(options.peerDir, bank, options.lang);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const imquizServer = await serve(options.site, { headers: securityHeaders() });
  // quizdown injects its styles at run time (Svelte): the strict style-src of ImQuiz's CSP would
  // break it, so the peer gets only the policy-free headers. Both servers send precompressed files.
  const peerServer = await serve(peer.siteDir, { headers: { 'X-Content-Type-Options': 'nosniff' } });
  const apps = [
    { ...imquizApp(imquizServer.url), siteDir: options.site },
    { ...peerApp(peerServer.url, peer.firstPrompt), siteDir: peer.siteDir },
  ];
  // The launch quiz is a Markdown bank: its path loads the rich player. The same quiz as a plain
  // bank is timed beside it (cold, warm, phone) and is what the byte target counts (issue 22).
  const plainSite = path.join(options.out, 'plain-launch-site');
  makePlainLaunchSite(options.site, plainSite, options.quiz);
  const plainServer = await serve(plainSite, { headers: securityHeaders() });
  const plainApp = { ...imquizApp(plainServer.url), name: 'ImQuiz, plain bank', siteDir: plainSite };
  const timed = [apps[0], plainApp, apps[1]];
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0] && os.cpus()[0].model, loadAverage: os.loadavg() },
    browser: `Chromium ${browser.version()}`,
    peer: { package: 'quizdown', version: peer.version },
    options: { ...options, parts: [...options.parts], peerDir: undefined },
    imquizBuild: fs.existsSync(path.join(options.site, 'version.json'))
      ? JSON.parse(fs.readFileSync(path.join(options.site, 'version.json'), 'utf8')).build : null,
    apps: {},
  };
  try {
    for (const app of timed) results.apps[app.name] = { url: app.url };
    // Cold and warm samples alternate between the two apps, so load that drifts during the run
    // (other builds on the machine) falls on both alike.
    if (options.parts.has('cold')) {
      log(`cold loads: ${options.runs} each, alternating`);
      // One unmeasured load each first: the first sample should not also pay for starting processes.
      for (const app of timed) await coldLoad(browser, app, app.siteDir);
      for (const app of timed) results.apps[app.name].cold = [];
      for (let i = 0; i < options.runs; i++)
        for (const app of timed) results.apps[app.name].cold.push(await coldLoad(browser, app, app.siteDir));
      for (const app of timed) {
        const entry = results.apps[app.name];
        entry.requestsBeforeFirstQuestion = entry.cold[0].requests.filter((r) => r.startedBeforeFirstQuestion);
        for (const sample of entry.cold) delete sample.requests;
      }
    }
    if (options.parts.has('warm')) {
      log(`warm loads: ${options.runs} each, alternating`);
      const warm = new Map();
      for (const app of timed) warm.set(app, await openWarm(browser, app));
      for (let i = 0; i < options.runs; i++) for (const app of timed) await warmLoad(app, warm.get(app));
      for (const app of timed) {
        const { context, serviceWorkerReady, samples } = warm.get(app);
        await context.close();
        results.apps[app.name].warm = { serviceWorkerReady, samples };
      }
    }
    if (options.parts.has('mobile')) {
      // As 2, on the phone profile: cold loads, then warm reloads, the apps alternating.
      log(`mobile profile: ${options.runs} cold and ${options.runs} warm loads each, alternating`);
      const mobile = { profile: MOBILE, apps: {} };
      // The same three sites, each behind its own slow link.
      const links = await Promise.all([imquizServer, plainServer, peerServer].map((s) => slowNetwork(s.port, MOBILE.link)));
      const phone = [
        { ...imquizApp(links[0].url), siteDir: options.site },
        { ...imquizApp(links[1].url), name: plainApp.name, siteDir: plainSite },
        { ...peerApp(links[2].url, peer.firstPrompt), siteDir: peer.siteDir },
      ];
      try {
        for (const app of phone) await coldLoad(browser, app, app.siteDir, MOBILE);
        for (const app of phone) mobile.apps[app.name] = { cold: [] };
        for (let i = 0; i < options.runs; i++)
          for (const app of phone) mobile.apps[app.name].cold.push(await coldLoad(browser, app, app.siteDir, MOBILE));
        const warm = new Map();
        for (const app of phone) warm.set(app, await openWarm(browser, app, MOBILE));
        for (let i = 0; i < options.runs; i++) for (const app of phone) await warmLoad(app, warm.get(app));
        for (const app of phone) {
          const { context, serviceWorkerReady, samples } = warm.get(app);
          await context.close();
          mobile.apps[app.name].warm = { serviceWorkerReady, samples };
        }
      } finally {
        for (const link of links) await link.close();
      }
      results.mobile = mobile;
    }
    if (options.parts.has('lighthouse')) {
      if (!options.lighthouse) log('lighthouse: not installed (scripts/bench installs it): skipped');
      else {
        results.lighthouse = {};
        for (const app of timed) {
          log(`${app.name}: Lighthouse, mobile preset`);
          results.lighthouse[app.name] = await lighthouse(app, path.join(options.out, `lighthouse-${app.name.toLowerCase().replace(/[^a-z]+/g, '-')}.json`));
        }
      }
    }
    for (const app of apps) {
      if (!options.parts.has('idle')) break;
      log(`${app.name}: idle ${options.idleSeconds} s`);
      results.apps[app.name].idle = await idle(browser, app, options.idleSeconds);
    }
    for (const app of apps) {
      if (!options.parts.has('memory')) break;
      log(`${app.name}: memory after a whole quiz`);
      try {
        results.apps[app.name].memory = await playWholeQuiz(browser, app, bank);
      } catch (error) {
        results.apps[app.name].memory = { error: String(error.message || error) };
      }
    }
    if (options.parts.has('scaling')) {
      results.scaling = [];
      for (const step of SCALING) {
        const id = `bench-${step.shape}-${step.count}`;
        const dir = path.join(options.out, 'scaling-sites', id);
        log(`scaling: generating ${id}`);
        const bytes = makeScalingSite(options.site, dir, id, step.count, step.shape);
        const server = await serve(dir, { headers: securityHeaders() });
        const row = { id, questions: step.count, shape: step.shape, bankBytes: bytes, expect: step.expect || 'loads', samples: [] };
        try {
          for (let i = 0; i < options.scalingRuns; i++) {
            log(`scaling: ${id} load ${i + 1}/${options.scalingRuns}`);
            row.samples.push(await scalingLoad(browser, server.url, id));
          }
        } finally { await server.close(); }
        results.scaling.push(row);
      }
    }
    if (options.parts.has('results')) {
      results.bigResults = [];
      for (const count of RESULTS_BANKS) {
        const id = `bench-compact-${count}`;
        const dir = path.join(options.out, 'scaling-sites', id);
        log(`results screen: ${id}`);
        makeScalingSite(options.site, dir, id, count, 'compact');
        const server = await serve(dir, { headers: securityHeaders() });
        try { results.bigResults.push(await bigResults(browser, server.url, id)); } finally { await server.close(); }
      }
    }
    if (options.parts.has('rich')) {
      const dir = path.join(options.out, 'rich-site');
      makeRichSite(options.site, dir, path.join(options.site, '..', 'src', 'tools', 'quizc-wasm.js'));
      const server = await serve(dir, { headers: securityHeaders() });
      try {
        const rich = { plain: [], markdown: [], typeset: [] };
        log(`Markdown texts: ${options.runs} cold loads each, alternating`);
        await richLoad(browser, server.url, 'bench-plain');
        await richLoad(browser, server.url, 'bench-rich');
        for (let i = 0; i < options.runs; i++) {
          rich.plain.push(await richLoad(browser, server.url, 'bench-plain'));
          rich.markdown.push(await richLoad(browser, server.url, 'bench-rich'));
          rich.typeset.push(await richLoad(browser, server.url, 'bench-rich-typeset'));
        }
        // The formulas' two paths on the phone profile, where MathJax's 330 KB share the slow link
        // with the rich player's wasm.
        log(`Markdown texts on the phone profile: ${options.runs} cold loads each, alternating`);
        const link = await slowNetwork(server.port, MOBILE.link);
        try {
          rich.phone = { markdown: [], typeset: [] };
          for (let i = 0; i < options.runs; i++) {
            rich.phone.markdown.push(await richLoad(browser, link.url, 'bench-rich', MOBILE));
            rich.phone.typeset.push(await richLoad(browser, link.url, 'bench-rich-typeset', MOBILE));
          }
        } finally { await link.close(); }
        log('Markdown texts: frames while scrolling, idle');
        rich.frames = await richFrames(browser, server.url, 'bench-rich');
        rich.idle = await idle(browser, { url: imquizApp(server.url, 'bench-rich').url, initScript: RICH_COMPLETE_TIMER,
                                          firstQuestion: waitForRichComplete },
                               options.idleSeconds);
        results.rich = rich;
      } finally { await server.close(); }
    }
  } finally {
    await browser.close();
    await imquizServer.close();
    await peerServer.close();
    await plainServer.close();
  }
  const file = path.join(options.out, 'results.json');
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  console.log(report(results));
  console.log(`\nEvery sample: ${path.relative(process.cwd(), file)}`);
}

// ---- the printed table -------------------------------------------------------------------------
// Sections whose part did not run (--only) are left out.
function report(results) {
  const ours = results.apps.ImQuiz, theirs = results.apps.quizdown, plain = results.apps['ImQuiz, plain bank'];
  const out = [];
  const line = (...cells) => out.push(cells.join(''));
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  const targets = [];
  out.push(`ImQuiz (build ${results.imquizBuild}) vs quizdown ${results.peer.version}: ${results.browser}, ` +
           `${results.machine.cpus} cores, load average ${results.machine.loadAverage.map((x) => x.toFixed(1)).join(' ')}`);
  out.push('One run; ratios are ImQuiz / quizdown within this run. Times: median [min–max] of the samples.');

  if (ours.cold) {
    const ourBytes = byteTotals(ours.requestsBeforeFirstQuestion), theirBytes = byteTotals(theirs.requestsBeforeFirstQuestion);
    const plainBytes = byteTotals(plain.requestsBeforeFirstQuestion);
    out.push('\n1. Bytes to show the first question (files the page requested before it; KiB). The launch quiz is a Markdown bank;');
    out.push('   "plain" is the same quiz as a plain bank (what the plain player loads), ratios against quizdown');
    line(pad('', 24), lpad('ImQuiz', 10), lpad('plain', 10), lpad('quizdown', 10), lpad('ratio', 8), lpad('plain', 8));
    for (const [key, label] of [['raw', 'raw'], ['gzip', 'gzip -9'], ['brotli', 'brotli -q 11'], ['wire', 'on the wire (served)']])
      line(pad(label, 24), lpad(fmtKB(ourBytes[key]), 10), lpad(fmtKB(plainBytes[key]), 10), lpad(fmtKB(theirBytes[key]), 10),
           lpad(ratio(ourBytes[key], theirBytes[key]), 8), lpad(ratio(plainBytes[key], theirBytes[key]), 8));
    for (const [name, entry] of [['ImQuiz', ours], ['ImQuiz, plain bank', plain], ['quizdown', theirs]]) {
      out.push(`   ${pad(name + ', per file (KiB)', 28)}     raw     gzip   brotli  served as`);
      for (const row of entry.requestsBeforeFirstQuestion) {
        const f = row.file || {};
        const via = row.fromServiceWorker ? 'service worker' : `${row.encoding}, ${fmtKB(row.wireBodyBytes)}`;
        line('   ', pad(row.path, 30).slice(0, 30), lpad(fmtKB(f.raw), 8), lpad(fmtKB(f.gzip), 9), lpad(fmtKB(f.brotli), 9), '  ', via);
      }
    }
    const gzipRatio = ourBytes.gzip / theirBytes.gzip;
    targets.push(`gzip bytes to the first question <= 2.2x quizdown's (aim 1.5x): ${gzipRatio.toFixed(2)}x, ${verdict(gzipRatio <= 2.2)}`);
    const brotliRatio = plainBytes.brotli / theirBytes.brotli;
    targets.push(`brotli bytes to the first question, plain bank, <= 2.0x quizdown's: ${brotliRatio.toFixed(2)}x, ${verdict(brotliRatio <= 2.0)}`);
  }

  if (ours.cold || ours.warm) {
    out.push('\n2. Time from navigation to the first question visible (ms)');
    line(pad('', 24), lpad('ImQuiz', 22), lpad('quizdown', 22), lpad('ratio', 8));
    const row = (label, a, b, limit) => {
      line(pad(`${label} (n=${a.n})`, 24), lpad(range(a), 22), lpad(range(b), 22), lpad(ratio(a.median, b.median), 8));
      targets.push(`${label} first question <= ${limit}x quizdown's: ${(a.median / b.median).toFixed(2)}x, ${verdict(a.median / b.median <= limit)}`);
    };
    const plainRow = (label, a, b) =>
      line(pad(`${label}, plain (n=${a.n})`, 24), lpad(range(a), 22), lpad('', 22), lpad(ratio(a.median, b.median), 8));
    if (ours.cold) {
      row('cold', spread(ours.cold.map((s) => s.firstQuestionMs)), spread(theirs.cold.map((s) => s.firstQuestionMs)), 0.6);
      plainRow('cold', spread(plain.cold.map((s) => s.firstQuestionMs)), spread(theirs.cold.map((s) => s.firstQuestionMs)));
    }
    if (ours.warm) {
      row('warm', spread(ours.warm.samples.map((s) => s.firstQuestionMs)), spread(theirs.warm.samples.map((s) => s.firstQuestionMs)), 0.3);
      plainRow('warm', spread(plain.warm.samples.map((s) => s.firstQuestionMs)), spread(theirs.warm.samples.map((s) => s.firstQuestionMs)));
      const controlled = ours.warm.samples.filter((s) => s.serviceWorkerControlled).length;
      out.push(`   warm ImQuiz loads controlled by its service worker: ${controlled}/${ours.warm.samples.length} (quizdown has none).`);
    }
    out.push('   quizdown 0.4.1 shows a spinner for 800 ms by design (its Loading component) before the question.');
  }

  if (ours.idle) {
    out.push(`\n3. Idle ${ours.idle.seconds} s with no input, from ${ours.idle.settleMs / 1000} s after the first question`);
    line(pad('', 24), lpad('ImQuiz', 10), lpad('quizdown', 10));
    for (const [key, label] of [['taskMs', 'main-thread tasks (ms)'], ['scriptMs', 'script (ms)'], ['animationFrames', 'animation frames'],
                                ['glFrames', 'WebGL frames'], ['layouts', 'layouts']])
      line(pad(label, 24), lpad(key.endsWith('Ms') ? ours.idle[key].toFixed(1) : fmtInt(ours.idle[key]), 10),
           lpad(key.endsWith('Ms') ? theirs.idle[key].toFixed(1) : fmtInt(theirs.idle[key]), 10));
    const per10 = ours.idle.taskMs * 10 / ours.idle.seconds;
    targets.push(`idle: no frames drawn (${ours.idle.glFrames} WebGL, ${ours.idle.animationFrames} animation frames) and <= 20 ms ` +
                 `of main-thread tasks per 10 s (${per10.toFixed(1)} ms): ` +
                 verdict(ours.idle.glFrames === 0 && ours.idle.animationFrames === 0 && per10 <= 20));
  }

  if (ours.memory) {
    out.push('\n4. Memory after playing the whole quiz (MiB; at the first question in brackets)');
    line(pad('', 24), lpad('ImQuiz', 16), lpad('quizdown', 16));
    const mem = (entry, key) => (entry.memory && entry.memory.afterQuiz
      ? `${fmtMB(entry.memory.afterQuiz[key])} (${fmtMB(entry.memory.atFirstQuestion[key])})` : 'error');
    line(pad('wasm heap', 24), lpad(mem(ours, 'wasmHeapBytes'), 16), lpad(mem(theirs, 'wasmHeapBytes'), 16));
    line(pad('JS heap used', 24), lpad(mem(ours, 'jsHeapUsedBytes'), 16), lpad(mem(theirs, 'jsHeapUsedBytes'), 16));
    for (const [name, entry] of [['ImQuiz', ours], ['quizdown', theirs]]) {
      if (entry.memory.error) out.push(`   ${name}: ${entry.memory.error}`);
      else out.push(`   ${name}: ${entry.memory.answered} questions answered in ${fmtInt(entry.memory.playMs)} ms`);
    }
  }

  if (results.scaling) {
    out.push('\n5. Bank scaling (ImQuiz; generated banks, ?quiz=<id>, cold loads)');
    line(pad('bank', 20), lpad('file MiB', 9), lpad('first question ms', 24), lpad('wasm heap MiB', 15), '  outcome');
    const firstQuestionMedian = (row) => {
      const ok = row ? row.samples.filter((s) => s.outcome === 'first-question') : [];
      return ok.length ? median(ok.map((s) => s.ms)) : null;
    };
    for (const row of results.scaling) {
      const timed = row.samples.filter((s) => typeof s.ms === 'number');
      const times = timed.length ? range(spread(timed.map((s) => s.ms))) : '–';
      const heap = timed.length ? fmtMB(Math.max(...timed.map((s) => s.wasmHeapBytes || 0))) : '–';
      const last = row.samples[row.samples.length - 1] || {};
      const outcome = last.outcome === 'first-question' ? 'first question shown'
        : `${last.outcome}${last.problems ? ': ' + last.problems.join('; ') : ''}${last.error ? ': ' + last.error : ''}`;
      line(pad(`${row.questions.toLocaleString('en')} ${row.shape}`, 20), lpad(fmtMB(row.bankBytes), 9), lpad(times, 24), lpad(heap, 15), '  ', outcome);
    }
    const small = firstQuestionMedian(results.scaling.find((r) => r.questions === 100 && r.shape === 'realistic'));
    const large = firstQuestionMedian(results.scaling.find((r) => r.questions === 10000 && r.shape === 'realistic'));
    targets.push('10,000-question bank within 300 ms of the 100-question bank: ' +
                 (small !== null && large !== null ? `${large >= small ? '+' : '−'}${fmtInt(Math.abs(large - small))} ms, ${verdict(large - small <= 300)}` : 'not measured'));
    for (const row of results.scaling.filter((r) => r.questions > 20000)) {
      const refused = row.samples.every((s) => (s.outcome === 'invalid' && (s.problems || []).some((p) => /limit/.test(p))) ||
                                               (s.outcome === 'fetch-failed' && /\(the limit is \d+\)$/.test(s.error || '')));
      const loaded = row.samples.every((s) => s.outcome === 'first-question' && s.wasmHeapBytes < 256 * 1048576);
      targets.push(`${row.questions.toLocaleString('en')} questions (${row.shape}) refused with the limit's message, or loaded under 256 MB: ` +
                   `${refused ? 'refused' : loaded ? 'loaded' : 'neither'}, ${verdict(refused || loaded)}`);
    }
  }
  if (results.bigResults) {
    out.push('\n6. Results screen of a whole attempt (ImQuiz; compact generated banks, 60 wheel steps of scrolling)');
    line(pad('questions', 12), lpad('record KiB', 11), lpad('resume ms', 10), lpad('Next→results ms', 16), lpad('frame ms median/p95/max', 25),
         lpad('wasm MiB', 9), lpad('JS MiB', 8));
    for (const row of results.bigResults)
      line(pad(row.questions.toLocaleString('en'), 12), lpad(fmtKB(row.recordBytes), 11), lpad(fmtInt(row.resumeMs), 10), lpad(fmtInt(row.toResultsMs), 16),
           lpad(`${row.frameMs.median.toFixed(1)} / ${row.frameMs.p95.toFixed(1)} / ${row.frameMs.max.toFixed(1)}`, 25),
           lpad(fmtMB(row.wasmHeapBytes), 9), lpad(fmtMB(row.jsHeapUsedBytes), 8));
    const [small, big] = results.bigResults;
    out.push(`   20,000 / 100 questions: frame median ${ratio(big.frameMs.median, small.frameMs.median)}, p95 ${ratio(big.frameMs.p95, small.frameMs.p95)}`);
    const heapMB = (big.wasmHeapBytes + big.jsHeapUsedBytes) / 1048576;
    targets.push(`results of 20,000 questions under 50 ms a frame while scrolling (p95 ${big.frameMs.p95.toFixed(1)} ms, max ${big.frameMs.max.toFixed(1)} ms) ` +
                 `and a few hundred MB (${heapMB.toFixed(0)} MiB wasm + JS): ${verdict(big.frameMs.p95 < 50 && heapMB < 300)}`);
  }
  if (results.rich) {
    const r = results.rich;
    const plain = spread(r.plain.map((s) => s.firstQuestionMs));
    const first = spread(r.markdown.map((s) => s.firstQuestionMs));
    const complete = spread(r.markdown.map((s) => s.completeMs));
    out.push('\n7. Markdown texts (ImQuiz; the same questions plain and as Markdown with code, a formula and an image; cold loads, ms)');
    line(pad('plain bank, first question', 40), lpad(range(plain), 22));
    line(pad('Markdown bank, first question', 40), lpad(range(first), 22), lpad(ratio(first.median, plain.median), 8));
    line(pad('Markdown bank, complete (pictures, math)', 40), lpad(range(complete), 22), lpad(ratio(complete.median, plain.median), 8));
    const typesetFirst = r.typeset && r.typeset.length ? spread(r.typeset.map((s) => s.firstQuestionMs)) : null;
    const typesetComplete = typesetFirst ? spread(r.typeset.map((s) => s.completeMs)) : null;
    if (typesetFirst) {   // the same bank, its formulas typeset ahead of time (check-math.mjs --write)
      line(pad('  formulas typeset ahead, first question', 40), lpad(range(typesetFirst), 22), lpad(ratio(typesetFirst.median, plain.median), 8));
      line(pad('  formulas typeset ahead, complete', 40), lpad(range(typesetComplete), 22), lpad(ratio(typesetComplete.median, plain.median), 8));
    }
    if (r.phone) {
      out.push('   on the phone profile (8), cold, ms:');
      for (const [label, samples] of [['Markdown bank', r.phone.markdown], ['  formulas typeset ahead', r.phone.typeset]]) {
        line(pad(`${label}, first question`, 40), lpad(range(spread(samples.map((x) => x.firstQuestionMs))), 22));
        line(pad(`${label}, complete`, 40), lpad(range(spread(samples.map((x) => x.completeMs))), 22));
      }
    }
    out.push(`   frame while scrolling the Markdown question: median ${r.frames.median.toFixed(1)} ms, p95 ${r.frames.p95.toFixed(1)} ms, ` +
             `max ${r.frames.max.toFixed(1)} ms (${r.frames.frames} frames)`);
    out.push(`   idle ${r.idle.seconds} s on it: ${r.idle.glFrames} WebGL frames, ${r.idle.animationFrames} animation frames, ` +
             `${r.idle.taskMs.toFixed(1)} ms of main-thread tasks`);
    targets.push(`Markdown question complete within 1.5x the plain one's first question: ${(complete.median / plain.median).toFixed(2)}x, ` +
                 verdict(complete.median / plain.median <= 1.5));
    if (typesetComplete) {
      targets.push(`  the same, formulas typeset ahead of time: ${(typesetComplete.median / plain.median).toFixed(2)}x, ` +
                   verdict(typesetComplete.median / plain.median <= 1.5));
    }
    targets.push(`Markdown question idle: no frames (${r.idle.glFrames} WebGL, ${r.idle.animationFrames} animation): ` +
                 verdict(r.idle.glFrames === 0 && r.idle.animationFrames === 0));
  }
  if (results.mobile) {
    const m = results.mobile.apps, mine = m.ImQuiz, peers = m.quizdown, minePlain = m['ImQuiz, plain bank'];
    const p = results.mobile.profile;
    out.push(`\n8. Phone profile: ${p.link.rttMs} ms round trip, ${(p.link.downBytesPerSecond * 8 / 1048576).toFixed(1)} Mbit/s down, ` +
             `${Math.round(p.link.upBytesPerSecond * 8 / 1024)} kbit/s up, CPU ${p.cpuSlowdown}x slower, ` +
             `${p.context.viewport.width}x${p.context.viewport.height} at DPR ${p.context.deviceScaleFactor}, touch (ms to the first question)`);
    line(pad('', 24), lpad('ImQuiz', 22), lpad('quizdown', 22), lpad('ratio', 8));
    const row = (label, a, b, limit) => {
      line(pad(`${label} (n=${a.n})`, 24), lpad(range(a), 22), lpad(range(b), 22), lpad(ratio(a.median, b.median), 8));
      targets.push(`phone ${label} first question <= ${limit}x quizdown's: ${(a.median / b.median).toFixed(2)}x, ${verdict(a.median / b.median <= limit)}`);
    };
    row('cold', spread(mine.cold.map((s) => s.firstQuestionMs)), spread(peers.cold.map((s) => s.firstQuestionMs)), 0.8);
    row('warm', spread(mine.warm.samples.map((s) => s.firstQuestionMs)), spread(peers.warm.samples.map((s) => s.firstQuestionMs)), 0.5);
    row('cold, plain bank', spread(minePlain.cold.map((s) => s.firstQuestionMs)), spread(peers.cold.map((s) => s.firstQuestionMs)), 0.8);
    row('warm, plain bank', spread(minePlain.warm.samples.map((s) => s.firstQuestionMs)), spread(peers.warm.samples.map((s) => s.firstQuestionMs)), 0.5);
    const controlled = mine.warm.samples.filter((s) => s.serviceWorkerControlled).length;
    out.push(`   warm ImQuiz loads controlled by its service worker: ${controlled}/${mine.warm.samples.length}.`);
    out.push('   ImQuiz\'s steps (median ms from navigation start; "compiled" is boot.js\'s wasm-ready signal):');
    line('   ', pad('', 26), lpad('cold', 10), lpad('warm', 10), lpad('plain cold', 12), lpad('plain warm', 12));
    const step = (samples, key) => {
      const values = samples.map((s) => (s.steps || {})[key]).filter((v) => typeof v === 'number');
      return values.length ? fmtInt(median(values)) : '–';
    };
    for (const [key, label] of [['pageFirstByte', 'page, first byte'], ['wasmFirstByte', 'wasm, first byte'], ['wasmLastByte', 'wasm, last byte'],
                                ['compiled', 'compiled and instantiated'], ['firstFrame', 'first frame'], ['firstQuestionMs', 'first question']]) {
      const value = (samples) => (key === 'firstQuestionMs' ? fmtInt(median(samples.map((s) => s.firstQuestionMs))) : step(samples, key));
      line('   ', pad(label, 26), lpad(value(mine.cold), 10), lpad(value(mine.warm.samples), 10),
           lpad(value(minePlain.cold), 12), lpad(value(minePlain.warm.samples), 12));
    }
    out.push(`   quizdown, page first byte: cold ${step(peers.cold, 'pageFirstByte')}, warm ${step(peers.warm.samples, 'pageFirstByte')}`);
  }
  if (results.lighthouse) {
    const l = results.lighthouse;
    const any = l.ImQuiz.version ? l.ImQuiz : l.quizdown;
    out.push(`\n9. Lighthouse ${any.version || ''} (${any.settings ? `${any.settings.formFactor}, ${any.settings.throttlingMethod}` : ''}; ` +
             'it cannot see into a canvas: its paints are not the first question, section 8 is)');
    const lPlain = l['ImQuiz, plain bank'];
    line(pad('', 28), lpad('ImQuiz', 12), lpad('plain bank', 12), lpad('quizdown', 12), lpad('ratio', 8));
    const cell = (entry, key, f) => (entry.error ? 'error' : f(entry[key]));
    for (const [key, label, f] of [['score', 'performance score', (v) => Math.round(v * 100)],
                                   ['totalBlockingTimeMs', 'total blocking time ms', fmtInt],
                                   ['firstContentfulPaintMs', 'first contentful paint ms', fmtInt],
                                   ['largestContentfulPaintMs', 'largest contentful paint ms', fmtInt],
                                   ['speedIndexMs', 'speed index ms', fmtInt], ['interactiveMs', 'time to interactive ms', fmtInt],
                                   ['totalBytes', 'bytes transferred KiB', fmtKB], ['requests', 'requests', fmtInt]])
      line(pad(label, 28), lpad(cell(l.ImQuiz, key, f), 12), lpad(cell(lPlain, key, f), 12), lpad(cell(l.quizdown, key, f), 12),
           lpad(l.ImQuiz.error || l.quizdown.error ? '–' : ratio(l.ImQuiz[key], l.quizdown[key]), 8));
    for (const [name, entry] of Object.entries(l)) {
      if (entry.error) { out.push(`   ${name}: ${entry.error}`); continue; }
      out.push(`   ${name}'s findings (score under 0.9; whole report: ${entry.file}):`);
      for (const finding of entry.findings.slice(0, 8)) out.push(`     - ${finding}`);
    }
  }
  out.push('\nTargets (issues 8, 15, 22 and 24)');
  for (const target of targets) out.push(`   ${target}`);
  return out.join('\n');
}

main().catch((error) => { console.error(error); process.exit(1); });
