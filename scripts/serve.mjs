#!/usr/bin/env node
// A small static server for the assembled site, with the headers we recommend for deployment
// (CSP with 'wasm-unsafe-eval', nosniff) and precompressed .br/.gz files when the client accepts
// them. Used by `scripts/run` and by the browser tests (which add fault injection).
//   node scripts/serve.mjs SITE_DIR [--port 8000] [--host 127.0.0.1]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.webp': 'image/webp', '.webmanifest': 'application/manifest+json',
  '.map': 'application/json', '.txt': 'text/plain; charset=utf-8',
};

// The policy the deploy docs give (README, Deploy). `frameAncestors` limits who may embed. No
// manifest-src: default-src 'self' already covers the manifest, and WebKit does not know the
// directive and logs an error about it on every load. `origin`, the server's own, is named next to
// every 'self' for sandboxed iframes without allow-same-origin: WebKit matches 'self' there against
// the document's opaque origin, which matches nothing (docs/embedding.md, Sandboxed iframes).
export function securityHeaders({ frameAncestors = '*', origin = null } = {}) {
  const self = origin ? `'self' ${origin}` : "'self'";
  return {
    'Content-Security-Policy': [
      `default-src ${self}`, `script-src ${self} 'wasm-unsafe-eval'`, `style-src ${self}`,
      `img-src ${self} data: blob:`, `font-src ${self}`, `connect-src ${self}`, `worker-src ${self}`,
      `frame-ancestors ${frameAncestors}`, "base-uri 'none'", "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}

// Starts a server; `intercept(req, res, urlPath)` may answer a request itself (fault injection)
// by returning true. Resolves to { port, url, close() }.
export function serve(siteDir, { port = 0, host = '127.0.0.1', headers = securityHeaders(), intercept = null,
                                 log = false } = {}) {
  const root = path.resolve(siteDir);
  const refuse = (res, status, text) => res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(text);
  const server = http.createServer((req, res) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch (error) {   // a malformed % escape (URIError): the client's mistake, not a reason to stop serving
      refuse(res, 400, 'bad request: malformed % escape in the URL');
      return;
    }
    if (log) console.log(req.method, urlPath);
    if (intercept && intercept(req, res, urlPath)) return;
    // A NUL byte makes fs throw synchronously, out of this handler.
    if (urlPath.includes('\0')) { refuse(res, 400, 'bad request: NUL in the path'); return; }
    let file = path.resolve(root, '.' + path.sep + urlPath);
    // Inside the site folder itself, by path segments: `<root>-secret` starts with the string
    // `<root>` but is a sibling folder.
    const inside = path.relative(root, file);
    if (inside === '..' || inside.startsWith('..' + path.sep) || path.isAbsolute(inside)) {
      refuse(res, 403, 'forbidden');
      return;
    }
    if (urlPath.endsWith('/')) file = path.join(file, 'index.html');
    fs.stat(file, (error, stat) => {
      if (error || !stat.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain', ...headers }).end('not found');
        return;
      }
      const type = TYPES[path.extname(file)] || 'application/octet-stream';
      const accept = String(req.headers['accept-encoding'] || '');
      let body = file, encoding = null;
      if (/\bbr\b/.test(accept) && fs.existsSync(file + '.br')) { body = file + '.br'; encoding = 'br'; }
      else if (/\bgzip\b/.test(accept) && fs.existsSync(file + '.gz')) { body = file + '.gz'; encoding = 'gzip'; }
      const out = { 'Content-Type': type, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding', ...headers };
      if (encoding) out['Content-Encoding'] = encoding;
      out['Content-Length'] = fs.statSync(body).size;
      res.writeHead(200, out);
      if (req.method === 'HEAD') { res.end(); return; }
      fs.createReadStream(body).pipe(res);
    });
  });
  const sockets = new Set();
  server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolve({
        port: actual, url: `http://${host}:${actual}/`, server,
        close: () => new Promise((done) => { for (const s of sockets) s.destroy(); server.close(() => done()); }),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
  const site = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  if (!site) { console.error('usage: serve.mjs SITE_DIR [--port 8000] [--host 127.0.0.1]'); process.exit(2); }
  const { url } = await serve(site, { port: Number(option('--port', 8000)), host: option('--host', '127.0.0.1') });
  console.log(`ImQuiz is served at ${url}  (Ctrl+C stops)`);
}
