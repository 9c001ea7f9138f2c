// The peer for the benchmark: the npm package quizdown (one JS file, Svelte, no wasm) showing the
// same launch quiz. Builds a small static page for it in a scratch folder outside the repo.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export const QUIZDOWN_VERSION = '0.4.1';

const escapeHtml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Backslash-escapes what markdown would read as formatting, then escapes HTML: quizdown reads its
// markdown from the div's innerHTML, so entities come back as entities and marked renders them.
function markdownText(text) {
  return escapeHtml(String(text).replace(/\s+/g, ' ').trim().replace(/([\\`*_[\]#|])/g, '\\$1'));
}

// A bank in ImQuiz's format (quizzes/README.md) as quizdown markdown (quizdown docs/syntax.md), in one
// language. Single choice -> ordered task list, multiple choice -> unordered; per-choice feedback and
// the explanation (on the correct choice) become quizdown's answer comments.
export function bankToQuizdown(bank, lang = 'en') {
  const text = (value) => (typeof value === 'string' ? value : value[lang] || value[bank.defaultLanguage]);
  const shuffle = !(bank.settings && bank.settings.shuffleChoices === false);
  const lines = ['---', `shuffleAnswers: ${shuffle}`, 'shuffleQuestions: false', `locale: ${lang}`, '---', ''];
  for (const question of bank.questions) {
    if (question.type !== 'single_choice' && question.type !== 'multiple_choice')
      throw new Error(`bankToQuizdown: question ${question.id} has type ${question.type}, only choice questions convert`);
    lines.push(`### ${markdownText(text(question.prompt))}`, '');
    const marker = question.type === 'single_choice' ? '1.' : '-';
    for (const choice of question.choices) {
      lines.push(`${marker} [${choice.correct ? 'x' : ' '}] ${markdownText(text(choice.text))}`);
      const comment = [choice.feedback && text(choice.feedback), choice.correct && question.explanation && text(question.explanation)]
        .filter(Boolean).join(' ');
      if (comment) lines.push(`    > ${markdownText(comment)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function precompress(file) {
  fs.writeFileSync(file + '.gz', execFileSync('gzip', ['-9', '-n', '-c', file], { maxBuffer: 1 << 30 }));
  execFileSync('brotli', ['-q', '11', '-f', '-o', file + '.br', file]);
}

// Writes peerDir/site: index.html (quizdown's documented stand-alone setup: the script in <head>,
// init on load, the quiz as markdown in a div), quizdown.js, init.js, with .gz/.br copies like
// ImQuiz's site. Returns { siteDir, firstPrompt }.
export function buildPeerSite(peerDir, bank, lang = 'en') {
  const packageDir = path.join(peerDir, 'node_modules', 'quizdown');
  const version = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
  if (version !== QUIZDOWN_VERSION) throw new Error(`quizdown ${version} installed, the benchmark pins ${QUIZDOWN_VERSION}`);
  const siteDir = path.join(peerDir, 'site');
  fs.rmSync(siteDir, { recursive: true, force: true });
  fs.mkdirSync(siteDir, { recursive: true });
  fs.copyFileSync(path.join(packageDir, 'public', 'build', 'quizdown.js'), path.join(siteDir, 'quizdown.js'));
  // An external file, not an inline script: the same CSP-friendly shape as ImQuiz's page.
  fs.writeFileSync(path.join(siteDir, 'init.js'), `quizdown.init({ locale: '${lang}' });\n`);
  const title = typeof bank.title === 'string' ? bank.title : bank.title[lang];
  fs.writeFileSync(path.join(siteDir, 'index.html'), `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} (quizdown ${version})</title>
<script src="quizdown.js"></script>
<script src="init.js"></script>
</head>
<body>
<div class="quizdown">
${bankToQuizdown(bank, lang)}
</div>
</body>
</html>
`);
  for (const name of ['index.html', 'quizdown.js', 'init.js']) precompress(path.join(siteDir, name));
  const first = bank.questions[0].prompt;
  return { siteDir, version, firstPrompt: typeof first === 'string' ? first : first[lang] };
}
