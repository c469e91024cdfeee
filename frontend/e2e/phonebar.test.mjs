// The table of contents as phones get it, on this repository's own site: a bar under the top
// bar, on phones only, that names the section being read as the reader scrolls and opens the
// table (an entry jumps there and closes it; Escape and a click elsewhere close it), in the light
// and the dark theme; no bar without a table; without scripts, the table in the page. And the
// SKAdNetwork FAQ on the shell of every page: breadcrumbs, the search, its sections as the table
// of contents following the scroll, the areas on screen at 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REAL_SITE, VIEWPORTS, box, ready, start } from './harness.mjs';

const SPEC = '/documentation/dsp/ortb-spec/bid-request';
const FAQ = '/documentation/skafaq';
const DSP_404 = '/documentation/dsp/nope';
/** The top bar's height (theme.css --dg-bar-height). */
const BAR = 48;

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

async function open(path, viewport, options = {}) {
  const page = await env.page({ viewport, ...options });
  await page.goto(env.url + path);
  if (options.javaScriptEnabled !== false) await ready(page);
  return page;
}

const toggle = (page) => page.locator('#dg-toc .dg-toc-toggle');
const current = (page) => page.locator('#dg-toc .dg-toc-current');
const list = (page) => page.locator('#dg-toc-list');

/** Scrolls a heading to just below the bars, as a reader would, and lets the scroll-spy see it. */
async function scrollToHeading(page, id) {
  await page.evaluate((i) => {
    const h = document.getElementById(i);
    window.scrollTo(0, window.scrollY + h.getBoundingClientRect().top - 110);
  }, id);
}

/** The headings of the page's table, in order: [id, text]. */
function entries(page) {
  return page.locator('#dg-toc-list a').evaluateAll((as) => as.map((a) => [decodeURIComponent(a.hash.slice(1)), a.textContent]));
}

