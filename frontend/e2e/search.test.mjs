// The site search on this repository's own site: queries land on the right pages, matches are
// marked, the keyboard works and leaves focus on the page chosen, a file that fails to load
// drops only its results, the FAQ page has the search too, and axe finds nothing with the
// search open, on a phone, a tablet and a desktop. What a query downloads: search-budget.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { REAL_SITE, holdAppUntilLaidOut, ready, recordShifts, start } from './harness.mjs';
import { search } from './searchCost.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const M = '/documentation/mediation';
const BANNERS = `${M}/android/ad-formats/banners`;
const FAQ = '/documentation/skafaq';

const PHONE = { width: 375, height: 740 };
const TABLET = { width: 768, height: 1024 };
const DESKTOP = { width: 1920, height: 1080 };

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

async function open(route = BANNERS, viewport = DESKTOP) {
  const page = await env.page({ viewport });
  await page.goto(env.url + route);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return page;
}

const input = (page) => page.getByRole('combobox', { name: 'Search' });
const listbox = (page) => page.getByRole('listbox', { name: 'Search results' });
/** The page options (not their sections) in order, as [href, title]. */
const pageResults = (page) =>
  page.locator('[role="listbox"] .dg-search-page').evaluateAll((els) => els.map((a) => [a.getAttribute('href'), a.querySelector('.dg-search-title')?.textContent]));

async function violations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

