// A site with two versions, made from a git repository the test creates (tag v1.0 holds 1.x,
// the working tree 2.x): the version menu keeps the reader on the same page or leads to the
// other version's home, an earlier version's page shows the banner and a canonical link to the
// latest, and each version's search finds its own pages only.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ready, repo, start } from './harness.mjs';
import { search } from './searchCost.mjs';

const fixture = path.join(repo, 'crates/docgen-cli/tests/fixtures/versions');

/** The fixture as a repository: v1 committed and tagged, then v2 committed over it. */
function repository() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docgen-versions-'));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.test',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.test',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const git = (...args) => execFileSync('git', ['-C', dir, ...args], { env, stdio: 'ignore' });
  for (const f of ['site.yaml', 'redirects.yaml']) cpSync(path.join(fixture, f), path.join(dir, f));
  cpSync(path.join(fixture, 'v1/content'), path.join(dir, 'content'), { recursive: true });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'version 1');
  git('tag', 'v1.0');
  rmSync(path.join(dir, 'content'), { recursive: true });
  cpSync(path.join(fixture, 'v2/content'), path.join(dir, 'content'), { recursive: true });
  git('add', '-A');
  git('commit', '-q', '-m', 'version 2');
  return dir;
}

let env;
let source;
before(async () => {
  source = repository();
  env = await start({ site: source });
});
after(async () => {
  await env?.stop();
  if (source) rmSync(source, { recursive: true, force: true });
});

async function open(route) {
  const page = await env.page();
  await page.goto(env.url + route);
  await ready(page);
  return page;
}

/** Opens the version menu and follows the link of version `name`. */
async function switchTo(page, name) {
  await page.locator('.dg-version-menu > summary').click();
  const link = page.locator(`.dg-version-menu a[data-dg-version="${name}"]`);
  await link.waitFor({ state: 'visible' });
  await Promise.all([page.waitForLoadState('load'), link.click()]);
  await page.waitForURL((url) => url.pathname !== '' && !url.hash);
  await ready(page);
}

const pathOf = (page) => new URL(page.url()).pathname;

describe('versions', () => {
  it('the version menu keeps the reader on the same page', async () => {
    const page = await open('/docs/start');
    assert.equal(await page.locator('.dg-version-menu > summary').textContent(), '2.x');
    await switchTo(page, '1.x');
    assert.equal(pathOf(page), '/1.x/docs/start');
    assert.match(await page.locator('.dg-article').textContent(), /initializeSdk\(listener\)/);
    assert.equal(await page.locator('.dg-version-menu > summary').textContent(), '1.x');
    await switchTo(page, '2.x');
    assert.equal(pathOf(page), '/docs/start');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('falls back to the other version’s home when the page does not exist there', async () => {
    const page = await open('/docs/new-api');
    await switchTo(page, '1.x');
    assert.equal(pathOf(page), '/1.x/docs');
    const old = await open('/1.x/docs/old-api');
    await switchTo(old, '2.x');
    assert.equal(pathOf(old), '/docs');
    await page.context().close();
    await old.context().close();
  });

  it('an earlier version’s page shows the banner and names the latest page as canonical', async () => {
    const page = await open('/1.x/docs/start');
    const banner = page.locator('.dg-version-banner');
    assert.match(await banner.textContent(), /You are reading the documentation of 1\.x; the current version is 2\.x\./);
    assert.equal(await banner.locator('a').getAttribute('href'), '/docs/start');
    assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), 'https://docs.example.test/docs/start');
    await Promise.all([page.waitForLoadState('load'), banner.locator('a').click()]);
    await page.waitForURL((url) => url.pathname === '/docs/start');
    await ready(page);
    assert.equal(await page.locator('.dg-version-banner').count(), 0, 'the latest has no banner');
    await page.context().close();
  });

  it('keeps the version across in-app navigation', async () => {
    const page = await open('/1.x/docs/start');
    await page.locator('#dg-menu a', { hasText: 'Old API' }).first().click();
    await page.waitForURL((url) => url.pathname === '/1.x/docs/old-api');
    await page.locator('.dg-version-banner').waitFor();
    assert.equal(await page.locator('.dg-version-menu > summary').textContent(), '1.x');
    await page.context().close();
  });

  it('searches the version read, from its own index', async () => {
    const older = await open('/1.x/docs/start');
    const requested = [];
    older.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await search(older, 'legacyKey');
    const olderHits = await older.locator('[role="listbox"] .dg-search-page').evaluateAll((els) => els.map((a) => a.getAttribute('href')));
    assert.deepEqual(olderHits, ['/1.x/docs/old-api']);
    assert.ok(requested.some((p) => p.startsWith('/1.x/_docgen/search/')), requested.join(', '));
    assert.ok(!requested.some((p) => p.startsWith('/_docgen/search/')), requested.join(', '));
    const latest = await open('/docs/start');
    await search(latest, 'legacyKey');
    assert.equal(await latest.locator('[role="listbox"] .dg-search-page').count(), 0);
    await older.context().close();
    await latest.context().close();
  });
});
