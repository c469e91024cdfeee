// The site under its own Content-Security-Policy: this repository's site built, served with the
// headers of its `_headers` as a CDN sends them, and real pages driven in the browser. No page
// may trip the policy (a `securitypolicyviolation` event or a console error).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REAL_SITE, ready, start } from './harness.mjs';

const M = '/documentation/mediation';
const TABS = `${M}/godot/manual-integration-ios`;
const FAQ = '/documentation/skafaq';
const DSP_404 = '/documentation/dsp/no-such-page';

let env;

before(async () => {
  env = await start({ sources: REAL_SITE, headers: true });
});

after(async () => {
  await env?.stop();
});

/** A page that records every CSP violation from its first script on. */
async function open(route, { app = true } = {}) {
  const page = await env.page();
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const response = await page.goto(env.url + route);
  assert.match(response.headers()['content-security-policy'] ?? '', /script-src 'self' 'sha256-/, 'the policy is sent');
  if (app) await ready(page);
  await page.waitForLoadState('networkidle');
  return page;
}

async function assertClean(page) {
  const violations = await page.evaluate(() => window.__violations);
  assert.deepEqual(violations, []);
  assert.deepEqual(page.errors, []);
}

describe('the Content-Security-Policy of _headers', () => {
  it('reports a violation when there is one (the check can fail)', async () => {
    const page = await open(FAQ);
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.head.append(s);
    });
    await page.waitForFunction(() => window.__violations.length > 0);
    assert.equal(await page.evaluate(() => window.__ran), undefined);
  });

  it('a guide page with code tabs: its inline scripts run, the tabs switch', async () => {
    const page = await open(TABS);
    // The theme script before first paint ran.
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('dg-js')));
    const tabs = page.locator('.dg-code-tabs [role="tab"]');
    if ((await tabs.count()) > 1) await tabs.nth(1).click();
    await assertClean(page);
  });

  it('the FAQ', async () => {
    const page = await open(FAQ);
    await assertClean(page);
  });

  it('the DSP 404 page: its inline scripts run under the policy', async () => {
    const page = await open(DSP_404, { app: false });
    await page.waitForFunction(() => document.title !== '');
    assert.match(await page.locator('body').innerText(), /Unable to load the current page\./);
    await assertClean(page);
  });

  it('the search opened and a query typed', async () => {
    const page = await open(TABS);
    await page.keyboard.press('/');
    await page.getByRole('combobox', { name: 'Search' }).waitFor({ state: 'visible' });
    await page.keyboard.type('banner', { delay: 15 });
    await page.locator('[role="listbox"] .dg-search-page').first().waitFor();
    await page.waitForLoadState('networkidle');
    await assertClean(page);
  });

  it('a client-side navigation', async () => {
    const page = await open(TABS);
    const before = page.url();
    const link = page.locator(`#dg-main a[href^="${M}/"]:not([href*="#"])`).first();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL((u) => u.toString() !== before && u.pathname === href);
    await page.waitForLoadState('networkidle');
    // The document was not reloaded: the recorder of the first page is still there.
    assert.ok(Array.isArray(await page.evaluate(() => window.__violations)));
    await assertClean(page);
  });
});
