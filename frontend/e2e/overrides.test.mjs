// A site's own templates reach every reader: the top bar, banner and footer of a site's own
// page.html show with scripts off, with the app mounted over the page, and after the app has
// navigated to another page (whose regions it takes from that page's HTML).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ready, repo, start } from './harness.mjs';

const site = path.join(repo, 'crates/docgen-cli/tests/fixtures/template-overrides');
const INSTALL = '/docs/guide/install';
const USE = '/docs/guide/use';

let env;
before(async () => {
  env = await start({ site });
});
after(async () => {
  await env?.stop();
});

/** What the reader sees of the site's own markup. */
async function overrides(page) {
  return page.evaluate(() => ({
    brand: document.querySelector('#dg-topbar .site-brand')?.textContent ?? null,
    defaultTitle: document.querySelectorAll('#dg-topbar .dg-topbar-areas').length,
    banner: document.getElementById('site-banner')?.textContent ?? null,
    footer: document.querySelector('#dg-footer.site-footer p')?.textContent ?? null,
    h1: document.querySelector('.dg-article h1')?.firstChild?.textContent ?? null,
  }));
}

describe('a site’s own templates', () => {
  it('show without JavaScript', async () => {
    const page = await env.page({ javaScriptEnabled: false });
    await page.goto(env.url + INSTALL);
    const seen = await overrides(page);
    assert.deepEqual(seen, { brand: 'Override Brand', defaultTitle: 0, banner: 'Site banner: Installing', footer: 'Site footer for Installing, © 2001', h1: 'Installing' });
    assert.equal(await page.locator('#site-banner').isVisible(), true);
    await page.context().close();
  });

  it('stay when the app mounts, with its behaviour attached to them', async () => {
    const page = await env.page();
    await page.goto(env.url + INSTALL);
    await ready(page);
    const seen = await overrides(page);
    const year = String(new Date().getUTCFullYear());
    assert.deepEqual(seen, { brand: 'Override Brand', defaultTitle: 0, banner: 'Site banner: Installing', footer: `Site footer for Installing, © ${year}`, h1: 'Installing' });
    // The search finds its place in the site's top bar; the theme switch works.
    assert.equal(await page.locator('#dg-topbar').getByRole('search').count(), 1);
    const toggle = page.locator('#dg-topbar .dg-theme-toggle');
    const theme = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    await toggle.click();
    assert.notEqual(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), theme);
    assert.equal(await toggle.getAttribute('aria-pressed'), String(theme === 'light'));
    // The footer's consent button of the site's own footer opens the dialog.
    await page.locator('#dg-footer').getByRole('button', { name: 'Cookies Settings' }).click();
    await page.getByRole('dialog').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('show on a page the app navigated to, and again after Back', async () => {
    const page = await env.page();
    await page.goto(env.url + INSTALL);
    await ready(page);
    await page.evaluate(() => {
      window.stillHere = true;
    });
    await page.locator('.dg-article p a', { hasText: 'Using' }).click();
    await page.waitForFunction(() => document.querySelector('.dg-article h1')?.textContent?.startsWith('Using'));
    assert.equal(new URL(page.url()).pathname, USE);
    assert.equal(await page.evaluate(() => window.stillHere), true, 'no full reload');
    const year = String(new Date().getUTCFullYear());
    assert.deepEqual(await overrides(page), { brand: 'Override Brand', defaultTitle: 0, banner: 'Site banner: Using', footer: `Site footer for Using, © ${year}`, h1: 'Using' });
    assert.equal(await page.locator('#dg-topbar').getByRole('search').count(), 1, 'the search kept in the new top bar');
    assert.equal(await page.locator('#dg-menu [aria-current="page"]').textContent(), 'Using');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('.dg-article h1')?.textContent?.startsWith('Installing'));
    assert.equal((await overrides(page)).banner, 'Site banner: Installing');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
