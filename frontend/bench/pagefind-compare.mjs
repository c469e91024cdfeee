#!/usr/bin/env node
// pagefind-compare: docgen's search against Pagefind on the same build of this repository's site
// and the same judged queries (test/search/judged.json).
//
// Usage (from frontend/):
//   node bench/pagefind-compare.mjs [--site BUILT_DIR] [--all-pages] [--runs N] [--verbose]
//
//   --site DIR    an already built site (default: `docgen build` of the repository into a
//                 temporary folder, with $DOCGEN_BIN or ../target/release/docgen)
//   --all-pages   Pagefind indexes every documentation/**/index.html, as a site owner would
//                 without a list; by default it indexes the pages docgen's index holds (the
//                 pages whose canonical address is their own), so both rank the same documents
//   --runs N      timed runs of the docgen build and of the Pagefind indexing (median; 3)
//   --verbose     print every query that is not answered first
//
// Pagefind (the `pagefind` devDependency) indexes the site's articles into a separate folder
// (never into the build). The folder is served over local HTTP with the Pagefind bundle under
// /pagefind/, and Chromium runs every judged query through Pagefind's JS API, as built and with
// the platform filter docgen's search box preselects emulated on Pagefind's results. docgen's
// own engine runs the same queries in Node over the same build, as test/search/judged.test.ts
// does. Then, for a few queries, each in a fresh browser context (cold cache): the requests and
// bytes (gzip -9, or the file as is when smaller: Pagefind's index files are gzip already) of
// the first query a reader types, docgen through its search box, Pagefind through its JS API
// with the data of the first 8 results (docgen's app shows 8).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const frontend = path.resolve(here, '..');
const repo = path.resolve(frontend, '..');
const docgenBin = process.env.DOCGEN_BIN || path.join(repo, 'target/release/docgen');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const pagefindBin = path.join(frontend, 'node_modules/.bin/pagefind');

/** Pagefind reads the article only: not the shell's menus, breadcrumbs, table of contents or
 * footers, nor what docgen's indexer skips in an article (the `#` link of every heading, the
 * page's own footer with its edit link, date and previous/next links). */
const PAGEFIND_OPTIONS = ['--root-selector', 'article.dg-article', '--exclude-selectors', '.dg-page-footer', '--exclude-selectors', '.dg-anchor'];
/** Results a reader sees at once in docgen's search box. */
const SHOWN = 8;
/** The results judged.test.ts ranks (its `limit`). */
const RANKED = 10;
/** Queries whose first-query cost is measured, with the page each is asked from. */
const FIRST_QUERIES = ['banner', 'interstitial android', 'bidfloor', 'intersitial'];

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const runs = Number(option('--runs') ?? 3);
const verbose = args.includes('--verbose');
const allPages = args.includes('--all-pages');

const judged = JSON.parse(readFileSync(path.join(frontend, 'test/search/judged.json'), 'utf8'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const temporary = [];
const tmp = (prefix) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
const timed = (run) => {
  const started = performance.now();
  run();
  return performance.now() - started;
};

// 1. The build: timed when this script makes it (the whole build, the search index included).
let site = option('--site');
let docgenMs = null;
if (site) site = path.resolve(site);
else {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const out = path.join(tmp('pf-compare-site-'), 'site');
    times.push(timed(() => execFileSync(docgenBin, ['build', '--quiet', '--root', repo, '--out', out], { stdio: 'inherit' })));
    site = out;
  }
  docgenMs = median(times);
}

// 2. Pagefind over the same folder, written elsewhere.
function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? htmlFiles(path.join(dir, e.name)) : e.name.endsWith('.html') ? [path.join(dir, e.name)] : []));
}
/** The pages docgen indexes: an article whose canonical address is the page's own. */
function indexedPages() {
  return htmlFiles(path.join(site, 'documentation'))
    .filter((file) => file.endsWith(`${path.sep}index.html`))
    .filter((file) => {
      const html = readFileSync(file, 'utf8');
      const route = `/${path.relative(site, path.dirname(file)).split(path.sep).join('/')}`;
      const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
      return html.includes('<article class="dg-article"') && (!canonical || new URL(canonical).pathname === route);
    })
    .map((file) => path.relative(site, file).split(path.sep).join('/'));
}
const docgenIndex = JSON.parse(readFileSync(path.join(site, '_docgen/search/index.json'), 'utf8'));
const pages = allPages ? null : indexedPages();
if (pages && pages.length !== docgenIndex.docs) console.warn(`warning: ${pages.length} pages chosen for Pagefind, docgen's index holds ${docgenIndex.docs}`);
const glob = pages ? `{${pages.join(',')}}` : 'documentation/**/index.html';
const pagefindVersion = execFileSync(pagefindBin, ['--version'], { encoding: 'utf8' }).trim().replace(/^pagefind /, '');
let pagefindDir = null;
const pagefindTimes = [];
for (let i = 0; i < runs; i++) {
  pagefindDir = path.join(tmp('pf-compare-index-'), 'pagefind');
  pagefindTimes.push(timed(() => execFileSync(pagefindBin, ['--site', site, '--output-path', pagefindDir, ...PAGEFIND_OPTIONS, '--glob', glob, '--quiet'], { stdio: 'inherit' })));
}
const pagefindMs = median(pagefindTimes);

