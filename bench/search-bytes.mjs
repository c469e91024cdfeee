#!/usr/bin/env node
// search-bytes: what a reader's browser fetches for one search query, gzip -9, on a built site.
//
// Usage: node bench/search-bytes.mjs OUT_DIR "query one" "query two" ...
//
// Loads the site's own search engine (`s/docgen/search.<hash>.js`) with a fetch that reads the
// output folder, runs each query in a fresh engine (a cold cache, as on a first search) and
// prints the files fetched (index, shards and the results' excerpt files) and their gzip -9
// size, engine included, and the query time.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const [out, ...queries] = process.argv.slice(2);
if (!out || queries.length === 0) {
  console.error('usage: node bench/search-bytes.mjs OUT_DIR QUERY...');
  process.exit(2);
}
const folder = path.join(out, 's/docgen');
const script = readdirSync(folder).find((f) => /^search\.[0-9a-f]+\.js$/.test(f));
if (!script) {
  console.error(`no search engine under ${folder}`);
  process.exit(1);
}
const engine = await import(path.resolve(folder, script));
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const engineBytes = gz(readFileSync(path.join(folder, script)));

for (const q of queries) {
  const fetched = [];
  const fetchImpl = async (url) => {
    const body = readFileSync(path.join(out, url.split('?')[0]));
    fetched.push([url, gz(body)]);
    return new Response(body, { status: 200 });
  };
  const search = engine.createSearch('/_docgen/search/index.json', fetchImpl);
  const started = performance.now();
  const { results, total } = await search.query(q, {});
  const ms = performance.now() - started;
  const data = fetched.reduce((n, [, b]) => n + b, 0);
  console.log(
    `${JSON.stringify(q)}: ${total} results, top ${results[0]?.url ?? '-'}; ` +
      `${fetched.length} files, ${(data / 1024).toFixed(1)} KB data + ${(engineBytes / 1024).toFixed(1)} KB engine ` +
      `= ${((data + engineBytes) / 1024).toFixed(1)} KB gzip; ${ms.toFixed(1)} ms`,
  );
}
