// The bad-bank corpus (manifest.json): committed files in cases/, and the big ones built at test
// time from their parts (never committed: 50 MB, 80 MB...). Shared by run-corpus.mjs and the
// browser fault test; tests/unit/test_bad_banks.cpp builds the same files in C++.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const CASES_DIR = path.join(CORPUS_DIR, 'cases');

export function loadManifest() {
  return JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'manifest.json'), 'utf8')).cases;
}

export const isGenerated = (entry) => Array.isArray(entry.parts);

// The bytes of a generated case: each part is `text`, or `repeat` `count` times joined by
// `separator`, with {i} in it replaced by 0, 1, 2...
export function buildGenerated(entry) {
  const chunks = [];
  for (const part of entry.parts) {
    if (part.text !== undefined) { chunks.push(Buffer.from(part.text, 'utf8')); continue; }
    const separator = part.separator || '';
    if (part.repeat.includes('{i}')) {
      const items = new Array(part.count);
      for (let i = 0; i < part.count; i++) items[i] = part.repeat.replaceAll('{i}', String(i));
      chunks.push(Buffer.from(items.join(separator), 'utf8'));
    } else if (part.count > 0) {
      const unit = Buffer.from(part.repeat + separator, 'utf8');
      const body = Buffer.alloc(unit.length * part.count - Buffer.byteLength(separator));
      for (let offset = 0; offset < body.length; offset += unit.length) unit.copy(body, offset);
      chunks.push(body);
    }
  }
  return Buffer.concat(chunks);
}

// Where the case's file is (writing a generated one into `scratchDir`), and a function that
// removes what was written.
export function materialize(entry, scratchDir) {
  if (!isGenerated(entry)) return { dir: CASES_DIR, file: `${entry.name}.json`, cleanup: () => {} };
  const file = `${entry.name}.json`;
  fs.writeFileSync(path.join(scratchDir, file), buildGenerated(entry));
  return { dir: scratchDir, file, cleanup: () => fs.rmSync(path.join(scratchDir, file), { force: true }) };
}

export function expectedOutput(entry) {
  return fs.readFileSync(path.join(CASES_DIR, `${entry.name}.expected`), 'utf8');
}
