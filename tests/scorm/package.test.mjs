// quizc package end to end, without a browser: SCORM 1.2 and 2004 packages of a site made from
// web/ and quizzes/ (plus a bank whose title is hostile markup), unzipped, their manifests checked
// by xmllint against the official schemas (tests/scorm/scorm12.xsd, scorm2004.xsd), their files
// against the manifest and the bank. The browser side is tests/browser/scorm.test.mjs.
//   node tests/scorm/package.test.mjs --quizc build/native/src/tools/quizc
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const quizc = process.argv[process.argv.indexOf('--quizc') + 1];
assert.ok(process.argv.includes('--quizc') && fs.existsSync(quizc), 'usage: package.test.mjs --quizc QUIZC');
const top = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-package-'));
test.after(() => fs.rmSync(work, { recursive: true, force: true }));

// A site as scripts/assemble-site.sh lays it out, from the sources (no build needed): the page,
// its scripts, the launch banks and their images, and one bank more.
const site = path.join(work, 'site');
fs.cpSync(path.join(top, 'web'), site, { recursive: true });
fs.mkdirSync(path.join(site, 'fonts'));
fs.writeFileSync(path.join(site, 'fonts', 'imquiz-sans.ttf'), 'font');
fs.writeFileSync(path.join(site, 'boot.js.br'), 'precompressed');   // left out of packages
fs.writeFileSync(path.join(site, 'boot.js.map'), '{}');               // left out too
fs.cpSync(path.join(top, 'quizzes'), path.join(site, 'quizzes'), { recursive: true });
fs.rmSync(path.join(site, 'quizzes', 'schema.json'));
fs.rmSync(path.join(site, 'quizzes', 'README.md'));
fs.rmSync(path.join(site, 'quizzes', 'sources'), { recursive: true, force: true });
const HOSTILE_TITLE = '</title><script>alert(1)</script> & "quotes" \'x\' ]]> <!--';
const hostile = {
  format: 'imquiz-bank', version: 1, id: 'hostile-title', title: HOSTILE_TITLE, languages: ['en'], defaultLanguage: 'en',
  settings: { passPercent: 80 },
  questions: [{ id: 'q1', type: 'true_false', prompt: 'Is this safe?', answer: true, explanation: 'It is.' }],
};
fs.writeFileSync(path.join(site, 'quizzes', 'hostile-title.json'), JSON.stringify(hostile));
const catalog = JSON.parse(fs.readFileSync(path.join(site, 'quizzes', 'index.json'), 'utf8'));
catalog.banks.push({ id: 'hostile-title', file: 'hostile-title.json' });
fs.writeFileSync(path.join(site, 'quizzes', 'index.json'), JSON.stringify(catalog));

