// Display blocks in a browser: code boxes, paged tables, popover, tooltip, gated items.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { M, VIEWPORTS, fixture, ready, start } from './harness.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

async function open(path, options) {
  const page = await env.page(options);
  await page.goto(env.url + path);
  await ready(page);
  return page;
}

describe('code box', () => {
  it('switches tabs by mouse and keyboard', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    const group = page.locator('#dg-code-0');
    const tabs = group.getByRole('tab');
    assert.deepEqual(await tabs.allTextContents(), ['Kotlin', 'Java', 'Gradle']);
    assert.equal(await group.getByRole('tabpanel').getAttribute('id'), 'dg-code-0-panel-0');
    await tabs.nth(1).click();
    assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
    assert.match(await group.getByRole('tabpanel').textContent(), /MaxAdView adView = new MaxAdView/);
    assert.equal(await group.locator('.dg-code-panel:visible').count(), 1);
    await page.keyboard.press('ArrowRight');
    assert.equal(await tabs.nth(2).evaluate((t) => t === document.activeElement && t.getAttribute('aria-selected') === 'true'), true);
    await page.keyboard.press('Home');
    assert.equal(await tabs.nth(0).getAttribute('aria-selected'), 'true');
    const single = page.locator('#dg-code-1');
    assert.equal(await single.getByRole('tab').count(), 0);
    assert.equal(await single.locator('.dg-code-label').textContent(), 'Kotlin');
    await page.context().close();
  });

  it('copies the selected snippet to the clipboard, with the placeholder key on a static site', async () => {
    const page = await open(`${M}/android/ad-formats/banners`, { permissions: ['clipboard-read', 'clipboard-write'] });
    const group = page.locator('#dg-code-0');
    await group.getByRole('tab', { name: 'Java' }).click();
    await group.getByRole('button', { name: 'Copy' }).click();
    await group.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, 'MaxAdView adView = new MaxAdView("YOUR_AD_UNIT_ID", context);\nAppLovinSdk.initialize("YOUR_SDK_KEY");\nadView.loadAd();\n');
    assert.deepEqual(page.errors, [], 'the missing key is no error');
    await page.context().close();
  });

  // The spec's light/dark background of the code boxes: one choice for every box, light by
  // default, remembered, and independent of the site's theme (inside a box, the box's choice wins).
  const LIGHT_CODE = 'rgb(246, 248, 250)';
  const DARK_CODE = 'rgb(21, 27, 35)';
  const backgrounds = (page) => page.locator('.dg-code').evaluateAll((boxes) => boxes.map((b) => getComputedStyle(b).backgroundColor));
  const pressed = (page) => page.locator('.dg-code').getByRole('button', { name: 'Dark code background' }).evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-pressed')));

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name} (${viewport.width} px): every box switches between light and dark at once, remembered across reloads and pages`, async () => {
      const page = await open(`${M}/android/ad-formats/banners`, { viewport, colorScheme: 'light' });
      assert.deepEqual(await backgrounds(page), [LIGHT_CODE, LIGHT_CODE, LIGHT_CODE], 'light by default');
      assert.deepEqual(await pressed(page), ['false', 'false', 'false']);
      const keyword = () => page.locator('#dg-code-1 .hl-k, #dg-code-0 .hl-k').first().evaluate((el) => getComputedStyle(el).color);
      const lightKeyword = await keyword();
      // The switch sits in the bar beside Copy, inside the box.
      const bar = await page.locator('#dg-code-1 .dg-code-bar').boundingBox();
      for (const button of ['Dark code background', 'Copy']) {
        const b = await page.locator('#dg-code-1').getByRole('button', { name: button }).boundingBox();
        assert.ok(b.x >= bar.x && b.x + b.width <= bar.x + bar.width && b.y >= bar.y && b.y + b.height <= bar.y + bar.height, `${button} inside the bar`);
      }
      await page.locator('#dg-code-2').getByRole('button', { name: 'Dark code background' }).click();
      assert.deepEqual(await backgrounds(page), [DARK_CODE, DARK_CODE, DARK_CODE]);
      assert.deepEqual(await pressed(page), ['true', 'true', 'true']);
      assert.notEqual(await keyword(), lightKeyword, 'the highlighting has a palette of its own on dark');
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)', 'the page keeps its theme');
      await page.reload();
      await ready(page);
      assert.deepEqual(await backgrounds(page), [DARK_CODE, DARK_CODE, DARK_CODE], 'remembered across a reload');
      assert.deepEqual(await pressed(page), ['true', 'true', 'true']);
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.querySelector('#dg-menu a[href$="/ad-formats/interstitials"]').click());
      await page.waitForFunction(() => document.title.startsWith('Interstitials'));
      assert.deepEqual(await backgrounds(page), [DARK_CODE], 'and on the next page');
      await page.locator('.dg-code').first().getByRole('button', { name: 'Dark code background' }).click();
      assert.deepEqual(await backgrounds(page), [LIGHT_CODE]);
      assert.equal(await page.evaluate(() => localStorage.getItem('dg-code-bg')), null, 'light, the default, is stored as nothing');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name} (${viewport.width} px): a long file name gives way to Copy, cut with an ellipsis and whole in its title, and nothing scrolls sideways`, async () => {
      const page = await open(`${M}/reference/blocks`, { viewport });
      const box = page.locator('.dg-code').filter({ hasText: 'applovin.sdk.key' });
      const label = box.locator('.dg-code-label');
      assert.equal(await label.getAttribute('title'), 'android/app/src/main/AndroidManifest.xml');
      const outer = await box.boundingBox();
      for (const button of ['Dark code background', 'Copy']) {
        const b = await box.getByRole('button', { name: button }).boundingBox();
        assert.ok(b.x >= outer.x && b.x + b.width <= outer.x + outer.width, `${button} inside the box: ${JSON.stringify(b)} in ${JSON.stringify(outer)}`);
      }
      const cut = await label.evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, overflow: getComputedStyle(el).textOverflow }));
      assert.equal(cut.overflow, 'ellipsis');
      if (viewport.width <= 390) assert.ok(cut.cut, 'the path is cut on a phone');
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll');
      await page.context().close();
    });
  }

  it('keeps its own choice in the dark theme: light boxes on a dark page until switched', async () => {
    const page = await open(`${M}/android/ad-formats/banners`, { colorScheme: 'dark' });
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark');
    assert.deepEqual(await backgrounds(page), [LIGHT_CODE, LIGHT_CODE, LIGHT_CODE]);
    await page.locator('#dg-code-0').getByRole('button', { name: 'Dark code background' }).click();
    assert.deepEqual(await backgrounds(page), [DARK_CODE, DARK_CODE, DARK_CODE]);
    // Switching the site's theme leaves the boxes' choice alone.
    await page.getByRole('banner').getByRole('button', { name: 'Dark theme' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), 'light');
    assert.deepEqual(await backgrounds(page), [DARK_CODE, DARK_CODE, DARK_CODE]);
    await page.context().close();
  });

  it('is dark from the first paint when chosen, before the app runs, and its switch needs the app', async () => {
    const page = await env.page();
    await page.goto(env.url + `${M}/android/ad-formats/banners`);
    await page.evaluate(() => localStorage.setItem('dg-code-bg', 'dark'));
    await page.route('**/s/docgen/app.*.js', (route) => route.abort());
    await page.reload();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-dg-app')), null, 'the app did not run');
    assert.deepEqual(await backgrounds(page), [DARK_CODE, DARK_CODE, DARK_CODE]);
    await page.context().close();
    // Without scripts there is no switch (nothing could make it work).
    const still = await env.page({ javaScriptEnabled: false });
    await still.goto(env.url + `${M}/android/ad-formats/banners`);
    assert.equal(await still.locator('.dg-code-bg-toggle:visible').count(), 0);
    await still.context().close();
  });
});

