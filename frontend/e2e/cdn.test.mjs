// The output under a real CDN runtime: Cloudflare's workerd, through `wrangler pages dev`,
// serving the build of this repository's site. The `_redirects` file must never send a reader
// to another site, and every legacy route must lead to its page; the `_headers` rules give
// hashed assets a year of immutable caching, revalidate the HTML and tables, and send the
// security headers; the DSP area's pages (the bid-response validator's among them) are served
// and its unknown paths get its own 404 page; the Markdown twins and llms.txt are served as text.
// wrangler and workerd are npm devDependencies and run offline (no login, no metrics); the test
// is skipped, saying why, only where they are not installed.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildSite, frontend, REAL_SITE, repo } from './harness.mjs';

const wrangler = path.join(frontend, 'node_modules/.bin/wrangler');
const wranglerMissing = existsSync(wrangler) ? false : `wrangler is not installed (${path.relative(repo, wrangler)}): run npm ci in frontend/`;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntilUp(base, child, log) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited:\n${log()}`);
    try {
      await fetch(`${base}/`, { redirect: 'manual' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`wrangler did not start:\n${log()}`);
}

/** A Location that stays on this site: a path, not `//host` or `/\host`, not a URL. */
/**
 * Runs `check` on every item, `width` at a time: the hundreds of requests of a whole-site check
 * wait on the server side by side, not one after the other. Fails with the first failure.
 */