// 3. docgen's engine over its own index, in Node, as judged.test.ts runs it.
const gz = (bytes) => Math.min(bytes.length, gzipSync(bytes, { level: 9 }).length);
const engineFile = readdirSync(path.join(site, 's/docgen')).find((f) => /^search\.[0-9a-f]+\.js$/.test(f));
const engine = await import(path.join(site, 's/docgen', engineFile));
const fetchImpl = async (url) => {
  try {
    return new Response(readFileSync(path.join(site, url.split('?')[0])), { status: 200 });
  } catch {
    return new Response('', { status: 404 });
  }
};
const search = engine.createSearch('/_docgen/search/index.json', fetchImpl);
const filters = await search.filters();

/** Where a page is: the area and platform whose section holds it. The same rule as `contextOf`
 * in src/search/SearchFilters.tsx (a TypeScript module plain Node cannot import), copied. */
function contextOf(path_) {
  const within = (href) => href !== '' && (path_ === href || path_.startsWith(href.endsWith('/') ? href : `${href}/`));
  const longest = (names, hrefs) => {
    let best = -1;
    hrefs.forEach((href, i) => {
      if (within(href) && (best < 0 || href.length > hrefs[best].length)) best = i;
    });
    return best < 0 ? null : (names[best] ?? null);
  };
  return { area: longest(filters.areas, filters.areaHrefs), platform: longest(filters.platforms, filters.platformHrefs) };
}

/** success@1, success@3 and MRR over the judged set from each query's ranked addresses: the
 * definitions of judged.test.ts (whose metric code sits inside its test), copied. */
function score(ranked) {
  let at1 = 0;
  let at3 = 0;
  let rr = 0;
  const misses = [];
  judged.forEach(({ query, from, answers }, i) => {
    const rank = ranked[i].findIndex((url) => answers.includes(url)) + 1;
    if (rank === 1) at1++;
    if (rank >= 1 && rank <= 3) at3++;
    if (rank >= 1) rr += 1 / rank;
    if (rank !== 1) misses.push(`${JSON.stringify(query)} from ${from}: rank ${rank || '-'}; top ${ranked[i].slice(0, 3).join(', ')}`);
  });
  const n = judged.length;
  return { successAt1: at1 / n, successAt3: at3 / n, mrr: rr / n, misses };
}

const docgenRanked = { filtered: [], plain: [] };
for (const { query, from } of judged) {
  const context = contextOf(from);
  // As the search box asks: the page's platform preselected and its platform and area boosted;
  // a query ends with a space once typed (the last word is not a prefix).
  const boxed = await search.query(`${query} `, { platform: context.platform, context, limit: RANKED });
  docgenRanked.filtered.push(boxed.results.map((r) => r.url));
  const plain = await search.query(`${query} `, { limit: RANKED });
  docgenRanked.plain.push(plain.results.map((r) => r.url));
}

