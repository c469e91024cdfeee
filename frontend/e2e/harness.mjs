// The browser tests' harness: builds the fixture site with the docgen binary, serves it with a
// small static server, and drives Debian's Chromium through playwright-core.
//
//   DOCGEN_BIN      the docgen binary (default: ../target/release/docgen from frontend/)
//   CHROMIUM        the browser (default: /usr/bin/chromium)
//   E2E_EMBEDDED=1  test the app and the templates the binary embedded
//   E2E_SHARED      a folder for the sites and app bundles that test files running in one go
//                   build alike (run.mjs makes it): the first file to need one builds it there
//
// By default the tests run the shell of this working tree: the site is built with the
// templates of ../templates (as a site's own templates/, which docgen prefers to its embedded
// ones) and the app bundle built by build.mjs is published in place of the embedded one,
// under the same hashed names. The app and the templates are one piece and change together.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const frontend = path.resolve(here, '..');
export const repo = path.resolve(frontend, '..');
export const fixture = path.join(repo, 'crates/docgen-cli/tests/fixtures/shell-site');
export const templates = path.join(repo, 'templates');
export const docgenBin = process.env.DOCGEN_BIN || path.join(repo, 'target/release/docgen');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

export const M = '/documentation/mediation';
/** The pages of the benchmark corpus the search's budget is checked on at scale. */
export const CORPUS_PAGES = 10_000;
/** The window sizes the layout is made for: a phone, a tablet, two laptops. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  tablet: { width: 820, height: 1180 },
  laptop: { width: 1280, height: 800 },
  wide: { width: 1440, height: 900 },
};
/** 2001-09-09: the year docgen writes into the footer of the test site. */
export const BUILD_EPOCH = '1000000000';

/** The sources of this repository's own site (the documentation it was made for). */
export const REAL_SITE = ['site.yaml', 'redirects.yaml', 'content', 'static'].map((f) => path.join(repo, f));

/** The bundle files build.mjs writes, as docgen publishes them: `<name>.<hash>.<ext>`. */
const BUNDLE_FILE = /^(app\.[0-9a-f]+\.(?:js|css)|(?:search|validator|adplatform)\.[0-9a-f]+\.js)$/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/**
 * Makes something once per run of the browser tests: `make(dir)` fills a new folder named by
 * `key` under E2E_SHARED, and a test file asking for the same key, in this process or another,
 * waits for it and gets that folder. Without E2E_SHARED (a file run on its own) or a key, `make`
 * fills a new temporary folder. Returns the folder and how to remove it when it is not shared.
 */
