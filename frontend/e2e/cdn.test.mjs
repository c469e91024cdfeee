// The output under a real CDN runtime: Cloudflare's workerd, through `wrangler pages dev`,
// serving the build of this repository's site. The `_redirects` file must never send a reader
// to another site, and every legacy route must lead to its page.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { docgenBin, frontend, repo } from './harness.mjs';

const wrangler = path.join(frontend, 'node_modules/.bin/wrangler');

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
function sameSite(location, base) {
  const url = new URL(location, `${base}/`);
  return url.origin === new URL(base).origin;
}

describe('the output under workerd (wrangler pages dev)', () => {
  let tmp;
  let child;
  let base;
  let output = '';

  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'docgen-cdn-'));
    const out = path.join(tmp, 'dist');
    execFileSync(docgenBin, ['build', '--quiet', '--root', repo, '--out', out], { stdio: 'inherit' });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(
      wrangler,
      ['pages', 'dev', out, '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', '2025-01-01', '--log-level', 'warn'],
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
  });

  it('follows every legacy route to its page', async () => {
    const routes = JSON.parse(readFileSync(path.join(tmp, 'dist/_docgen/routes.json'), 'utf8'));
    const pages = new Set(routes.pages.map((p) => p.route));
    assert.ok(routes.redirects.length > 500, `${routes.redirects.length} legacy routes`);
    for (const { from, to } of routes.redirects) {
      const res = await fetch(base + from, { redirect: 'manual' });
      assert.ok([301, 308].includes(res.status), `${from}: ${res.status}`);
      let location = new URL(res.headers.get('location'), base);
      // Cloudflare adds the folder's trailing slash first; the meta-refresh page then leads on.
      if (res.status === 308) {
        const next = await fetch(location, { redirect: 'manual' });
        assert.equal(next.status, 301, `${from} -> ${location.pathname}: ${next.status}`);
        location = new URL(next.headers.get('location'), base);
      }
      assert.equal(location.origin, new URL(base).origin, from);
      const dest = to.split('#')[0];
      assert.equal(location.pathname.replace(/\/$/, '') || '/', dest, from);
      assert.ok(pages.has(dest), `${from} -> ${dest} is a page`);
      const page = await fetch(location);
      assert.equal(page.status, 200, `${from} -> ${location.pathname}`);
    }
  });
});
