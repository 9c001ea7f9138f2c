// scripts/check-math.mjs on banks of broken and hostile TeX: each formula's problem is reported with
// MathJax's message and the text's JSON path, hostile ones (a \def loop, 10,000 nested braces,
// 10,000 \frac, huge \rule and \hspace sizes) within the limits, quickly, never a hang or a crash;
// --write keeps what was typeset beside the bank, named in its catalog entry (web/rich.js reads it).
//   node tests/math/check-math.test.mjs --quizc build/native/src/tools/quizc
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const quizcAt = process.argv.indexOf('--quizc');
const quizc = path.resolve(quizcAt >= 0 ? process.argv[quizcAt + 1] : 'build/native/src/tools/quizc');
const script = new URL('../../scripts/check-math.mjs', import.meta.url).pathname;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-math-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

function bank(prompts, id = 'tex') {
  return JSON.stringify({
    format: 'imquiz-bank', version: 1, id, textFormat: 'markdown', title: { en: 'TeX' },
    languages: ['en'], defaultLanguage: 'en',
    questions: prompts.map((prompt, i) => ({ id: 'q' + i, type: 'true_false', prompt: { en: prompt }, answer: true })),
  });
}
function run(name, prompts, options = []) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bank(prompts, path.basename(name, '.json')));
  const started = Date.now();
  const result = spawnSync('node', [script, '--quizc', quizc, ...options, file], { encoding: 'utf8', cwd: dir, timeout: 120000 });
  return { ...result, ms: Date.now() - started, lines: result.stdout.split('\n').filter(Boolean).map((l) => l.replace(file, name)) };
}

test('good TeX passes', () => {
  const r = run('good.json', ['$\\frac{p-1}{m+p-1}$, $\\alpha_i^2$, $$\\sum_{i=1}^n \\sqrt{x_i} \\le \\text{all}$$ and $\\begin{pmatrix} a & b \\end{pmatrix}$']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.lines, []);
  assert.match(r.stderr, /check-math: 4 formulas checked, 0 errors/);
});

test('TeX errors: MathJax\'s message and the text\'s path', () => {
  const r = run('errors.json', ['Fine $x$ then $\\fracc{1}{2}$', 'A brace: $\\frac{1}{2$', 'Display: $$\\left( x$$']);
  assert.equal(r.status, 1);
  assert.deepEqual(r.lines, [
    'errors.json:questions[0].prompt.en: error: TeX error in "\\fracc{1}{2}": Undefined control sequence \\fracc',
    'errors.json:questions[1].prompt.en: error: TeX error in "\\frac{1}{2": Missing close brace',
    'errors.json:questions[2].prompt.en: error: TeX error in "\\left( x": Extra \\left or missing \\right',
  ]);
});

test('hostile TeX is refused within limits, quickly', () => {
  const r = run('hostile.json', [
    '$\\def\\a{\\a}\\a$',
    '$' + '{'.repeat(10000) + 'x' + '}'.repeat(10000) + '$',
    '$' + '{'.repeat(41) + 'x' + '}'.repeat(41) + '$',
    '$' + '\\frac{1}{2}'.repeat(10000) + '$',
    '$\\rule{100000em}{100000em}$',
    '$\\hspace{1000000em}x$',
    '$\\sqrt' + '{\\sqrt'.repeat(30) + '{x' + '}'.repeat(31) + '$',
  ]);
  assert.equal(r.status, 1);
  const messages = r.lines.map((l) => l.replace(/^hostile\.json:(questions\[\d\])\.prompt\.en: error: TeX error in ".*": /, '$1: '));
  assert.deepEqual(messages, [
    'questions[0]: Undefined control sequence \\def',
    'questions[1]: formula too long: 20001 characters (the limit is 2000)',
    'questions[2]: formula nested too deeply (more than 40 levels)',
    'questions[3]: formula too long: 110000 characters (the limit is 2000)',
    'questions[4]: formula too large to draw: 226244 x 226244 ex (the limit is 1200 x 120)',
    'questions[5]: formula too large to draw: 2262445 x 1 ex (the limit is 1200 x 120)',
  ]);
  assert.ok(r.ms < 20000, `took ${r.ms} ms`);
});