function run(args) {
  const result = spawnSync(quizc, ['package', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Unzips with Python's zipfile (a second, independent reader of what libzip wrote).
function unzip(zip) {
  const dir = zip.replace(/\.zip$/, '');
  const result = spawnSync('python3', ['-m', 'zipfile', '-e', zip, dir], { encoding: 'utf8' });
  assert.equal(result.status, 0, `python3 -m zipfile -e ${zip}: ${result.stderr}`);
  const files = [];
  (function walk(folder, prefix) {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(folder, entry.name), prefix + entry.name + '/');
      else files.push(prefix + entry.name);
    }
  })(dir, '');
  return { dir, files: files.sort() };
}

function validate(manifest, version) {
  const schema = path.join(top, 'tests', 'scorm', version === '1.2' ? 'scorm12.xsd' : 'scorm2004.xsd');
  return spawnSync('xmllint', ['--noout', '--schema', schema, manifest], { encoding: 'utf8', cwd: path.dirname(schema) });
}

const manifestFiles = (xml) => [...xml.matchAll(/<file href="([^"]*)"\/>/g)].map((m) => m[1]).sort();
const csp = (html) => html.match(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/)[0];

for (const version of ['1.2', '2004']) {
  test(`SCORM ${version}: one bank, its images, the app and a launch page; the manifest is valid`, () => {
    const zip = path.join(work, `pipeline-${version}.zip`);
    const made = run(['--scorm', version, '--site', site, '--quiz', 'model-pipeline-parallelism', '-o', zip]);
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, new RegExp(`SCORM ${version === '1.2' ? '1\\.2' : '2004 4th edition'} package of model-pipeline-parallelism`));
    const { dir, files } = unzip(zip);
    const quizFiles = files.filter((f) => f.startsWith('quizzes/'));
    assert.deepEqual(quizFiles, ['quizzes/images/gpipe-schedule.svg', 'quizzes/index.json', 'quizzes/model-pipeline-parallelism.json'],
                     'that bank and its images only');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'quizzes/index.json'), 'utf8')).banks,
                     [{ id: 'model-pipeline-parallelism', file: 'model-pipeline-parallelism.json' }]);
    for (const needed of ['scorm.html', 'boot.js', 'lms.js', 'a11y.js', 'app.css', 'fonts/imquiz-sans.ttf', 'imsmanifest.xml'])
      assert.ok(files.includes(needed), `${needed} in the package`);
    for (const left of ['index.html', 'boot.js.br', 'boot.js.map']) assert.ok(!files.includes(left), `${left} not in the package`);

    const manifest = path.join(dir, 'imsmanifest.xml');
    const checked = validate(manifest, version);
    assert.equal(checked.status, 0, `xmllint: ${checked.stderr}`);
    assert.match(checked.stderr, /imsmanifest\.xml validates/);
    const xml = fs.readFileSync(manifest, 'utf8');
    assert.deepEqual(manifestFiles(xml), files.filter((f) => f !== 'imsmanifest.xml'), 'the manifest lists every file');
    assert.match(xml, /href="scorm\.html"/);
    if (version === '1.2') assert.match(xml, /<adlcp:masteryscore>70<\/adlcp:masteryscore>/);
    else assert.match(xml, /<imsss:minNormalizedMeasure>0\.70<\/imsss:minNormalizedMeasure>/);

    const page = fs.readFileSync(path.join(dir, 'scorm.html'), 'utf8');
    const index = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
    assert.equal(csp(page), csp(index), 'the launch page keeps the site\'s policy');
    assert.match(page, /<script src="lms\.js"><\/script>\n<script src="boot\.js"><\/script>/);
    assert.match(page, new RegExp(`<meta name="imquiz-scorm" content="${version}">`));
    assert.match(page, /<meta name="imquiz-quiz" content="model-pipeline-parallelism">/);
    assert.match(page, /<title>Model and pipeline parallelism|<title>[^<]+<\/title>/);

    // The same package again is the same bytes (fixed dates): a rebuild changes nothing in the LMS.
    const again = path.join(work, `again-${version}.zip`);
    assert.equal(run(['--scorm', version, '--site', site, '--quiz', 'model-pipeline-parallelism', '-o', again]).status, 0);
    assert.ok(fs.readFileSync(zip).equals(fs.readFileSync(again)), 'reproducible');
  });

  test(`SCORM ${version}: a bank title never becomes markup (manifest and launch page)`, () => {
    const zip = path.join(work, `hostile-${version}.zip`);
    const made = run(['--scorm', version, '--site', site, '--quiz', 'hostile-title', '-o', zip]);
    assert.equal(made.status, 0, made.stderr);
    const { dir } = unzip(zip);
    const checked = validate(path.join(dir, 'imsmanifest.xml'), version);
    assert.equal(checked.status, 0, `xmllint: ${checked.stderr}`);
    const escaped = '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;x&#39; ]]&gt; &lt;!--';
    const xml = fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8');
    assert.equal(xml.split(`<title>${escaped}</title>`).length - 1, 2, 'organization and item titles, escaped');
    if (version === '1.2') assert.match(xml, /<adlcp:masteryscore>80<\/adlcp:masteryscore>/);
    const page = fs.readFileSync(path.join(dir, 'scorm.html'), 'utf8');
    assert.ok(page.includes(`<title>${escaped}</title>`));
    assert.ok(!page.includes('<script>alert'), 'no script from the title');
    assert.equal(page.match(/<script/g).length, 2, 'lms.js and boot.js only');
  });

  test(`SCORM ${version}: --all makes one package per bank`, () => {
    const out = path.join(work, `all-${version}`);
    const made = run(['--scorm', version, '--site', site, '--all', '-o', out]);
    assert.equal(made.status, 0, made.stderr);
    assert.deepEqual(fs.readdirSync(out).sort(), ['data-parallelism.zip', 'hostile-title.zip', 'model-pipeline-parallelism.zip']);
    const { files } = unzip(path.join(out, 'data-parallelism.zip'));
    assert.deepEqual(files.filter((f) => f.startsWith('quizzes/')), ['quizzes/data-parallelism.json', 'quizzes/index.json']);
  });
}

test('wrong usage and a quiz the catalog does not list are refused, and nothing is written', () => {
  const zip = path.join(work, 'none.zip');
  let result = run(['--scorm', '1.3', '--site', site, '--quiz', 'data-parallelism', '-o', zip]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /usage: quizc package --scorm 1\.2\|2004/);
  result = run(['--scorm', '1.2', '--site', site, '--quiz', 'no-such-quiz', '-o', zip]);
  assert.equal(result.status, 1);
  assert.equal(result.stderr, 'quizc package: the site\'s catalog lists no quiz "no-such-quiz"\n');
  result = run(['--scorm', '1.2', '--site', path.join(work, 'nowhere'), '--quiz', 'data-parallelism', '-o', zip]);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /cannot read .*quizzes\/index\.json \(is --site an assembled site\?\)/);
  assert.ok(!fs.existsSync(zip));
});

test('a schema check that can fail: a manifest with a wrong scormtype does not validate', () => {
  const bad = path.join(work, 'bad-manifest.xml');
  const good = fs.readFileSync(path.join(work, 'pipeline-1.2', 'imsmanifest.xml'), 'utf8');
  fs.writeFileSync(bad, good.replace('adlcp:scormtype="sco"', 'adlcp:scormtype="lesson"'));
  const checked = validate(bad, '1.2');
  assert.notEqual(checked.status, 0);
  assert.match(checked.stderr, /scormtype.*not an element of the set/);
});