describe('code tabs synced by label', () => {
  const selected = (page) => page.locator('.dg-code [role="tab"][aria-selected="true"]').allTextContents();

  it('selects the chosen label in every box of the page, and on later pages and reloads', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    assert.deepEqual(await selected(page), ['Kotlin', 'Java'], 'each box opens on its first tab');
    await page.locator('#dg-code-0').getByRole('tab', { name: 'Gradle' }).click();
    assert.deepEqual(await selected(page), ['Gradle', 'Java'], 'a box without the label keeps its tab');
    await page.locator('#dg-code-2').getByRole('tab', { name: 'Kotlin' }).click();
    assert.deepEqual(await selected(page), ['Kotlin', 'Kotlin']);
    await page.locator('#dg-code-0').getByRole('tab', { name: 'Java' }).click();
    assert.deepEqual(await selected(page), ['Java', 'Java']);
    assert.match(await page.locator('#dg-code-2').getByRole('tabpanel').textContent(), /adView\.setListener\(listener\);/);
    await page.waitForLoadState('networkidle');
    await page.click('#dg-menu a[href$="/ad-formats/interstitials"]');
    await page.waitForFunction(() => document.title.startsWith('Interstitials'));
    assert.deepEqual(await selected(page), ['Java'], 'the next page opens on Java, its second tab');
    assert.match(await page.getByRole('tabpanel').textContent(), /MaxInterstitialAd ad = new/);
    await page.reload();
    await ready(page);
    assert.deepEqual(await selected(page), ['Java'], 'and so does a reload');
    // Another reader (a fresh browser) gets the first tabs.
    const other = await open(`${M}/android/ad-formats/interstitials`);
    assert.deepEqual(await selected(other), ['Kotlin']);
    await other.context().close();
    await page.context().close();
  });

  it('keeps the chosen tab under the pointer while a box above changes height', async () => {
    const page = await open(`${M}/android/ad-formats/banners`, { viewport: { width: 390, height: 844 } });
    await page.locator('#dg-code-0').getByRole('tab', { name: 'Gradle' }).click();
    const tab = page.locator('#dg-code-2').getByRole('tab', { name: 'Kotlin' });
    await tab.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -200));
    const [before, firstBox] = [await tab.boundingBox(), (await page.locator('#dg-code-0').boundingBox()).height];
    await tab.click();
    assert.ok((await page.locator('#dg-code-0').boundingBox()).height > firstBox + 40, 'the first box grew (Gradle → Kotlin)');
    const after = await tab.boundingBox();
    assert.ok(Math.abs(after.y - before.y) < 1, `the tab stayed at ${before.y}, not ${after.y}`);
    await page.context().close();
  });
});