const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the "On this page" bar', () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const phone = viewport.width < 768;
      it(`${name} (${viewport.width} px, ${colorScheme}): ${phone ? 'a bar under the top bar names the section being read' : 'no bar'}`, async () => {
        const page = await open(SPEC, viewport, { colorScheme });
        const headings = await entries(page);
        assert.ok(headings.length >= 8, `${headings.length} entries`);
        if (!phone) {
          assert.equal(await current(page).isVisible(), false, 'the section is named on phones only');
          assert.notEqual(await page.locator('#dg-toc').evaluate((el) => getComputedStyle(el).position), 'fixed');
          if (viewport.width >= 1200) assert.equal(await toggle(page).isVisible(), false, 'the table is a column');
          await page.context().close();
          return;
        }
        // At the top of the page it follows the breadcrumbs; scrolled, it stays under the top bar.
        const bar = await box(page, '#dg-toc > nav');
        const crumbs = await box(page, '#dg-breadcrumbs');
        assert.ok(bar.y >= crumbs.y + crumbs.height && bar.y < crumbs.y + crumbs.height + 16, JSON.stringify({ bar, crumbs }));
        assert.ok(bar.height >= 44 && bar.height <= 46 && bar.width === viewport.width, JSON.stringify(bar));
        // Opaque, in the theme's page colour: the article scrolls under it.
        const [barBg, pageBg] = await page.evaluate(() => [getComputedStyle(document.querySelector('#dg-toc > nav')).backgroundColor, getComputedStyle(document.body).backgroundColor]);
        assert.equal(barBg, pageBg);
        assert.equal(await current(page).textContent(), headings[0][1]);
        // Scrolling down: the bar stays and names each section in turn.
        for (const [id, text] of [headings[3], headings[6], headings[2]]) {
          await scrollToHeading(page, id);
          await page.waitForFunction((t) => document.querySelector('.dg-toc-current').textContent === t, text);
          const stuck = await box(page, '#dg-toc > nav');
          assert.equal(Math.round(stuck.y), BAR, `${id}: still under the top bar`);
          assert.equal(await toggle(page).getAttribute('aria-expanded'), 'false');
        }
        assert.equal(await sideways(page), 0);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }

  it('390 px: opens the table over the page; an entry scrolls there, below the bar, and closes it', async () => {
    const page = await open(SPEC, VIEWPORTS.phone);
    const headings = await entries(page);
    const main = await box(page, '#dg-main');
    await toggle(page).click();
    assert.equal(await toggle(page).getAttribute('aria-expanded'), 'true');
    await list(page).waitFor({ state: 'visible' });
    assert.deepEqual(await box(page, '#dg-main'), main, 'the list lies over the page, which does not move');
    const shown = await box(page, '#dg-toc-list');
    assert.ok(shown.y >= BAR + 44 && shown.y + shown.height <= VIEWPORTS.phone.height, `on screen: ${JSON.stringify(shown)}`);
    const [id, text] = headings[7];
    await list(page).getByRole('link', { name: text, exact: true }).click();
    await page.waitForFunction((h) => decodeURIComponent(location.hash) === `#${h}`, id);
    assert.equal(await toggle(page).getAttribute('aria-expanded'), 'false');
    assert.equal(await list(page).isVisible(), false);
    await page.waitForFunction((t) => document.querySelector('.dg-toc-current').textContent === t, text);
    await page.waitForFunction((h) => Math.abs(document.getElementById(h).getBoundingClientRect().top - 112) < 8, id);
    const heading = await box(page, `[id="${id}"]`);
    const bar = await box(page, '#dg-toc > nav');
    assert.ok(heading.y >= bar.y + bar.height, `the heading (${heading.y}) is not under the bar (${bar.y + bar.height})`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('390 px: Escape closes it and gives the focus back to the bar; so does a click elsewhere', async () => {
    const page = await open(SPEC, VIEWPORTS.phone);
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle(page).getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#dg-toc-list') !== null), true, 'Tab goes into the list');
    await page.keyboard.press('Escape');
    assert.equal(await toggle(page).getAttribute('aria-expanded'), 'false');
    assert.equal(await list(page).isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('dg-toc-toggle')), true, 'focus on the bar');
    await toggle(page).click();
    await list(page).waitFor({ state: 'visible' });
    // Below the open list, on the article.
    const shown = await box(page, '#dg-toc-list');
    await page.mouse.click(200, Math.min(shown.y + shown.height + 20, VIEWPORTS.phone.height - 4));
    assert.equal(await toggle(page).getAttribute('aria-expanded'), 'false');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('390 px: the same bar on a page reached client-side; none on a page without a table', async () => {
    const page = await open(DSP_404, VIEWPORTS.phone);
    assert.equal(await page.locator('.dg-toc-toggle').count(), 0);
    const top = await page.evaluate(() => document.elementFromPoint(195, 60)?.closest('#dg-toc'));
    assert.equal(top, null);
    await page.goto(`${env.url}/documentation/dsp`);
    await ready(page);
    await page.evaluate((href) => document.querySelector(`.dg-article a[href="${href}"], #dg-menu a[href="${href}"]`)?.click(), SPEC);
    await page.waitForFunction((p) => location.pathname === p, SPEC);
    const headings = await entries(page);
    await page.waitForFunction((t) => document.querySelector('.dg-toc-current')?.textContent === t, headings[0][1]);
    await scrollToHeading(page, headings[4][0]);
    await page.waitForFunction((t) => document.querySelector('.dg-toc-current').textContent === t, headings[4][1]);
    await page.context().close();
  });

  it('390 px without scripts: the table in the page, every heading linked', async () => {
    const page = await open(SPEC, VIEWPORTS.phone, { javaScriptEnabled: false });
    assert.equal(await toggle(page).isVisible(), false);
    assert.equal(await list(page).isVisible(), true);
    assert.equal(await page.locator('#dg-toc').evaluate((el) => getComputedStyle(el).position), 'static');
    assert.ok((await list(page).getByRole('link').count()) >= 8);
    await page.context().close();
  });
});

describe('the SKAdNetwork FAQ on the shell of every page', () => {
  const SECTIONS = [
    'iOS 14.5 update and advertising campaigns',
    'Changes to billing and attribution methods',
    'Changes in data granularity',
    'Details about your campaigns',
    'Creative testing',
    'Clarity around optimization and reporting',
  ];

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name} (${viewport.width} px): top bar with the search, breadcrumbs, menu, and its sections following the scroll`, async () => {
      const page = await open(FAQ, viewport);
      assert.equal(await page.locator('#dg-root > #dg-topbar').count(), 1);
      await page.locator('#dg-topbar [role="search"]').waitFor({ state: 'visible' });
      // The trail of an area's home is the page alone: kept hidden, as on every area's home.
      assert.deepEqual(await page.locator('#dg-breadcrumbs li').allTextContents(), ['SKAdNetwork FAQ']);
      assert.equal(await page.locator('#dg-menu a[aria-current="page"]').count(), 1);
      const toc = await entries(page);
      assert.deepEqual(toc.map(([, t]) => t), SECTIONS, 'the sections, not every question');
      for (const i of [2, 4]) {
        await scrollToHeading(page, toc[i][0]);
        await page.waitForFunction((t) => document.querySelector('#dg-toc-list a[aria-current]')?.textContent === t, SECTIONS[i]);
        if (viewport.width < 768) assert.equal(await current(page).textContent(), SECTIONS[i]);
      }
      if (viewport.width >= 1200) {
        // The table is a column beside the article, in view as the page scrolls.
        const [article, column] = [await box(page, '.dg-article'), await box(page, '#dg-toc')];
        assert.ok(column.x >= article.x + article.width - 1 && column.y >= 0 && column.y < viewport.height, JSON.stringify({ article, column }));
      }
      // The top bar's parts all fit on screen.
      for (const el of await page.locator('#dg-topbar > :is(a, button, [role="search"]), #dg-topbar .dg-topbar-areas a').all()) {
        if (!(await el.isVisible())) continue;
        const r = await el.boundingBox();
        assert.ok(r.x >= 0 && r.x + r.width <= viewport.width + 0.5, JSON.stringify(r));
      }
      assert.equal(await sideways(page), 0);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it('390 px: every area on screen, unclipped, in the menu; the top bar links to them at 820 px', async () => {
    const page = await open(FAQ, VIEWPORTS.phone);
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    const areas = page.locator('#dg-menu').getByRole('list', { name: 'Documentation areas' }).getByRole('link');
    assert.deepEqual(await areas.allTextContents(), ['MAX Mediation', 'Demand Partners', 'SKAdNetwork FAQ']);
    await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().left === 0);
    for (const a of await areas.all()) {
      const fits = await a.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.left >= 0 && r.right <= window.innerWidth && el.scrollWidth <= el.clientWidth;
      });
      assert.ok(fits, await a.textContent());
    }
    assert.equal(await page.locator('#dg-menu a[aria-current="true"]').textContent(), 'SKAdNetwork FAQ');
    await page.context().close();
    const tablet = await open(FAQ, VIEWPORTS.tablet);
    const links = tablet.locator('#dg-topbar').getByRole('navigation', { name: 'Documentation areas' }).getByRole('link');
    for (const a of await links.all()) {
      const r = await a.boundingBox();
      assert.ok(r.x >= 0 && r.x + r.width <= VIEWPORTS.tablet.width, JSON.stringify(r));
    }
    await tablet.context().close();
  });
});
