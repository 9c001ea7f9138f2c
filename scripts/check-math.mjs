#!/usr/bin/env node
// Typesets the TeX of Markdown banks with MathJax, the same module (src/math/imquiz_math.mjs, npm
// mathjax-full) that typesets it in the browser; `quizc validate` cannot (the engine has no TeX):
//   node scripts/check-math.mjs [--quizc PATH] [--module PATH] [--write [--catalog INDEX]] FILE...
// quizc finds each bank's formulas with their paths (`quizc formulas`; PATH may be quizc-wasm.js,
// run with node); each problem is printed as `file:path: error: TeX error in "...": message`, like
// quizc's, and the exit code is 1 when there is one. Each formula gets at most 5 seconds (MathJax
// runs synchronously: a hostile formula that got past the module's limits is stopped here,
// reported, and the check goes on).
// --write keeps what was typeset beside each bank, `x.json` -> `x.formulas.json` (a bank without
// formulas gets none, and loses a stale one), and --catalog names it in the bank's catalog entry
// ("formulas"): the page then draws those formulas without loading MathJax at all (web/rich.js;
// quizzes/README.md, Math). --module typesets with the site's bundle (imquiz-math.js, what the
// page itself would load) instead of the source module.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function option(name) {
  const at = args.indexOf(name);
  if (at < 0) return null;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
}
const quizc = option('--quizc') || path.join(top, 'build/native/src/tools/quizc');
const bundle = option('--module');
const catalogFile = option('--catalog');
const write = args.includes('--write');
if (write) args.splice(args.indexOf('--write'), 1);
if (!args.length || args.some((a) => a.startsWith('-'))) {
  console.error('usage: node scripts/check-math.mjs [--quizc PATH] [--module PATH] [--write [--catalog INDEX]] FILE...');
  process.exit(2);
}
const TIME_LIMIT_MS = 5000;
const moduleUrl = new URL('../src/math/imquiz_math.mjs', import.meta.url).href;
// The bundle is a plain script that sets globalThis.ImQuizMath: run as one, not imported.
const loadModule = bundle
  ? `require('node:vm').runInThisContext(require('node:fs').readFileSync(${JSON.stringify(path.resolve(bundle))}, 'utf8'))`
  : `await import(${JSON.stringify(moduleUrl)})`;

// One worker typesets; a formula it has not answered within the limit ends it, a new one goes on.
// Its answer is the module's: { error } or { encoded, mathml }, as the page's worker gives them.
function startWorker() {
  return new Worker(`(async () => {
    ${loadModule};
    const { parentPort } = require('node:worker_threads');
    const math = globalThis.ImQuizMath;
    parentPort.on('message', (f) => parentPort.postMessage({ error: math.typeset(f.tex, f.display).error || '',
      encoded: math.encoded(f.tex, f.display), mathml: math.mathml(f.tex, f.display), version: math.version }));
  })();`, { eval: true });
}
let worker = startWorker();
function check(formula) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.terminate();
      worker = startWorker();
      resolve({ error: `took longer than ${TIME_LIMIT_MS / 1000} seconds to typeset`, timedOut: true });
    }, TIME_LIMIT_MS);
    worker.once('message', (answer) => { clearTimeout(timer); resolve(answer); });
    worker.postMessage(formula);
  });
}

// quizc's in_quotes (engine/diagnostics.cpp): the text in double quotes, as the app reports it.
// Control characters are written as escapes: a bank's text must not drive the terminal.
const printable = (text) => String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g,
  (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
const inQuotes = (text) => '"' + printable(text) + '"';

// The typeset formulas of one bank, as web/rich.js reads them: one entry per formula (TeX errors
// included: the page shows them as MathJax would have told them), none for one that ran out of
// time (the page would try it itself).
function formulasFile(bankFile) { return bankFile.replace(/(\.json)?$/, '.formulas.json'); }
function writeFormulas(bankFile, answers) {
  const target = formulasFile(bankFile);
  if (!answers.length) { fs.rmSync(target, { force: true }); return null; }
  const file = { format: 'imquiz-formulas', version: 1, mathjax: answers[0].version,
                 formulas: answers.map(({ tex, display, encoded, mathml }) => ({ tex, display, encoded, mathml })) };
  fs.writeFileSync(target, JSON.stringify(file) + '\n');
  return target;
}

// The catalog's entries for the banks just typeset name their formulas file, or no longer do.
function nameInCatalog(written) {
  const base = path.dirname(path.resolve(catalogFile));
  const catalog = JSON.parse(fs.readFileSync(catalogFile, 'utf8'));
  const before = JSON.stringify(catalog);
  for (const entry of Array.isArray(catalog.banks) ? catalog.banks : []) {
    const bank = entry && typeof entry.file === 'string' ? path.resolve(base, entry.file) : null;
    if (!bank || !written.has(bank)) continue;
    const target = written.get(bank);
    if (target) entry.formulas = path.relative(base, target).split(path.sep).join('/');
    else delete entry.formulas;
  }
  if (JSON.stringify(catalog) !== before) fs.writeFileSync(catalogFile, JSON.stringify(catalog, null, 2) + '\n');
}

let errors = 0, formulas = 0;
const written = new Map();   // bank (absolute) -> its formulas file, or null
for (const file of args) {
  let lines;
  try {
    const command = /\.js$/.test(quizc) ? [process.execPath, [quizc, 'formulas', file]] : [quizc, ['formulas', file]];
    lines = execFileSync(...command, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    console.error(`check-math: quizc formulas ${file} failed: ${error.message.split('\n')[0]}`);
    errors++;
    continue;
  }
  const answers = [], seen = new Set();
  for (const line of lines.split('\n').filter(Boolean)) {
    const formula = JSON.parse(line);
    formulas++;
    const answer = await check(formula);
    const key = (formula.display ? 'D' : 'I') + formula.tex;
    if (!answer.timedOut && !seen.has(key)) {
      seen.add(key);
      answers.push({ ...answer, tex: formula.tex, display: formula.display });
    }
    if (!answer.error) continue;
    errors++;
    console.log(`${printable(file)}:${formula.path}: error: TeX error in ${inQuotes(formula.tex)}: ${printable(answer.error)}`);
  }
  if (write) written.set(path.resolve(file), writeFormulas(file, answers));
}
await worker.terminate();
if (write && catalogFile) nameInCatalog(written);
console.error(`check-math: ${formulas} formula${formulas === 1 ? '' : 's'} checked, ${errors} error${errors === 1 ? '' : 's'}`);
process.exit(errors ? 1 : 0);
