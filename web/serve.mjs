// Serves web/dist as a school's web server should (the measure of docs/performance.md):
// every text compressed (gzip; the engine is packed already), the files named by their
// content kept by browsers for a year, the pages and the service worker checked on every
// visit.
// Usage: node web/serve.mjs [PORT]   (then open http://127.0.0.1:PORT/)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('./dist/', import.meta.url).pathname;
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};
// name.HASH.ext, as web/build.sh names them.
const named = /\.[0-9a-f]{12}\.[a-z]+$/;
// Each file compressed once (the engine takes a second at level 9).
const compressed = new Map();

createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
  const file = join(root, path.endsWith('/') ? path + 'index.html' : path);
  if (!file.startsWith(root)) return response.writeHead(404).end();
  try {
    let body = await readFile(file);
    const headers = {
      'content-type': types[extname(file)] || 'application/octet-stream',
      'cache-control': named.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    headers.vary = 'accept-encoding';
    // The engine is stored packed already (web/build.sh).
    if (extname(file) !== '.lzma' && /\bgzip\b/.test(request.headers['accept-encoding'] || '')) {
      if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: 9 }));
      body = compressed.get(file);
      headers['content-encoding'] = 'gzip';
    }
    response.writeHead(200, headers).end(body);
  } catch {
    response.writeHead(404).end();
  }
}).listen(Number(process.argv[2] || 8000), '127.0.0.1');