describe('search on the real site', () => {
  // bcat and badv: the bid request's field table is drawn by an island, not in the page's text,
  // so the pages that mention the fields in their text compete with it.
  const landings = [
    { query: 'bcat', page: '/documentation/dsp/ortb-spec/bid-request', within: 3 },
    { query: 'MaxInterstitialAd', page: `${M}/android/ad-formats/interstitials`, within: 1 },
    { query: 'GDPR deleted device IDs', page: '/documentation/dsp/gdpr-deleted-device-ids-api', within: 1 },
    { query: 'dsp_latency', page: '/documentation/dsp/reporting', within: 1 },
    { query: 'badv', page: '/documentation/dsp/ortb-spec/bid-request', within: 3 },
  ];
  for (const { query, page: expected, within } of landings) {
    it(`finds ${expected} for “${query}”`, async () => {
      const page = await open();
      await search(page, query);
      const results = await pageResults(page);
      assert.ok(
        results.slice(0, within).some(([href]) => href === expected),
        `${expected} in the first ${within}: ${results.map(([h]) => h).join(', ')}`,
      );
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it('finds the Liftoff Monetize pages for “liftoff”, and the iOS one with the iOS filter', async () => {
    const page = await open();
    await search(page, 'liftoff');
    const results = await pageResults(page);
    assert.equal(results[0]?.[1], 'Liftoff Monetize', JSON.stringify(results));
    await page.getByRole('combobox', { name: 'Platform' }).selectOption('iOS');
    await page.waitForFunction(() => document.querySelector('[role="listbox"] .dg-search-page')?.getAttribute('href')?.includes('/ios/'));
    assert.deepEqual((await pageResults(page))[0], [`${M}/ios/mediation-setup/liftoff`, 'Liftoff Monetize']);
    await page.getByRole('combobox', { name: 'Area' }).selectOption('Demand Partners');
    await page.locator('.dg-search-status', { hasText: 'No results for “liftoff”' }).waitFor();
    await page.context().close();
  });

  it('marks the matched words in the excerpts', async () => {
    const page = await open();
    await search(page, 'GDPR deleted device IDs');
    const marks = await page.locator('[role="listbox"] .dg-search-page').first().locator('mark').allTextContents();
    const words = new Set(marks.map((m) => m.toLowerCase()));
    for (const word of ['gdpr', 'deleted', 'device', 'ids']) assert.ok(words.has(word), `${word} marked: ${marks.join(', ')}`);

    await input(page).fill('MaxInterstitialAd ');
    await page.waitForFunction(() => document.querySelector('[role="listbox"] .dg-search-page')?.getAttribute('href')?.endsWith('/android/ad-formats/interstitials'));
    await page.waitForTimeout(300);
    const identifier = await page.locator('[role="listbox"] .dg-search-page').first().locator('mark').allTextContents();
    assert.ok(identifier.includes('MaxInterstitialAd'), identifier.join(', '));
    await page.context().close();
  });

  it('is driven by the keyboard: / and Ctrl+K open, arrows move, Enter opens the page in the app, Escape closes', async () => {
    const page = await open();
    await page.evaluate(() => {
      window.__sameDocument = true;
    });
    await page.keyboard.press('Control+KeyK');
    assert.equal(await input(page).evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Escape');

    // Escape gives focus back to where it was before `/`.
    await page.locator('.dg-article a[href]').first().focus();
    const before = await page.evaluate(() => document.activeElement.outerHTML);
    await search(page, 'bcat');
    await page.keyboard.press('Escape');
    assert.equal(await input(page).getAttribute('aria-expanded'), 'false');
    assert.equal(await listbox(page).isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement.outerHTML), before);

    await page.keyboard.press('/');
    await listbox(page).waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = await input(page).getAttribute('aria-activedescendant');
    const option = page.locator(`[id="${active}"]`);
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    const target = new URL(await option.getAttribute('href'), env.url);
    const title = await page.title();
    await page.keyboard.press('Enter');
    await page.waitForFunction((p) => window.location.pathname === p, target.pathname);
    await page.waitForFunction((t) => document.title !== t, title);
    assert.equal(await page.evaluate(() => window.location.hash), target.hash);
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'navigated inside the app, no reload');
    assert.equal(await input(page).getAttribute('aria-expanded'), 'false');
    // Focus is on the section chosen (or the page's title), not in the closed search box.
    const focused = await page.evaluate(() => ({ main: Boolean(document.activeElement?.closest('#dg-main')), id: document.activeElement?.id ?? '' }));
    assert.ok(focused.main, `focus in the page's content: ${JSON.stringify(focused)}`);
    if (target.hash) assert.equal(`#${focused.id}`, decodeURIComponent(target.hash));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('moves focus to the page chosen with a click', async () => {
    const page = await open();
    await search(page, 'liftoff');
    const first = page.locator('[role="listbox"] .dg-search-page').first();
    const target = new URL(await first.getAttribute('href'), env.url);
    await first.click();
    await page.waitForFunction((p) => window.location.pathname === p, target.pathname);
    await page.waitForFunction(() => document.activeElement?.closest('#dg-main') != null);
    assert.equal(await page.evaluate(() => document.activeElement.tagName), 'H1');
    assert.equal(await input(page).getAttribute('aria-expanded'), 'false');
    await page.context().close();
  });

  it('drops only the results of a file that fails to load, and says nothing failed', async () => {
    const baseline = await open();
    await search(baseline, 'liftoff');
    const all = await pageResults(baseline);
    await baseline.context().close();
    assert.ok(all.length >= 3, JSON.stringify(all));

    const page = await env.page();
    // The first excerpt file the query asks for is missing (a deploy half done, a CDN error).
    let missing = null;
    await page.route('**/_docgen/search/x/*', (route) => {
      const url = route.request().url();
      missing ??= url;
      return url === missing ? route.fulfill({ status: 404, body: 'not found' }) : route.continue();
    });
    await page.goto(env.url + BANNERS);
    await ready(page);
    // Pasted: had a prefix been looked up first, the file missing could be one only it needs.
    await search(page, 'liftoff', { whole: true });
    const rest = await pageResults(page);
    assert.ok(missing, 'an excerpt file was asked for');
    assert.ok(rest.length > 0 && rest.length < all.length, `some results left: ${JSON.stringify(rest)}`);
    assert.ok(rest.every((r) => all.some(([href]) => href === r[0])), 'the others, as they were');
    assert.equal(await page.locator('.dg-search-status', { hasText: 'Search failed' }).count(), 0);

    // A shard: the words in it are dropped, the others answer.
    const other = await env.page();
    await other.route('**/_docgen/search/s/*', async (route) => {
      const body = await (await route.fetch()).text();
      // The shard holding "liftoff" fails; the one of "interstitial" loads.
      return body.includes('"liftoff"') ? route.fulfill({ status: 404, body: 'not found' }) : route.continue();
    });
    await other.goto(env.url + BANNERS);
    await ready(other);
    await search(other, 'interstitial liftoff ', { whole: true });
    assert.ok((await pageResults(other)).length > 0);
    assert.equal(await other.locator('.dg-search-status', { hasText: 'Search failed' }).count(), 0);
    assert.deepEqual(page.errors.filter((e) => !e.includes('404')), []);
    await page.context().close();
    await other.context().close();
  });

  it('is on the FAQ page too, in its top bar', async () => {
    const page = await open(FAQ);
    assert.equal(await page.locator('#dg-topbar [role="search"]').count(), 1);
    await search(page, 'interstitial');
    assert.ok((await pageResults(page)).length > 0);
    await page.keyboard.press('Enter');
    await page.waitForFunction((p) => window.location.pathname !== p, FAQ);
    await ready(page);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), null, 'focus not left in a search box');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('says when nothing matches', async () => {
    const page = await open();
    await search(page, 'zzqxjvk');
    // The platform filter starts on the page's platform (Android): the status offers to drop it.
    assert.equal(await page.locator('.dg-search-status').textContent(), 'No results for “zzqxjvk”Search all areas and platforms');
    assert.equal(await input(page).getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('status').filter({ hasText: 'No results' }).count(), 1);
    await page.context().close();
  });

  for (const [name, viewport] of [
    ['a phone', PHONE],
    ['a tablet', TABLET],
    ['a desktop', DESKTOP],
  ]) {
    it(`appears without moving anything, and axe finds no violations with the results open, on ${name}`, async () => {
      const page = await env.page({ viewport });
      // What the search's mount moves, counted from the whole document laid out: the parser's
      // own paints of a half-read element are not the search's (stability.test.mjs).
      await page.addInitScript(recordShifts);
      await holdAppUntilLaidOut(page);
      await page.goto(env.url + BANNERS);
      await ready(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await page.evaluate(() => window.__shiftsSince(window.__laidOut)), [], 'no layout shift when the search appears');

      const searchLandmark = page.getByRole('search');
      const landmark = await searchLandmark.boundingBox();
      assert.ok(landmark && landmark.x >= 0 && landmark.x + landmark.width <= viewport.width, `the search is on screen: ${JSON.stringify(landmark)}`);
      if (viewport.width < 1024) {
        // A button in the bar; it opens a panel as wide as the screen.
        await page.getByRole('button', { name: 'Search' }).click();
        await input(page).waitFor({ state: 'visible' });
        assert.equal(await input(page).evaluate((el) => el === document.activeElement), true);
        await page.keyboard.type('interstitial', { delay: 15 });
        const panel = await page.locator('.dg-search-panel').boundingBox();
        assert.equal(Math.round(panel.width), viewport.width);
      } else {
        await search(page, 'interstitial');
      }
      await listbox(page).waitFor({ state: 'visible' });
      await page.keyboard.press('ArrowDown');
      assert.deepEqual(await violations(page), []);

      // Escape closes it, back to the button on narrow screens.
      await page.keyboard.press('Escape');
      assert.equal(await listbox(page).isVisible(), false);
      if (viewport.width < 1024) {
        assert.equal(await page.getByRole('button', { name: 'Search' }).evaluate((el) => el === document.activeElement), true);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
