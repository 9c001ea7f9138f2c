#!/usr/bin/env node
// Checks the TeX of Markdown banks with MathJax, the same module (src/math/imquiz_math.mjs, npm
// mathjax-full) that typesets it in the browser; `quizc validate` cannot (the engine has no TeX):
//   node scripts/check-math.mjs [--quizc PATH] FILE...
// quizc finds each bank's formulas with their paths (`quizc formulas`); each problem is printed as
// `file:path: error: TeX error in "...": message`, like quizc's, and the exit code is 1 when there
// is one. Each formula gets at most 5 seconds (MathJax runs synchronously: a hostile formula that
// got past the module's limits is stopped here, reported, and the check goes on).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let quizc = path.join(top, 'build/native/src/tools/quizc');
const at = args.indexOf('--quizc');
if (at >= 0) { quizc = args[at + 1]; args.splice(at, 2); }
if (!args.length || args.some((a) => a.startsWith('-'))) {
  console.error('usage: node scripts/check-math.mjs [--quizc PATH] FILE...');
  process.exit(2);
}
const TIME_LIMIT_MS = 5000;
const moduleUrl = new URL('../src/math/imquiz_math.mjs', import.meta.url).href;

// One worker typesets; a formula it has not answered within the limit ends it, a new one goes on.
function startWorker() {
  return new Worker(`import(${JSON.stringify(moduleUrl)}).then(() => {
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (f) => parentPort.postMessage(globalThis.ImQuizMath.typeset(f.tex, f.display).error || ''));
  });`, { eval: true });
}
let worker = startWorker();
function check(formula) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.terminate();
      worker = startWorker();
      resolve(`took longer than ${TIME_LIMIT_MS / 1000} seconds to typeset`);
    }, TIME_LIMIT_MS);
    worker.once('message', (error) => { clearTimeout(timer); resolve(error); });
    worker.postMessage(formula);
  });
}

// quizc's in_quotes (engine/diagnostics.cpp): the text in double quotes, as the app reports it.
// Control characters are written as escapes: a bank's text must not drive the terminal.
const printable = (text) => String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g,
  (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
const inQuotes = (text) => '"' + printable(text) + '"';

let errors = 0, formulas = 0;
for (const file of args) {
  let lines;
  try {
    lines = execFileSync(quizc, ['formulas', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    console.error(`check-math: quizc formulas ${file} failed: ${error.message.split('\n')[0]}`);
    errors++;
    continue;
  }
  for (const line of lines.split('\n').filter(Boolean)) {
    const formula = JSON.parse(line);
    formulas++;
    const problem = await check(formula);
    if (!problem) continue;
    errors++;
    console.log(`${printable(file)}:${formula.path}: error: TeX error in ${inQuotes(formula.tex)}: ${printable(problem)}`);
  }
}
await worker.terminate();
console.error(`check-math: ${formulas} formula${formulas === 1 ? '' : 's'} checked, ${errors} error${errors === 1 ? '' : 's'}`);
process.exit(errors ? 1 : 0);