test('--write keeps the typeset formulas beside the bank and names them in its catalog entry; a bank without any loses them', () => {
  const catalog = path.join(dir, 'index.json');
  fs.writeFileSync(catalog, JSON.stringify({ format: 'imquiz-catalog', version: 1,
    banks: [{ id: 'other', file: 'other.json' }, { id: 'kept', file: 'kept.json' }] }, null, 2) + '\n');
  const r = run('kept.json', ['$\\frac{1}{p}$ twice: $\\frac{1}{p}$, and $$\\sum_i t_i$$', 'An error: $\\fracc{1}{2}$'],
                ['--write', '--catalog', catalog]);
  assert.equal(r.status, 1, 'the TeX error is still reported');
  const written = JSON.parse(fs.readFileSync(path.join(dir, 'kept.formulas.json'), 'utf8'));
  assert.equal(written.format, 'imquiz-formulas');
  assert.equal(written.version, 1);
  assert.match(written.mathjax, /^\d+\.\d+\.\d+$/);
  // One entry per formula, in the order the bank shows them, as the page's worker answers them.
  assert.deepEqual(written.formulas.map((f) => [f.tex, f.display]),
                   [['\\frac{1}{p}', false], ['\\sum_i t_i', true], ['\\fracc{1}{2}', false]]);
  const [fraction, sum, error] = written.formulas;
  assert.match(fraction.encoded, /^ok\n[0-9.]+\n[0-9.]+\n-?[0-9.]+\n[-0-9. ]+\n<g /);
  assert.match(fraction.mathml, /^<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">\s*<mfrac>/);
  assert.match(sum.mathml, /display="block"/);
  assert.equal(error.encoded, 'error\nUndefined control sequence \\fracc');
  let entries = JSON.parse(fs.readFileSync(catalog, 'utf8')).banks;
  assert.deepEqual(entries, [{ id: 'other', file: 'other.json' }, { id: 'kept', file: 'kept.json', formulas: 'kept.formulas.json' }]);
  // quizc checks the catalog's file against its bank: complete; then a formula edited since.
  fs.writeFileSync(path.join(dir, 'other.json'), bank(['No math.'], 'other'));
  const validate = () => spawnSync(quizc, ['validate', catalog], { encoding: 'utf8', cwd: dir });
  let checked = validate();
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);   // quizc does not check TeX
  assert.doesNotMatch(checked.stdout, /formulas/);
  const typeset = fs.readFileSync(path.join(dir, 'kept.formulas.json'), 'utf8');
  fs.writeFileSync(path.join(dir, 'kept.formulas.json'), typeset.replace('"tex":"\\\\sum_i t_i"', '"tex":"\\\\sum_j t_j"'));
  checked = validate();
  assert.match(checked.stdout, /index\.json:banks\[1\]\.formulas: warning: 1 of the bank's formulas is not in ".*kept\.formulas\.json" \(the first: "\\sum_i t_i"\): the page loads MathJax for them; run scripts\/check-math\.mjs --write again/);
  fs.rmSync(path.join(dir, 'kept.formulas.json'));
  checked = validate();
  assert.match(checked.stdout, /index\.json:banks\[1\]\.formulas: warning: cannot read ".*kept\.formulas\.json": the page loads MathJax/);
  fs.writeFileSync(path.join(dir, 'kept.formulas.json'), typeset);
  // The bank loses its formulas: the file goes, and so does its name in the catalog.
  const again = run('kept.json', ['No math now.'], ['--write', '--catalog', catalog]);
  assert.equal(again.status, 0, again.stderr);
  assert.ok(!fs.existsSync(path.join(dir, 'kept.formulas.json')));
  entries = JSON.parse(fs.readFileSync(catalog, 'utf8')).banks;
  assert.deepEqual(entries, [{ id: 'other', file: 'other.json' }, { id: 'kept', file: 'kept.json' }]);
});