describe('paged table', () => {
  it('pages 120 rows 50 at a time, with 100 and 500 per page too', async () => {
    const page = await open(`${M}/reference/tables`);
    const table = page.locator('.dg-table').first();
    const rows = table.locator('tbody tr:visible');
    const first = () => rows.first().locator('td').first().textContent();
    assert.equal(await rows.count(), 50);
    const pager = table.getByRole('group', { name: 'Table pages' });
    assert.match(await pager.textContent(), /1–50 of 120.*Page 1 of 3/);
    await pager.getByRole('button', { name: 'Next page' }).click();
    assert.equal(await first(), 'Network 051');
    await pager.getByRole('button', { name: 'Next page' }).click();
    assert.equal(await rows.count(), 20);
    assert.equal(await pager.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await pager.getByRole('combobox', { name: 'Rows per page' }).selectOption('100');
    assert.match(await pager.textContent(), /101–120 of 120.*Page 2 of 2/);
    await pager.getByRole('combobox', { name: 'Rows per page' }).selectOption('500');
    assert.equal(await rows.count(), 120);
    assert.match(await pager.textContent(), /Page 1 of 1/);
    await page.context().close();
  });

  it('says "No Results" for an empty table', async () => {
    const page = await open(`${M}/reference/tables`);
    const empty = page.locator('.dg-table').nth(1);
    assert.equal(await empty.locator('tbody tr:visible').count(), 0);
    assert.equal(await empty.locator('.dg-table-empty').textContent(), 'No Results');
    assert.equal(await empty.getByRole('group', { name: 'Table pages' }).count(), 0);
    await page.context().close();
  });

  // The spec shows the pager only when the total exceeds 50 rows.
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name} (${viewport.width} px): 50 rows have no pager, 51 have one, and the pager's room is kept from the first paint`, async () => {
      const tables = (page) => page.locator('.dg-table').evaluateAll((ts) => ts.slice(2).map((t) => t.getBoundingClientRect().height));
      const blocked = await env.page({ viewport });
      await blocked.route('**/s/docgen/app.*.js', (route) => route.abort());
      await blocked.goto(env.url + `${M}/reference/tables`);
      const before = await tables(blocked);
      await blocked.context().close();

      const page = await open(`${M}/reference/tables`, { viewport });
      const [fifty, fiftyOne] = [page.locator('.dg-table').nth(2), page.locator('.dg-table').nth(3)];
      assert.equal(await fifty.locator('tbody tr:visible').count(), 50);
      assert.equal(await fifty.getByRole('group', { name: 'Table pages' }).count(), 0, 'no pager on exactly 50 rows');
      assert.equal(await fiftyOne.locator('tbody tr:visible').count(), 50);
      const pager = fiftyOne.getByRole('group', { name: 'Table pages' });
      assert.match(await pager.textContent(), /1–50 of 51.*Page 1 of 2/);
      await pager.getByRole('button', { name: 'Next page' }).click();
      assert.deepEqual(await fiftyOne.locator('tbody tr:visible td:first-child').allTextContents(), ['Partner 051']);
      await pager.getByRole('button', { name: 'Previous page' }).click();
      assert.deepEqual(await tables(page), before, 'the tables are as high as before the app ran');
      await page.context().close();
    });
  }
});