// 4. The folder over HTTP, Pagefind's bundle under /pagefind/.
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' };
const isFile = (p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
/** The file an address answers: `/route` is `route/index.html`. */
function fileOf(pathname) {
  const p = path.normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  const target = p.startsWith('/pagefind/') ? path.join(pagefindDir, p.slice('/pagefind/'.length)) : path.join(site, p);
  if (isFile(target)) return target;
  return isFile(path.join(target, 'index.html')) ? path.join(target, 'index.html') : null;
}
const server = http.createServer((req, res) => {
  const file = fileOf(new URL(req.url, 'http://localhost').pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return res.end('not found');
  }
  const body = readFileSync(file);
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-store' });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** A Pagefind result's address as docgen writes it (Pagefind ends a folder's page with `/`). */
const route = (url) => (url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url);
/** The platform of a page: the platform whose section holds it (null: a page of no platform). */
const platformOf = (url) => contextOf(url).platform;

// Pagefind's ranking: every judged query in one page (the cache does not change the order).
const pagefindRanked = { filtered: [], plain: [] };
{
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/documentation/mediation`);
  await page.evaluate(async () => {
    window.pagefind = await import('/pagefind/pagefind.js');
    await window.pagefind.init();
  });
  for (const { query, from } of judged) {
    const count = await page.evaluate(async (q) => {
      window.results = (await window.pagefind.search(q)).results;
      return window.results.length;
    }, query);
    const wanted = contextOf(from).platform;
    const plain = [];
    const filtered = [];
    // Each result's address is in its fragment: read them in rank order until both lists are full.
    for (let i = 0; i < count && (plain.length < RANKED || filtered.length < RANKED); i++) {
      const url = route(await page.evaluate(async (at) => (await window.results[at].data()).url, i));
      if (plain.length < RANKED) plain.push(url);
      // The preselected filter: the reader's platform and the pages of no platform.
      const p = platformOf(url);
      if (filtered.length < RANKED && (wanted === null || p === null || p === wanted)) filtered.push(url);
    }
    pagefindRanked.plain.push(plain);
    pagefindRanked.filtered.push(filtered);
  }
  await context.close();
}

// 5. The first query a reader types, each in a fresh context: requests and bytes after the page
// has loaded.
function recorder(page) {
  const seen = [];
  page.on('request', (r) => seen.push(new URL(r.url()).pathname));
  return {
    start: () => seen.splice(0),
    cost: () => {
      const files = seen.map(fileOf).filter(Boolean);
      return { requests: seen.length, bytes: files.reduce((n, f) => n + gz(readFileSync(f)), 0), paths: [...seen] };
    },
  };
}
async function openPage(from) {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  const log = recorder(page);
  await page.goto(base + from);
  await page.waitForFunction(() => document.documentElement.getAttribute('data-dg-app') === 'mounted');
  await page.waitForLoadState('networkidle');
  log.start();
  return { context, page, log };
}
const fromOf = (query) => judged.find((j) => j.query === query).from;
const firstQuery = { docgen: [], pagefind: [] };
for (const query of FIRST_QUERIES) {
  {
    // As e2e/search.test.mjs types: `/` opens the box, the query is typed key by key.
    const { context, page, log } = await openPage(fromOf(query));
    await page.keyboard.press('/');
    await page.getByRole('combobox', { name: 'Search' }).waitFor({ state: 'visible' });
    await page.keyboard.type(query, { delay: 15 });
    await page.waitForFunction(() => document.querySelector('[role="search"] [role="combobox"]')?.getAttribute('aria-expanded') === 'true' && !document.querySelector('.dg-search-status'));
    await page.waitForTimeout(300);
    await page.waitForLoadState('networkidle');
    firstQuery.docgen.push({ query, ...log.cost() });
    await context.close();
  }
  {
    // Pagefind's UI waits for typing to pause, then searches once and loads the shown results.
    const { context, page, log } = await openPage(fromOf(query));
    const shown = await page.evaluate(
      async ([q, n]) => {
        const pagefind = await import('/pagefind/pagefind.js');
        const { results } = await pagefind.search(q);
        return (await Promise.all(results.slice(0, n).map((r) => r.data()))).length;
      },
      [query, SHOWN],
    );
    await page.waitForLoadState('networkidle');
    firstQuery.pagefind.push({ query, shown, ...log.cost() });
    await context.close();
  }
}
const chromiumVersion = browser.version();
await browser.close();
server.close();

// 6. The table.
const kb = (b) => (b / 1024).toFixed(1);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const meanOf = (rows, key) => rows.reduce((n, r) => n + r[key], 0) / rows.length;
const rows = [
  ['docgen', 'platform filter + context (the search box)', score(docgenRanked.filtered), firstQuery.docgen, docgenMs === null ? '-' : `${(docgenMs / 1000).toFixed(2)} s (whole build)`],
  ['docgen', 'no filter, no context', score(docgenRanked.plain), null, ''],
  ['pagefind', 'as built', score(pagefindRanked.plain), firstQuery.pagefind, `${(pagefindMs / 1000).toFixed(2)} s`],
  ['pagefind', 'platform filter of the page (emulated)', score(pagefindRanked.filtered), null, ''],
];
console.log(`${judged.length} judged queries; Pagefind ${pagefindVersion} over ${pages ? `${pages.length} pages (docgen's)` : 'documentation/**/index.html'} with ${PAGEFIND_OPTIONS.join(' ')}; Chromium ${chromiumVersion}`);
console.log('| engine | mode | success@1 | success@3 | MRR | first query, KB gzip (mean) | requests (mean) | index build time |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [engineName, mode, s, first, time] of rows) {
  const cost = first ? [kb(meanOf(first, 'bytes')), meanOf(first, 'requests').toFixed(1)] : ['', ''];
  console.log(`| ${engineName} | ${mode} | ${pct(s.successAt1)} | ${pct(s.successAt3)} | ${s.mrr.toFixed(3)} | ${cost[0]} | ${cost[1]} | ${time} |`);
}
console.log('\nFirst query, fresh context, after the page has loaded:');
console.log('| query | asked from | docgen KB gzip | docgen requests | Pagefind KB gzip | Pagefind requests |');
console.log('|---|---|---|---|---|---|');
FIRST_QUERIES.forEach((query, i) => {
  const d = firstQuery.docgen[i];
  const p = firstQuery.pagefind[i];
  console.log(`| \`${query}\` | ${fromOf(query)} | ${kb(d.bytes)} | ${d.requests} | ${kb(p.bytes)} | ${p.requests} (${p.shown} results' data) |`);
});
if (verbose) {
  for (const [engineName, measured] of Object.entries(firstQuery)) {
    for (const { query, paths } of measured) console.log(`\n${engineName}, first query ${JSON.stringify(query)}: ${paths.join(' ')}`);
  }
  for (const [engineName, mode, s] of rows) {
    console.log(`\n${engineName}, ${mode}: not first`);
    for (const m of s.misses) console.log(`  ${m}`);
  }
}
for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