async function eachAtOnce(items, check, width = 8) {
  const queue = [...items.entries()];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await check(next[1], next[0]);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/**
 * One item in `n` of each group (`group(item)` names it), the first of each among them: a sample
 * of a whole-site check that still reaches every area and language.
 */
function sampleEach(items, n, group) {
  const seen = new Map();
  return items.filter((item) => {
    const k = group(item);
    const i = seen.get(k) ?? 0;
    seen.set(k, i + 1);
    return i % n === 0;
  });
}

/** The first three parts of an address: its language, area and section. */
const areaOf = (address) => address.split('/').slice(0, 4).join('/');

function sameSite(location, base) {
  const url = new URL(location, `${base}/`);
  return url.origin === new URL(base).origin;
}

describe('the output under workerd (wrangler pages dev)', { skip: wranglerMissing }, () => {
  let tmp;
  let site;
  let child;
  let base;
  let output = '';

  before(async () => {
    // The build of this repository's site the other files read too (its latest version: the
    // earlier one's pages are the same files under their folder, tested in versions.test.mjs).
    site = buildSite({ sources: REAL_SITE });
    tmp = mkdtempSync(path.join(os.tmpdir(), 'docgen-cdn-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(
      wrangler,
      ['pages', 'dev', site.dir, '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', '2025-01-01', '--log-level', 'warn'],
      {
        cwd: tmp,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', HOME: tmp, XDG_CONFIG_HOME: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await waitUntilUp(base, child, () => output);
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    // wrangler's children may still be closing their log files.
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    site?.cleanup();
  });

  it('never redirects a new-tab address to another site', async () => {
    const hostile = [
      '/o//evil.example/x',
      '/o/%2Fevil.example/x',
      '/o/%2F%2Fevil.example',
      '/o/%5Cevil.example',
      '/o/%5C%5Cevil.example/x',
      '/o/http://evil.example/x',
      '/o/https:%2F%2Fevil.example',
      '/o/documentation/%2F%2Fevil.example',
      '/o/documentation//evil.example',
      '/o/%0D%0ASet-Cookie:%20pwned=1',
    ];
    for (const p of hostile) {
      const res = await fetch(base + p, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (location !== null) assert.ok(sameSite(location, base), `${p} -> ${res.status} ${location}`);
      assert.equal(res.headers.get('set-cookie'), null, p);
    }
  });

  it('leads a new-tab address of a page to that page', async () => {
    const res = await fetch(`${base}/o/documentation/mediation/android/overview?x=1`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const location = res.headers.get('location');
    assert.ok(sameSite(location, base), location);
    assert.equal(new URL(location, base).pathname, '/documentation/mediation/android/overview');
    const folder = await fetch(`${base}/o/documentation`, { redirect: 'manual' });
    assert.equal(folder.status, 302);
    assert.equal(new URL(folder.headers.get('location'), base).pathname, '/documentation');
  });

  it('answers every line of _redirects with its own status and Location', async () => {
    const written = readFileSync(path.join(site.dir, '_redirects'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    const exact = written.map((l) => l.split(/\s+/)).filter(([from, to]) => !from.includes('*') && !to.includes(':'));
    assert.ok(exact.length > 500, `${exact.length} exact rules`);
    await eachAtOnce(exact, async ([from, to, status]) => {
      const res = await fetch(base + from, { redirect: 'manual' });
      assert.equal(res.status, Number(status), `${from}: ${res.status}`);
      const location = new URL(res.headers.get('location'), base);
      assert.equal(location.origin, new URL(base).origin, from);
      assert.equal(location.pathname + location.hash, to, from);
      await res.arrayBuffer();
    });
  });

  it('follows legacy routes of every area to their pages', async () => {
    const routes = JSON.parse(readFileSync(path.join(site.dir, '_docgen/routes.json'), 'utf8'));
    const pages = new Set(routes.pages.map((p) => p.route));
    assert.ok(routes.redirects.length > 500, `${routes.redirects.length} legacy routes`);
    // Each route's own rule is checked above, and its page on disk by the site's Rust tests
    // (site.rs); here one route in four of each area is followed through workerd's redirects
    // to its page.
    await eachAtOnce(sampleEach(routes.redirects, 4, ({ from }) => areaOf(from)), async ({ from, to }) => {
      const res = await fetch(base + from, { redirect: 'manual' });
      assert.ok([301, 308].includes(res.status), `${from}: ${res.status}`);
      await res.arrayBuffer();
      let location = new URL(res.headers.get('location'), base);
      // Cloudflare adds the folder's trailing slash first; the meta-refresh page then leads on.
      if (res.status === 308) {
        const next = await fetch(location, { redirect: 'manual' });
        assert.equal(next.status, 301, `${from} -> ${location.pathname}: ${next.status}`);
        await next.arrayBuffer();
        location = new URL(next.headers.get('location'), base);
      }
      assert.equal(location.origin, new URL(base).origin, from);
      const dest = to.split('#')[0];
      assert.equal(location.pathname.replace(/\/$/, '') || '/', dest, from);
      assert.ok(pages.has(dest), `${from} -> ${dest} is a page`);
      const page = await fetch(location);
      assert.equal(page.status, 200, `${from} -> ${location.pathname}`);
      await page.arrayBuffer();
    });
  });

  it('serves every DSP page, and the DSP area’s own 404 page for an unknown path under it', async () => {
    const dsp = pages().filter((p) => p.route.startsWith('/documentation/dsp'));
    assert.ok(dsp.length > 5, `${dsp.length} DSP pages`);
    for (const { route } of dsp) {
      const res = await fetch(base + folder(route));
      assert.equal(res.status, 200, route);
      assert.doesNotMatch(await res.text(), /id="dg-error-title"/, route);
    }
    // The testing page carries the bid-response validator.
    const testing = await fetch(`${base}/documentation/dsp/testing/`);
    assert.equal(testing.status, 200);
    assert.match(await testing.text(), /<div data-dg-block="bid-validator">/);
    for (const missing of ['/documentation/dsp/no-such-page', '/documentation/dsp/ortb-spec/no-such-object']) {
      const res = await fetch(base + missing, { redirect: 'manual' });
      assert.equal(res.status, 404, missing);
      assert.match(await res.text(), /<h1 id="dg-error-title">Unable to load the current page\.<\/h1>/, missing);
    }
    const other = await fetch(`${base}/documentation/mediation/no-such-page`, { redirect: 'manual' });
    assert.equal(other.status, 404);
    // The root 404 (the nearest one there) names the DSP area's texts only in its script, which
    // puts them in on a host that serves it for every missing address.
    assert.doesNotMatch(await other.text(), /<h1 id="dg-error-title">Unable to load the current page/);
  });

  it('leads the root and the folder above the areas to the home page', async () => {
    for (const address of ['/', '/documentation']) {
      const res = await fetch(base + address, { redirect: 'manual' });
      assert.equal(res.status, 301, address);
      assert.equal(new URL(res.headers.get('location'), base).pathname, '/documentation/mediation', address);
    }
  });

  /** Every page route and its canonical, from the build's own table. */
  function pages() {
    return JSON.parse(readFileSync(path.join(site.dir, '_docgen/routes.json'), 'utf8')).pages;
  }

  /** A page's address as the CDN serves it: its folder, with the trailing slash. */
  function folder(route) {
    return route === '/' ? '/' : `${route}/`;
  }

  const home = '/documentation/mediation/';

  it('caches the content-hashed assets under /s/ for a year, immutable', async () => {
    const html = await (await fetch(base + home)).text();
    const assets = [...html.matchAll(/(?:href|src)="(\/s\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => a.endsWith('.css')) && assets.some((a) => a.endsWith('.js')), assets.join(' '));
    for (const asset of new Set(assets)) {
      const res = await fetch(base + asset);
      assert.equal(res.status, 200, asset);
      const cache = res.headers.get('cache-control') ?? '';
      assert.match(cache, /\bimmutable\b/, `${asset}: ${cache}`);
      assert.match(cache, /\bmax-age=31536000\b/, `${asset}: ${cache}`);
      assert.doesNotMatch(cache, /must-revalidate|no-cache/, `${asset}: ${cache}`);
    }
  });

  it('revalidates the HTML and the _docgen tables', async () => {
    const sample = pages().filter((_, i) => i % 40 === 0).map((p) => folder(p.route));
    const addresses = [...sample, home, '/404.html', '/_docgen/nav.json', '/_docgen/routes.json', '/_docgen/nav/index.json'];
    for (const address of addresses) {
      const res = await fetch(base + address);
      assert.equal(res.status, 200, address);
      const cache = res.headers.get('cache-control') ?? '';
      assert.match(cache, /\bmax-age=0\b/, `${address}: ${cache}`);
      assert.match(cache, /must-revalidate/, `${address}: ${cache}`);
      assert.doesNotMatch(cache, /immutable/, `${address}: ${cache}`);
    }
  });

  it('sends the Content-Security-Policy and the security headers on pages, allowing their inline scripts', async () => {
    const written = readFileSync(path.join(site.dir, '_headers'), 'utf8');
    const csp = written.match(/Content-Security-Policy: (.*)/)[1];
    const sample = [home, ...pages().filter((_, i) => i % 60 === 0).map((p) => folder(p.route))];
    for (const address of sample) {
      const res = await fetch(base + address);
      assert.equal(res.status, 200, address);
      assert.equal(res.headers.get('content-security-policy'), csp, address);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', address);
      assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', address);
      const html = await res.text();
      // Inline scripts (no src, not data) must be allowed by their hash.
      for (const [, attrs, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/\ssrc=/.test(attrs) || /type="application\/json"/.test(attrs)) continue;
        const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
        assert.ok(csp.includes(hash), `${address}: inline script not in the policy: ${body.slice(0, 60)}`);
      }
    }
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
  });

  it('has a clean Markdown twin of every page, served as Markdown and named in the page head', async () => {
    // Every page's twin is in the output; workerd serves one page's in ten of each area (its
    // type comes from a rule by file name, the same for all) with what the file holds, and every
    // other of those pages' HTML names its twin.
    const all = pages();
    const twins = new Map(all.map(({ route }) => [route, readFileSync(path.join(site.dir, folder(route), 'index.md'), 'utf8')]));
    for (const [route, text] of twins) {
      assert.ok(text.startsWith('# '), `${route}: ${text.slice(0, 80)}`);
      assert.doesNotMatch(text, /<nav[\s>]|<script[\s>]|<footer[\s>]|class="dg-/, route);
    }
    await eachAtOnce(
      sampleEach(all, 10, ({ route }) => areaOf(route)),
      async ({ route, canonical }, i) => {
        const res = await fetch(`${base}${folder(route)}index.md`);
        assert.equal(res.status, 200, route);
        assert.match(res.headers.get('content-type') ?? '', /^text\/(markdown|plain)/, route);
        assert.equal(await res.text(), twins.get(route), route);
        if (i % 2 === 0) {
          const html = await (await fetch(base + folder(route))).text();
          const link = `<link rel="alternate" type="text/markdown" href="${folder(canonical)}index.md">`;
          assert.ok(html.includes(link), `${route}: no ${link}`);
        }
      },
    );
  });

  it('serves llms.txt, whose every link is a served twin, and llms-full.txt', async () => {
    const res = await fetch(`${base}/llms.txt`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^# .+\n\n> .+\n/);
    const links = [...text.matchAll(/^- \[[^\]]*\]\(([^)]+)\)/gm)].map((m) => new URL(m[1]).pathname);
    assert.equal(new Set(links).size, links.length, 'each page once');
    // Exactly the twins of the canonical pages, each of which the test above found in the output
    // (and a sample of which it fetched through workerd, at the address llms.txt gives).
    const twins = pages()
      .filter((p) => p.route === p.canonical)
      .map((p) => `${folder(p.route)}index.md`);
    assert.deepEqual([...links].sort(), twins.sort());
    const full = await fetch(`${base}/llms-full.txt`);
    assert.equal(full.status, 200);
    assert.match(full.headers.get('content-type') ?? '', /^text\/plain/);
    assert.ok((await full.text()).length > text.length);
  });
});