describe('popover and tooltip', () => {
  it('opens a popover on its header and closes it on a click outside', async () => {
    const page = await open(`${M}/reference/blocks`);
    const header = page.getByRole('button', { name: 'Supported formats' });
    const content = page.getByText('Banner, MREC, interstitial, rewarded and native.');
    assert.equal(await content.isVisible(), false);
    await header.click();
    assert.equal(await content.isVisible(), true);
    await page.mouse.click(900, 700);
    assert.equal(await content.isVisible(), false);
    await header.click();
    await content.click();
    await page.waitForTimeout(150);
    assert.equal(await content.isVisible(), false, 'closes 50 ms after a click on its content');
    await page.context().close();
  });

  it('shows a tooltip on hover, at most 300 px wide, described by aria-describedby', async () => {
    const page = await open(`${M}/reference/blocks`);
    const term = page.getByText('CPM', { exact: true });
    const tip = page.locator(`#${(await term.getAttribute('aria-describedby')).replace(/:/g, '\\:')}`);
    assert.equal(await tip.getAttribute('role'), 'tooltip');
    assert.equal(await tip.isVisible(), false);
    await term.hover();
    assert.equal(await tip.isVisible(), true);
    assert.equal(await tip.textContent(), 'Cost per mille: the price of a thousand impressions.');
    assert.ok((await tip.boundingBox()).width <= 300);
    await page.context().close();
  });
});

describe('feature and permission gates', () => {
  it('hides what needs a feature that is off or permissions (no login), shows what is enabled', async () => {
    const page = await open(`${M}/reference/gates`);
    assert.equal(await page.locator('#gated-beta').isVisible(), true);
    for (const id of ['#gated-labs', '#gated-all', '#gated-one']) assert.equal(await page.locator(id).isVisible(), false, id);
    await page.context().close();
  });

  it('leaves islands it does not know with their fallback', async () => {
    const page = await open(`${M}/reference/blocks`);
    assert.equal(await page.locator('[data-dg-block="no-such-block"]').textContent(), 'Add com.example:sdk to your build.');
    await page.context().close();
  });
});

describe('a page with a layout of its own', () => {
  // A site's own template without the shell (no #dg-root): the app still mounts its islands.
  const STANDALONE = `{% extends "base.html" %}
{% import "macros.html" as shell %}
{% block body %}
<div class="standalone">
{{ shell.article_main(page, "dg-main") }}
{{ shell.page_end(footer) }}
</div>
<script id="dg-page-data" type="application/json">{{ page_data|safe }}</script>
{% endblock %}
`;
  let own;
  let tmp;
  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'docgen-standalone-'));
    const site = path.join(tmp, 'site');
    cpSync(fixture, site, { recursive: true });
    mkdirSync(path.join(site, 'templates'), { recursive: true });
    writeFileSync(path.join(site, 'templates/faq.html'), STANDALONE);
    own = await start({ site });
  });
  after(async () => {
    await own?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('gets its islands, the current year and the consent dialog', async () => {
    const page = await own.page();
    await page.goto(`${own.url}/documentation/faq`);
    await ready(page);
    assert.equal(await page.locator('#dg-root').count(), 0);
    assert.equal(await page.locator('.standalone .dg-article').count(), 1);
    const table = page.locator('.dg-table');
    assert.equal(await table.locator('tbody tr:visible').count(), 50);
    await table.getByRole('button', { name: 'Next page' }).click();
    assert.equal(await table.locator('tbody tr:visible').count(), 10);
    assert.equal(await page.locator('.dg-code').getByRole('button', { name: 'Copy' }).count(), 1);
    assert.equal(await page.locator('.dg-year').textContent(), String(new Date().getUTCFullYear()));
    await page.locator('#dg-footer button[data-action="consent"]').click();
    await page.getByRole('dialog', { name: 'Cookie settings' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
