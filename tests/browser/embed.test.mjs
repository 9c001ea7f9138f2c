// Embedding in a real cross-origin iframe: a host page on http://localhost:<p1> embeds the quiz
// from http://127.0.0.1:<p2>. The host uses web/embed.js (handshake, auto-height, xAPI statements as
// DOM events), or nothing but a message listener with origin=, or the H5P resizer protocol, or a
// sandboxed iframe without allow-same-origin. Host pages run under a strict CSP of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { startSite, openApp, waitForState, waitForSignal, appState as appStateOf, launchBrowser, SITE_DIR, ENGINE, skipStep,
         expectDownload, freePort, testPages, screenshot } from './harness.mjs';
import { serve, securityHeaders } from '../../scripts/serve.mjs';

const browser = await launchBrowser();
const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-host-'));
const host = await serve(hostDir, { headers: {} });   // headers set per page below
const hostOrigin = `http://localhost:${host.port}`;
const quiz = await startSite({ frameAncestors: hostOrigin });
const quizOrigin = `http://127.0.0.1:${quiz.port}`;
// A sandboxed iframe without allow-same-origin has an opaque origin: its quiz server is set up as
// docs/embedding.md (Sandboxed iframes) says, from the commands and headers written there: every
// request is cross-origin (Access-Control-Allow-Origin: *), and the server's origin is named next
// to 'self' in its header and in the page's <meta> policy (WebKit matches 'self' against the
// opaque origin). Its address must be known before the site copy and the headers are written.
const sandboxPort = await freePort();
const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
const embeddingDocs = fs.readFileSync(path.resolve('docs/embedding.md'), 'utf8');
const sandboxDocs = {
  headers: embeddingDocs.match(/<!-- tested: sandbox headers -->\n```\n([\s\S]*?)```/)[1],
  command: embeddingDocs.match(/<!-- tested: sandbox site -->\n```sh\n([\s\S]*?)\n```/)[1],
};
const forSandbox = (text) => text.replaceAll('https://quiz.example', sandboxOrigin).replaceAll('https://lms.example', hostOrigin);
const sandboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-sandbox-site-'));
fs.cpSync(SITE_DIR, sandboxDir, { recursive: true, dereference: true });
const [script, ...args] = forSandbox(sandboxDocs.command).replace('build/web/site', sandboxDir).split(/\s+/);
execFileSync('bash', [script, ...args], { stdio: 'pipe' });
const sandboxHeaders = Object.fromEntries(forSandbox(sandboxDocs.headers).trim().split('\n')
  .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
const sandboxQuiz = await startSite({ port: sandboxPort, dir: sandboxDir, headers: sandboxHeaders });
test.after(async () => {
  await browser.close(); await host.close(); await quiz.close(); await sandboxQuiz.close();
  fs.rmSync(hostDir, { recursive: true, force: true });
  fs.rmSync(sandboxDir, { recursive: true, force: true });
});

// The host pages' own policy: scripts from themselves and the quiz's server, frames from the quiz.
host.server.removeAllListeners('request');
const hostCsp = ["default-src 'self'", `script-src 'self' ${quizOrigin} ${sandboxOrigin}`,
                 `frame-src ${quizOrigin} ${sandboxOrigin}`, "style-src 'self'", "base-uri 'none'"].join('; ');
// Pages with inline script and style, as an LMS page with the docs' snippet pasted in would be.
const relaxedPages = new Set();
const relaxedCsp = hostCsp.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
host.server.on('request', (req, res) => {
  const urlPath = new URL(req.url, 'http://x').pathname;
  const name = path.basename(urlPath);
  if (name === 'favicon.ico') { res.writeHead(204).end(); return; }   // the browser asks for it
  const csp = relaxedPages.has(name) ? relaxedCsp : hostCsp;
  if (testPages(hostDir, { 'Content-Security-Policy': csp })(req, res, urlPath)) return;   // WebKit: the host's console too
  const file = path.join(hostDir, name);
  if (!fs.existsSync(file)) { res.writeHead(404).end(); return; }
  const type = file.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
  res.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': csp, 'Cache-Control': 'no-cache' });
  res.end(fs.readFileSync(file));
});

// What the host saw: DOM events from embed.js, and every raw learner message.
fs.writeFileSync(path.join(hostDir, 'record.js'), `
window.statements = []; window.heights = []; window.learnerMessages = [];
document.addEventListener('imquiz:xapi', function (e) { statements.push(e.detail.statement); });
document.addEventListener('imquiz:height', function (e) { heights.push(e.detail.height); });
window.addEventListener('message', function (e) {
  if (e.data && e.data.type === 'imquiz:xapi') learnerMessages.push({ origin: e.origin, statement: e.data.statement });
});
// Resolves once every message the quiz posted before now has arrived: messages from one window
// arrive in order, and the quiz answers an H5P "ready" with "hello".
window.flushQuiz = function () {
  var iframe = document.getElementById('quiz');
  return new Promise(function (resolve) {
    window.addEventListener('message', function answered(e) {
      if (e.source !== iframe.contentWindow || !e.data || e.data.context !== 'h5p' || e.data.action !== 'hello') return;
      window.removeEventListener('message', answered);
      resolve();
    });
    iframe.contentWindow.postMessage({ context: 'h5p', action: 'ready' }, '*');
  });
};
`);

// A minimal host side of the H5P resizer protocol, written from its description: the iframe says
// hello, the host answers hello; the iframe sends prepareResize {scrollHeight, clientHeight}, the
// host resets the height to clientHeight and answers resizePrepared; the iframe sends resize
// {scrollHeight} and the host sets the height to it. The host says ready to iframes already there,
// and resize when its own window changes size.
fs.writeFileSync(path.join(hostDir, 'h5p-host.js'), `
(function () {
  function iframeOf(source) {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === source) return frames[i];
    return null;
  }
  var known = [];
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.context !== 'h5p') return;
    var iframe = iframeOf(event.source);
    if (!iframe) return;
    function respond(action, extra) {
      var message = extra || {};
      message.context = 'h5p'; message.action = action;
      event.source.postMessage(message, event.origin);
    }
    if (data.action === 'hello') {
      iframe.style.width = '100%';
      if (known.indexOf(iframe) < 0) known.push(iframe);
      respond('hello');
    } else if (data.action === 'prepareResize') {
      if (iframe.clientHeight !== data.scrollHeight || data.scrollHeight !== data.clientHeight) {
        iframe.style.height = data.clientHeight + 'px';
        respond('resizePrepared');
      }
    } else if (data.action === 'resize') {
      iframe.style.height = data.scrollHeight + 'px';
    }
  });
  window.addEventListener('resize', function () {
    known.forEach(function (iframe) {
      if (iframe.contentWindow) iframe.contentWindow.postMessage({ context: 'h5p', action: 'resize' }, '*');
    });
  });
  var frames = document.getElementsByTagName('iframe');
  for (var i = 0; i < frames.length; i++) frames[i].contentWindow.postMessage({ context: 'h5p', action: 'ready' }, '*');
})();
`);

function hostPage(name, { src, embedJs = true, h5p = false, sandbox = null }) {
  const attributes = [`id="quiz"`, `data-imquiz`, `title="Quiz"`, `src="${src}"`];
  if (sandbox !== null) attributes.push(`sandbox="${sandbox}"`);
  const scripts = ['<script src="record.js"></script>'];
  if (embedJs) scripts.push(`<script src="${new URL('embed.js', src).href}" async></script>`);
  if (h5p) scripts.push('<script src="h5p-host.js"></script>');
  fs.writeFileSync(path.join(hostDir, `${name}.html`), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course page</title></head>
<body><h1>Week 3</h1><p>Take the quiz below.</p>
<iframe ${attributes.join(' ')}></iframe>
<p>After the quiz.</p>
${scripts.join('\n')}
</body></html>`);
  return `${hostOrigin}/${name}.html`;
}

const quizUrl = (origin, extra = '') => `${origin}/?quiz=data-parallelism&embed=1&lang=en${extra}`;
const bank = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'quizzes', 'data-parallelism.json'), 'utf8'));
const correctChoice = (id) => bank.questions.find((q) => q.id === id).choices.find((c) => c.correct).id;
const wrongChoice = (id) => bank.questions.find((q) => q.id === id).choices.find((c) => !c.correct).id;

// Opens a host page and returns it with the quiz's frame once the quiz drew.
async function openHost(url) {
  const app = await openApp(url, { browser, waitFor: null });
  const frame = await (await app.page.waitForSelector('#quiz')).contentFrame();
  await waitForSignal(frame, 'first-frame');
  return { ...app, frame };
}

const act = (frame, action) => frame.evaluate((a) => window.ImQuizHost.act(a), action);
// The iframe's viewport (its border, 2px by default, is outside it).
const iframeHeight = (page) => page.evaluate(() => document.getElementById('quiz').clientHeight);
const contentHeight = (frame) => frame.evaluate(() => window.ImQuizHost.contentHeight());

// Waits until the iframe is as tall as the quiz's content says; returns that height.
async function waitForAutoHeight(app, { not = null } = {}) {
  const deadline = Date.now() + 15000;
  for (;;) {
    const [outer, inner] = [await iframeHeight(app.page), await contentHeight(app.frame)];
    if (inner > 0 && outer === inner && outer !== not) return outer;
    if (Date.now() > deadline) throw new Error(`iframe ${outer}px, content ${inner}px (not ${not})`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

// Auto-height means nothing is cut off: every control the quiz drew is inside the iframe, once the
// iframe followed the content: a control below the iframe fails only if it stays there.
async function assertContentFits(app) {
  const deadline = Date.now() + 15000;
  for (;;) {
    const height = await iframeHeight(app.page);
    const { items } = await waitForState(app.frame, (s) => s.items.length > 0);
    const settled = height === await contentHeight(app.frame);
    const lowest = Math.max(...items.map((item) => item.y + item.h));
    if (lowest <= height) return;
    if (Date.now() > deadline) {
      assert.fail(`a control ends at ${lowest}px, below the ${height}px iframe${settled ? '' : ' (content height still changing)'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Clicks a control the quiz drew, with the mouse, once the layout and the iframe height settled.
async function clickInFrame(app, id) {
  let previous = null;
  for (let i = 0; ; i++) {
    const state = await waitForState(app.frame, (s, wanted) => s.items.some((item) => item.id === wanted), id);
    const item = state.items.find((it) => it.id === id);
    const key = `${item.x},${item.y},${item.w},${item.h},${await iframeHeight(app.page)},${await contentHeight(app.frame)}`;
    if (key === previous) break;
    if (i > 50) throw new Error(`${id} did not settle`);
    previous = key;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const item = (await appStateOf(app.frame)).items.find((it) => it.id === id);
  const top = (await (await app.page.$('#quiz')).boundingBox()).y;
  await app.page.evaluate((y) => window.scrollBy(0, y), top + item.y - 100);
  const box = await (await app.page.$('#quiz')).boundingBox();
  await app.page.mouse.click(box.x + item.x + item.w / 2, box.y + item.y + Math.min(item.h / 2, 20));
}

// Answers every question (wrong at the 1-based positions in `wrongAt`); returns what the quiz
// showed for each, in order, and the results.
async function playInFrame(frame, wrongAt = []) {
  const answered = [];
  for (;;) {
    const state = await waitForState(frame, (s) => s.screen === 'results' || (s.question && !s.question.feedback));
    if (state.screen === 'results') return { answered, results: state.results };
    const { id, index } = state.question;
    const choice = wrongAt.includes(index) ? wrongChoice(id) : correctChoice(id);
    await act(frame, { type: 'select', choice });
    await act(frame, { type: 'check' });
    const checked = await waitForState(frame, (s, i) => s.question && s.question.index === i && s.question.feedback, index);
    answered.push({ id, choice, correct: checked.question.feedback.correct });
    await act(frame, { type: 'next' });
  }
}

const VERB = 'http://adlnet.gov/expapi/verbs/';
const DURATION = /^PT\d+(\.\d+)?S$/;

// A third-party check of the xAPI specification (@learninglocker/xapi-validation), on each
// statement with the actor a host adds (the quiz knows no learner: docs/embedding.md).
const validateStatement = createRequire(import.meta.url)('@learninglocker/xapi-validation').default;

function checkStatements(statements, answered, results) {
  for (const statement of statements) {
    const warnings = validateStatement({ actor: { objectType: 'Agent', mbox: 'mailto:learner@example.com' }, ...statement });
    assert.deepEqual(warnings.map((w) => `${w.path.join('.')}: ${w.name}`), [], `valid xAPI: ${JSON.stringify(statement)}`);
  }
  const verbs = statements.map((s) => s.verb.id.slice(VERB.length));
  assert.deepEqual(verbs, ['attempted', ...answered.map(() => 'answered'), 'completed', results.passed ? 'passed' : 'failed']);
  for (const statement of statements) {
    assert.ok(statement.verb.id.startsWith(VERB));
    assert.ok(!Number.isNaN(Date.parse(statement.timestamp)), `timestamp ${statement.timestamp}`);
    assert.ok(statement.object.id.startsWith('urn:imquiz:data-parallelism'));
  }
  assert.equal(statements[0].object.id, 'urn:imquiz:data-parallelism');
  statements.slice(1, 1 + answered.length).forEach((statement, i) => {
    const expected = answered[i];
    assert.equal(statement.object.id, `urn:imquiz:data-parallelism:${expected.id}`);
    assert.equal(statement.object.definition.interactionType, 'choice');
    assert.equal(statement.result.success, expected.correct, `success of ${expected.id}`);
    assert.equal(statement.result.response, expected.choice, `response of ${expected.id}`);
    assert.match(statement.result.duration, DURATION);
    assert.equal(statement.result.score.scaled, expected.correct ? 1 : 0);
    assert.equal(statement.context.contextActivities.parent[0].id, 'urn:imquiz:data-parallelism');
  });
  const completed = statements[1 + answered.length];
  assert.equal(completed.result.completion, true);
  assert.equal(completed.result.success, results.passed);
  assert.match(completed.result.duration, DURATION);
  assert.equal(completed.result.score.raw, results.score);
  assert.equal(completed.result.score.max, results.maxScore);
  assert.equal(statements.at(-1).result.success, results.passed);
}

test('embed.js: the iframe follows the content height and the host gets xAPI statements as DOM events', async () => {
  const app = await openHost(hostPage('handshake', { src: quizUrl(quizOrigin) }));
  await waitForState(app.frame, (s) => s.screen === 'question' && s.question);
  const first = await waitForAutoHeight(app);
  assert.notEqual(first, 150, 'not the default iframe height');

  await assertContentFits(app);
  await act(app.frame, { type: 'select', choice: (await appStateOf(app.frame)).question.choices[0].id });
  await act(app.frame, { type: 'check' });
  await waitForState(app.frame, (s) => s.question.feedback);
  const withFeedback = await waitForAutoHeight(app, { not: first });
  assert.ok(withFeedback > first, 'the explanation made the content taller, and the iframe with it');
  await assertContentFits(app);
  assert.ok(await app.page.evaluate((h) => window.heights.includes(h), withFeedback), 'imquiz:height events');
  await act(app.frame, { type: 'start-over', quiz: 'data-parallelism' });

  const { answered, results } = await playInFrame(app.frame, [2, 6]);
  assert.equal(results.percent, 75);
  await app.page.evaluate(() => window.flushQuiz());
  const statements = (await app.page.evaluate(() => window.statements)).slice(2);   // after the start over
  checkStatements(statements, answered, results);
  const raw = await app.page.evaluate(() => window.learnerMessages);
  assert.ok(raw.every((m) => m.origin === quizOrigin));
  app.expectNoErrors();
  await app.close();
});

test('origin= names this host: learner messages arrive without embed.js', async () => {
  const app = await openHost(hostPage('allowed', { src: quizUrl(quizOrigin, `&origin=${encodeURIComponent(hostOrigin)}`),
                                                   embedJs: false }));
  const { answered, results } = await playInFrame(app.frame);
  await app.page.waitForFunction((n) => window.learnerMessages.length === n, answered.length + 3);
  checkStatements((await app.page.evaluate(() => window.learnerMessages)).map((m) => m.statement), answered, results);
  app.expectNoErrors();
  await app.close();
});

test('a host on an origin origin= does not allow gets heights but no learner data', async () => {
  const app = await openHost(hostPage('denied', { src: quizUrl(quizOrigin, '&origin=https://lms.example') }));
  const first = await waitForAutoHeight(app);
  await playInFrame(app.frame, [1]);
  await waitForAutoHeight(app, { not: first });
  await app.page.evaluate(() => window.flushQuiz());   // nothing is still on its way
  assert.deepEqual(await app.page.evaluate(() => window.learnerMessages), []);
  assert.deepEqual(await app.page.evaluate(() => window.statements), []);
  app.expectNoErrors();   // and no "target origin does not match" errors in the quiz's console
  await app.close();
});

test('H5P resizer protocol: a host speaking it sizes the iframe', async () => {
  const app = await openHost(hostPage('h5p', { src: quizUrl(quizOrigin), embedJs: false, h5p: true }));
  await waitForState(app.frame, (s) => s.screen === 'question' && s.question);
  const first = await waitForAutoHeight(app);
  assert.notEqual(first, 150);
  assert.equal(await app.page.evaluate(() => document.getElementById('quiz').style.width), '100%');
  await assertContentFits(app);
  await playInFrame(app.frame);
  await waitForAutoHeight(app, { not: first });
  await assertContentFits(app);
  // The host window changes size: the host says resize, the quiz measures again.
  await app.page.setViewportSize({ width: 700, height: 700 });
  await waitForAutoHeight(app);
  assert.deepEqual(await app.page.evaluate(() => window.learnerMessages), [], 'H5P messages carry no learner data');
  app.expectNoErrors();
  await app.close();
});

// The documented headers are the recommended ones with the origin named: nothing else differs.
test('docs/embedding.md\'s sandbox headers are the recommended policy with the quiz\'s origin named', () => {
  const documented = Object.fromEntries(sandboxDocs.headers.trim().split('\n').map((line) => line.split(/: (.*)/).slice(0, 2)));
  assert.deepEqual(documented, { ...securityHeaders({ frameAncestors: 'https://lms.example', origin: 'https://quiz.example' }),
                                 'Access-Control-Allow-Origin': '*' });
  const page = fs.readFileSync(path.join(sandboxDir, 'index.html'), 'utf8');
  const policy = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/)[1];
  for (const directive of ['default-src', 'script-src', 'style-src', 'img-src', 'font-src', 'connect-src', 'worker-src']) {
    assert.ok(policy.includes(`${directive} 'self' ${sandboxOrigin}`), `the page's ${directive} names ${sandboxOrigin}: ${policy}`);
  }
});

test('sandboxed iframe without allow-same-origin: storage refused, plays in memory, says so, exports', async (t) => {
  const app = await openHost(hostPage('sandboxed', { src: quizUrl(sandboxOrigin),
                                                     sandbox: 'allow-scripts allow-downloads' }));
  let state = await waitForState(app.frame, (s) => s.screen === 'question' && s.question);
  assert.equal(await app.frame.evaluate(() => window.origin), 'null', 'really an opaque origin');
  assert.equal(state.storagePersistent, false);
  assert.match(state.notice, /does not let ImQuiz save progress/);
  assert.equal(await app.frame.evaluate(() => window.ImQuizHost.storage.problem()), 'SecurityError');
  await waitForAutoHeight(app);
  await screenshot(app.page, 'embed-sandboxed-question');

  const { answered, results } = await playInFrame(app.frame, [8]);
  assert.equal(results.percent, 87.5);
  state = await waitForState(app.frame, (s) => s.screen === 'results');
  assert.equal(state.banks[0].attempts, 1, 'kept in memory');
  // embed.js talks to an opaque-origin quiz too: its events carry origin "null".
  await app.page.waitForFunction((n) => window.statements.length === n, answered.length + 3);
  checkStatements(await app.page.evaluate(() => window.statements), answered, results);

  await act(app.frame, { type: 'settings' });
  await waitForState(app.frame, (s) => s.screen === 'settings');
  // A learner's click on Export inside the iframe (a download needs a user gesture there).
  const download = await expectDownload(t, app.page, () => clickInFrame(app, 'button:export'), { frame: app.frame });
  const exported = JSON.parse(download.text);
  assert.equal(exported.records[0].bankId, 'data-parallelism');
  assert.equal(exported.records[0].bestPercent, 87.5);
  app.expectNoErrors();
  await app.close();
});

test('the snippet in docs/embedding.md works as written', async () => {
  const docs = fs.readFileSync(path.resolve('docs/embedding.md'), 'utf8');
  const written = docs.match(/<!-- tested: embed snippet -->\n```html\n([\s\S]*?)```/)[1];
  // The README shows the first part of the same snippet.
  const readme = fs.readFileSync(path.resolve('README.md'), 'utf8').split('## Embedding')[1].match(/```html\n([\s\S]*?)```/)[1];
  assert.ok(written.startsWith(readme), 'README\'s embedding snippet is the start of the tested one');
  const snippet = written
    .replaceAll('https://quiz.example/imquiz/', `${quizOrigin}/`).replaceAll('https://lms.example', hostOrigin);
  fs.writeFileSync(path.join(hostDir, 'docs-snippet.html'),
                   `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head><body>\n${snippet}</body></html>`);
  relaxedPages.add('docs-snippet.html');
  const app = await openApp(`${hostOrigin}/docs-snippet.html`, { browser, waitFor: null });
  const iframe = await app.page.waitForSelector('iframe[data-imquiz]');
  await iframe.evaluate((element) => { element.id = 'quiz'; });   // for the helpers above
  const frame = await iframe.contentFrame();
  await waitForSignal(frame, 'first-frame');
  // As the other tests do: the first frames report ImGui's content size before it was measured
  // (36 px, seen once in WebKit under load), so the height is read once the question is there.
  await waitForState(frame, (s) => s.screen === 'question' && s.question);
  const page = { ...app, frame };
  const first = await waitForAutoHeight(page);
  assert.ok(first > 300, `auto-height ${first}px`);
  const { answered, results } = await playInFrame(frame, [3]);
  await page.page.waitForFunction((n) => window.statements.length === n, answered.length + 3);
  checkStatements(await app.page.evaluate(() => window.statements), answered, results);
  app.expectNoErrors();
  await app.close();
});