function once(key, make) {
  const shared = process.env.E2E_SHARED;
  if (!shared || key === null) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docgen-e2e-'));
    make(dir);
    return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = path.join(shared, createHash('sha256').update(key).digest('hex').slice(0, 16));
  const done = path.join(dir, '.done');
  const failed = path.join(dir, '.failed');
  // Who is making it: a maker killed by a signal writes no `.failed`, and its waiters see it gone.
  const maker = path.join(dir, '.maker');
  let mine = true;
  try {
    mkdirSync(dir);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    mine = false;
  }
  if (mine) {
    writeFileSync(maker, String(process.pid));
    try {
      make(dir);
    } catch (e) {
      writeFileSync(failed, String(e));
      throw e;
    }
    writeFileSync(done, '');
  } else {
    const deadline = Date.now() + 10 * 60_000;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`the build this file shares failed in another file: ${readFileSync(failed, 'utf8')}`);
      const pid = existsSync(maker) ? Number(readFileSync(maker, 'utf8')) : null;
      if (pid && !alive(pid) && !existsSync(done)) throw new Error(`the process making ${dir} (pid ${pid}) ended without finishing it`);
      if (Date.now() > deadline) throw new Error(`waited 10 minutes for ${dir}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  return { dir, cleanup: () => {} };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The app bundle and the site extensions' bundles of this working tree, built by build.mjs. */
function appBundles() {
  return once('app bundles', (app) => {
    execFileSync(process.execPath, [path.join(frontend, 'build.mjs'), '--outdir', app], { stdio: ['ignore', 'inherit', 'inherit'] });
    // The site extensions' bundles (adplatform.js, validator.js), published only for sites that enable them.
    for (const extension of readdirSync(path.join(frontend, 'src/extensions'))) {
      execFileSync(process.execPath, [path.join(frontend, 'build.mjs'), '--extension', extension, '--outdir', app], { stdio: ['ignore', 'inherit', 'inherit'] });
    }
  });
}

/**
 * Builds a site; returns the site folder and how to remove it. The fixture site by default (or
 * the fixture folder `site`); `sources` (files and folders, e.g. REAL_SITE) builds a site made of
 * those instead, and `corpus` (a number of pages) the benchmark corpus bench/gen-corpus writes.
 * A site's own templates are kept: this tree's fill in the others. The fixture site, sites made
 * of `sources` and corpora are built once per run (see `once`), and tests only read them; any
 * other site is built into a new temporary folder of its own.
 */
export function buildSite({ sources = null, site = fixture, corpus = null } = {}) {
  if (!existsSync(docgenBin)) throw new Error(`docgen binary not found at ${docgenBin} (set DOCGEN_BIN)`);
  const embedded = Boolean(process.env.E2E_EMBEDDED);
  const make = (tmp) => {
    const out = path.join(tmp, 'site');
    let root = sources || corpus ? path.join(tmp, 'root') : site;
    if (corpus) {
      execFileSync('python3', [path.join(repo, 'bench/gen-corpus'), '--pages', String(corpus), '--out', root], { stdio: 'ignore' });
    } else if (sources) {
      mkdirSync(root);
      for (const source of sources) if (existsSync(source)) cpSync(source, path.join(root, path.basename(source)), { recursive: true });
    } else if (!embedded) {
      root = path.join(tmp, 'root');
      cpSync(site, root, { recursive: true });
    }
    if (!embedded) {
      mkdirSync(path.join(root, 'templates'), { recursive: true });
      const own = existsSync(path.join(site, 'templates')) ? readdirSync(path.join(site, 'templates')) : [];
      for (const t of readdirSync(templates)) if (t.endsWith('.html') && !own.includes(t)) copyFileSync(path.join(templates, t), path.join(root, 'templates', t));
    }
    // An old build date: the footer must show the current year, not the one written at build time.
    const env = { ...process.env, SOURCE_DATE_EPOCH: BUILD_EPOCH };
    // A copy of the real site is outside its repository: its earlier versions (read from git) are left out.
    const latest = sources ? ['--latest-only'] : [];
    execFileSync(docgenBin, ['build', '--root', root, '--out', out, '--quiet', ...latest], { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (!embedded) {
      const app = appBundles();
      // Wherever docgen published them (app.* under s/docgen/, search.* under s/).
      for (const file of filesUnder(path.join(out, 's'))) {
        const name = path.basename(file);
        if (!BUNDLE_FILE.test(name)) continue;
        copyFileSync(path.join(app.dir, name.replace(/\.[0-9a-f]+\./, '.')), file);
      }
      app.cleanup();
    }
  };
  // Only the sites every run builds alike are shared; a test's own site folder is its own.
  const shareable = sources !== null || corpus !== null || site === fixture;
  const built = shareable ? once(JSON.stringify({ sources, site, corpus, embedded }), make) : once(null, make);
  return { dir: path.join(built.dir, 'site'), cleanup: built.cleanup };
}

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

function isFile(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The rules of a build's `_headers`: a path pattern, then its indented `Name: value` lines. */
export function readHeaders(dir) {
  const rules = [];
  for (const line of readFileSync(path.join(dir, '_headers'), 'utf8').split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
    else if (rules.length && line.includes(':')) {
      const at = line.indexOf(':');
      rules.at(-1).headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

/** The headers of the rules matching `pathname` (a pattern ending in `*` matches by prefix). */
export function headersFor(rules, pathname) {
  const out = new Map();
  for (const { pattern, headers } of rules) {
    const hit = pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pattern === pathname;
    if (hit) for (const [n, v] of headers) out.set(n.toLowerCase(), v);
  }
  return out;
}

/**
 * The test server's caching, from the headers the build's `_headers` gives a path (`own`): what
 * it lets a browser keep for good (the content-hashed files under `s/`, whose names change with
 * their bytes), as a reader's browser keeps them from one page to the next; nothing else, so
 * each test sees the pages and tables as built. A check that measures a first visit clears the
 * cache first (`firstVisit`).
 */
function cachePolicy(own) {
  const policy = own.get('cache-control') ?? '';
  return /\bimmutable\b/.test(policy) ? policy : 'no-store';
}

/**
 * Serves a built site: `/route` and `/route/` answer `route/index.html`, `/o/...` answers as
 * `/...` (new-tab links), and an unknown path gets the nearest 404.html above it, with status 404.
 * With `stall: {after, until}`, an HTML page is sent up to the end of `after`, then the rest once
 * the promise `until(before)` gives settles, `before` being the page's text up to `after` (a slow
 * network: the browser paints what it has parsed so far). With `headers`, every response carries the headers the build's `_headers` gives its path, as a CDN would send them;
 * without, only its caching of content-hashed files (`cachePolicy`).
 */
export function serve(dir, { stall = null, headers = false } = {}) {
  // A site served with its headers must have them; any other is served without caching if not.
  const rules = headers || existsSync(path.join(dir, '_headers')) ? readHeaders(dir) : [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url, 'http://localhost').pathname;
    const own = headersFor(rules, pathname);
    if (headers) for (const [name, value] of own) res.setHeader(name, value);
    let p = decodeURIComponent(pathname);
    if (p === '/o' || p.startsWith('/o/')) p = p.slice(2) || '/';
    const target = path.join(dir, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    let file = isFile(target) ? target : path.join(target, 'index.html');
    let status = 200;
    if (!file.startsWith(dir) || !isFile(file)) {
      status = 404;
      file = null;
      for (let d = path.dirname(target); d.startsWith(dir); d = path.dirname(d)) {
        if (isFile(path.join(d, '404.html'))) {
          file = path.join(d, '404.html');
          break;
        }
      }
    }
    const body = file ? readFileSync(file) : Buffer.from('not found');
    const type = file ? types[path.extname(file)] ?? (path.extname(file) === '' ? 'application/json' : 'application/octet-stream') : 'text/plain';
    const cache = status === 200 ? cachePolicy(own) : 'no-store';
    res.writeHead(status, { 'content-type': type, 'content-length': body.length, 'cache-control': cache });
    const cut = stall && type.startsWith('text/html') && req.method !== 'HEAD' ? body.indexOf(stall.after) : -1;
    if (cut < 0) return res.end(req.method === 'HEAD' ? undefined : body);
    res.write(body.subarray(0, cut + stall.after.length));
    void stall.until(body.subarray(0, cut).toString()).then(() => res.end(body.subarray(cut + stall.after.length)));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * Empties the browser's cache for `page`, so that its next load is a first visit: every file
 * fetched, as the budget checks count them.
 */
export async function firstVisit(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await cdp.detach();
  }
}

/** Records every layout shift in `window.__shifts`: when, its value, and each moved node (or
 * the element holding a moved text) with where it went, for the report. */
export function recordShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    const what = (n) => (n ? (n.outerHTML ?? `text in ${n.parentElement?.outerHTML}`).slice(0, 80) : 'a node since removed');
    for (const e of list.getEntries()) {
      window.__shifts.push({ at: e.startTime, value: e.value, sources: (e.sources ?? []).map((s) => `${what(s.node)} ${JSON.stringify(s.previousRect)} → ${JSON.stringify(s.currentRect)}`) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  // The shifts since `time`: the navigation's `responseEnd` (its last byte received), or
  // `__laidOut` (the whole document laid out). The browser may paint a part of the
  // document it is still parsing, an element cut mid-way (a button before its label), which the
  // rest of it then moves: that is the parser's pace, not the page's layout, and not what these
  // checks are about (what the app's mount moves, what the rest of a slow page moves). The frame
  // after the parser's last pause lays the whole document out; its shifts are stamped with that
  // frame's time, which may come after the parse ended, and before the frame after it. (The
  // parse ends at `interactive`; DOMContentLoaded waits for the app's deferred script.)
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') requestAnimationFrame(() => requestAnimationFrame(() => (window.__laidOut = performance.now())));
  });
  window.__shiftsSince = (time) => window.__shifts.filter((s) => s.at >= time);
  // When the parser last added to the document (see `parsedSoFar`).
  window.__lastMutation = performance.now();
  new MutationObserver(() => (window.__lastMutation = performance.now())).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * Waits until the browser parsed, laid out and painted `before`, the start of a page a stalled
 * server sent (`serve`'s `until`; `recordShifts` must be installed): its last element exists,
 * the document has not changed for 300 ms, and two frames have passed since. On a busy machine
 * the parser may still be at it long after the bytes arrived; the rest of the page must only be
 * sent once this part is on screen, or the checks would count the parser's pace.
 */
export async function parsedSoFar(page, before) {
  const tags = Array.from(before.matchAll(/<([a-z][a-z0-9-]*)[\s/>]/g), (m) => m[1]);
  const last = tags.at(-1);
  const count = tags.filter((t) => t === last).length;
  await page.waitForFunction(
    ({ last, count }) => document.getElementsByTagName(last).length >= count && performance.now() - window.__lastMutation > 300,
    { last, count },
    { polling: 50 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Holds the app's script back until the whole document was laid out (`__laidOut`, set by
 * `recordShifts`) and painted, as on a slow connection or a busy machine: whatever the app's
 * mount moves is then on screen, and counted by `__shiftsSince(__laidOut)`.
 */
export async function holdAppUntilLaidOut(page) {
  await page.route('**/s/docgen/app.*.js', async (route) => {
    await page.waitForFunction(() => window.__laidOut !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await route.continue();
  });
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser's own address-bar popups: every window (one per browser context) otherwise loads
 * them as web pages of their own, in renderers that took a fifth of the browser's CPU in these
 * tests, for a window no one sees.
 */
const UNSEEN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

let featuresOff = null;

/**
 * The features the tests' Chromium runs without: Playwright's own and `UNSEEN_FEATURES`.
 * Chromium reads only the last `--disable-features` it is given, so ours must repeat
 * Playwright's list, read from a browser it launched. run.mjs reads it once for every test file
 * (E2E_DISABLED_FEATURES); a file run on its own reads it itself. Where the browser cannot tell
 * its command line, the list is empty and Playwright's stands alone (the tests cost more CPU).
 */
export function disabledFeatures() {
  if (process.env.E2E_DISABLED_FEATURES !== undefined) return Promise.resolve(process.env.E2E_DISABLED_FEATURES);
  featuresOff ??= (async () => {
    // `--enable-automation` lets the browser tell its command line.
    const probe = await chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS, '--enable-automation'] });
    try {
      const cdp = await probe.newBrowserCDPSession();
      const { arguments: argv } = await cdp.send('Browser.getBrowserCommandLine');
      const flag = '--disable-features=';
      const theirs = argv.filter((a) => a.startsWith(flag)).flatMap((a) => a.slice(flag.length).split(','));
      return [...new Set([...theirs, ...UNSEEN_FEATURES])].filter(Boolean).join(',');
    } catch (e) {
      console.warn(`Chromium did not tell its command line (${String(e)}): its address-bar popups stay on`);
      return '';
    } finally {
      await probe.close();
    }
  })();
  return featuresOff;
}

export async function launch() {
  const off = await disabledFeatures();
  return chromium.launch({
    executablePath: chromiumPath,
    args: off ? [...CHROMIUM_ARGS, `--disable-features=${off}`] : CHROMIUM_ARGS,
  });
}

/** The whole setup for a test file: site, server and browser (`options` as for buildSite). */
export async function start({ headers = false, ...options } = {}) {
  const site = buildSite(options);
  const server = await serve(site.dir, { headers });
  const browser = await launch();
  const tabs = new Tabs(browser, server.url);
  return {
    url: server.url,
    dir: site.dir,
    browser,
    /**
     * A page as a fresh context shows it, 1920×1080 unless told otherwise; `page.context().close()`
     * ends it. It may be a tab an earlier check of this file ended, with the same options and
     * reset (see `Tabs`).
     */
    page(options = {}) {
      return tabs.take(options);
    },
    /**
     * Loads each path in turn into one page (`options` as for `page`), waits for the app to
     * mount, then runs `check(page, path)`. For checks of what a page shows on arrival, which
     * keep no state: each path is a full page load, as from an address typed in.
     */
    async visitEach(paths, options, check) {
      const page = await this.page(options);
      try {
        for (const path of paths) {
          await page.goto(server.url + path);
          await ready(page);
          await check(page, path);
        }
      } finally {
        await page.context().close();
      }
    },
    async stop() {
      await browser.close();
      await server.close();
      site.cleanup();
    },
  };
}

/** `options` as a string, its keys sorted at every level: equal options, equal keys. */
function optionsKey(options) {
  return JSON.stringify(options, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

/** Calls `fn`, or gives up after `ms` (a page that hangs is closed, not waited for). */
function within(ms, fn) {
  let timer;
  return Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * The tabs of a test file's browser, kept for reuse. A new tab in a new context costs about
 * 2.5 times the CPU of a page load in a tab already open: a renderer process is started, and its
 * caches are cold (BENCHMARKS.md, "Fresh tabs"). So a tab whose check ended
 * (`page.context().close()`) is reset and handed to the next check asking for the same context
 * options, when nothing it did outlives a reset:
 *
 * - reset: the other tabs its check opened are closed, its routes, init scripts and event
 *   listeners removed (the harness's error listeners added again), the origin's local and session
 *   storage and the context's cookies cleared, the mouse moved off the page, and the tab left on
 *   about:blank;
 * - closed instead: a tab that went to another origin, whose check changed its viewport or media,
 *   exposed functions, set context-wide state (permissions, headers, routes, init scripts), whose
 *   history nears Chromium's limit of 50 entries, or that did not reset within 5 s.
 */
class Tabs {
  constructor(browser, url) {
    this.browser = browser;
    this.origin = new URL(url).origin;
    /** Free tabs by options key. */
    this.free = new Map();
  }

  async take(options) {
    const key = optionsKey(options);
    const page = this.free.get(key)?.pop() ?? (await this.open(options, key));
    page.errors = [];
    page.tab.ending = null;
    return page;
  }

  async open(options, key) {
    const context = await this.browser.newContext({ viewport: { width: 1920, height: 1080 }, ...options });
    const page = await context.newPage();
    const tab = { key, reusable: true, ending: null, scripts: [] };
    page.tab = tab;
    const spoil = (target, names) => {
      for (const name of names) {
        const own = target[name].bind(target);
        target[name] = (...args) => {
          tab.reusable = false;
          return own(...args);
        };
      }
    };
    spoil(page, ['exposeFunction', 'exposeBinding', 'emulateMedia', 'setViewportSize', 'setExtraHTTPHeaders']);
    spoil(context, ['addInitScript', 'exposeFunction', 'exposeBinding', 'grantPermissions', 'route', 'routeFromHAR', 'setExtraHTTPHeaders', 'setGeolocation', 'setOffline', 'addCookies', 'setHTTPCredentials']);
    const addInitScript = page.addInitScript.bind(page);
    page.addInitScript = async (...args) => {
      const script = await addInitScript(...args);
      tab.scripts.push(script);
      return script;
    };
    const close = context.close.bind(context);
    context.close = () => this.release(page, tab, close);
    this.listen(page, tab);
    return page;
  }

  /** The harness's own listeners: errors the page reports, and the origins it goes to. */
  listen(page, tab) {
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      // A page served with 404 on purpose (an unknown route) is reported by the browser itself.
      if (/Failed to load resource/.test(m.text()) && m.location()?.url === page.url()) return;
      page.errors.push(`${m.text()} (${m.location()?.url ?? ''})`);
    });
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const url = frame.url();
      if (url !== 'about:blank' && new URL(url).origin !== this.origin) tab.reusable = false;
    });
  }

  release(page, tab, close) {
    // Ended twice (a check's own close, then its `finally`): reset once, in the pool once.
    tab.ending ??= this.reset(page, tab, close);
    return tab.ending;
  }

  async reset(page, tab, close) {
    const context = page.context();
    try {
      if (!tab.reusable || page.isClosed() || new URL(page.url()).origin !== this.origin) throw new Error('not reusable');
      await within(5000, async () => {
        for (const other of context.pages()) if (other !== page) await other.close();
        await page.removeAllListeners(undefined, { behavior: 'ignoreErrors' });
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        for (const script of tab.scripts.splice(0)) await script.dispose();
        const entries = await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
          return history.length;
        });
        if (entries > 30) throw new Error('history nearly full');
        await context.clearCookies();
        await page.mouse.move(-1, -1);
        await page.goto('about:blank');
      });
    } catch {
      await close();
      return;
    }
    this.listen(page, tab);
    if (!this.free.has(tab.key)) this.free.set(tab.key, []);
    this.free.get(tab.key).push(page);
  }
}

/** Waits for the app to have mounted over the page. */
export async function ready(page) {
  await page.waitForFunction(() => document.documentElement.getAttribute('data-dg-app') === 'mounted');
}

export function box(page, selector) {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
}
