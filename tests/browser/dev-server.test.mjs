// scripts/serve.mjs (what `scripts/run` and every browser test serve the site with) against hostile
// request paths: a malformed % escape is answered 400 and the server keeps serving; nothing outside
// the site folder is served, not even a sibling folder whose name starts with the site folder's.
// Requests go over a raw socket so that the path reaches the server exactly as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';

const top = fs.mkdtempSync(path.join(os.tmpdir(), 'imquiz-serve-'));
fs.mkdirSync(path.join(top, 'site', 'quizzes'), { recursive: true });
fs.writeFileSync(path.join(top, 'site', 'index.html'), '<!doctype html><title>site</title>');
fs.writeFileSync(path.join(top, 'site', 'quizzes', 'a.json'), '{"ok":true}');
fs.writeFileSync(path.join(top, 'site', '..notes.txt'), 'a file whose name starts with two dots');
fs.mkdirSync(path.join(top, 'site-secret'));
fs.writeFileSync(path.join(top, 'site-secret', 'secret.txt'), 'SECRET');
fs.writeFileSync(path.join(top, 'outside.txt'), 'OUTSIDE');
const server = await serve(path.join(top, 'site'));
test.after(async () => { await server.close(); fs.rmSync(top, { recursive: true, force: true }); });

// Resolves with { status, body } or rejects when the connection is refused or dropped unanswered.
function rawGet(requestPath) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(`GET ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('error', reject);
    socket.on('end', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (!match) { reject(new Error(`no HTTP answer to ${requestPath}: ${JSON.stringify(text.slice(0, 80))}`)); return; }
      resolve({ status: Number(match[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

test('a malformed % escape is answered 400, and the server goes on serving', async () => {
  for (const bad of ['/%E0%A4%A', '/%', '/quizzes/%zz.json', '/%C0%80']) {
    const answer = await rawGet(bad);
    assert.equal(answer.status, 400, `${bad}: ${answer.body}`);
    assert.match(answer.body, /malformed % escape/);
  }
  const after = await rawGet('/quizzes/a.json');
  assert.equal(after.status, 200, 'still serving after the bad requests');
  assert.equal(after.body, '{"ok":true}');
});

test('a NUL byte in the path is answered 400, not thrown out of the handler', async () => {
  assert.equal((await rawGet('/index.html%00.json')).status, 400);
  assert.equal((await rawGet('/')).status, 200);
});

test('nothing outside the site folder is served: siblings with the same prefix, parents', async () => {
  for (const escape of ['/..%2fsite-secret/secret.txt', '/..%2f..%2fsite-secret/secret.txt', '/..%2foutside.txt',
                        '/%2e%2e/site-secret/secret.txt', '/quizzes/..%2f..%2fsite-secret/secret.txt',
                        '/..%5csite-secret%5csecret.txt']) {
    const answer = await rawGet(escape);
    assert.ok(answer.status === 403 || answer.status === 404, `${escape} answered ${answer.status}`);
    assert.doesNotMatch(answer.body, /SECRET|OUTSIDE/, escape);
  }
  // Path segments, not string prefixes: a file inside whose name starts with ".." is still served.
  const dots = await rawGet('/..notes.txt');
  assert.equal(dots.status, 200);
  assert.match(dots.body, /two dots/);
});
