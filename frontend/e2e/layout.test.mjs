// The shell at the sizes readers use: phones (390 px), tablets (820 px), laptops (1280 and
// 1440 px). The menu drawer, the breadcrumbs, the folded table of contents, the width left to the
// article, print, back to top and the new-tab hint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { M, VIEWPORTS as SIZES, box, ready, start } from './harness.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

const NARROW = [SIZES.phone, SIZES.tablet];

async function open(path, viewport, options = {}) {
  const page = await env.page({ viewport, ...options });
  await page.goto(env.url + path);
  if (options.javaScriptEnabled !== false) await ready(page);
  return page;
}

const deep = `${M}/android/ad-formats/native/manual`;
const banners = `${M}/android/ad-formats/banners`;
const long = `${M}/android/advanced-settings`;

/** How far the page scrolls sideways (0 when it fits the window). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const focusedInMenu = (page) => page.evaluate(() => document.getElementById('dg-menu').contains(document.activeElement));

describe('every size', () => {
  for (const [name, viewport] of Object.entries(SIZES)) {
    it(`${name} (${viewport.width} px): nothing scrolls sideways, breadcrumbs do not overlap, the title is on the first screen`, async () => {
      const paths = [deep, banners, `${M}/reference/tables`, `${M}/reference/blocks`, long, M, '/documentation/dsp/ortb-spec/bid-request', '/documentation/faq', '/documentation/dsp/nope'];
      await env.visitEach(paths, { viewport }, async (page, path) => {
        assert.equal(await sideways(page), 0, `${path} scrolls sideways`);
        const h1 = await box(page, 'main h1');
        assert.ok(h1.y >= 0 && h1.y + h1.height <= viewport.height, `${path}: the title is within the first screen (${JSON.stringify(h1)})`);
        const crumbs = await page.locator('#dg-breadcrumbs li').evaluateAll((lis) =>
          lis.map((li) => {
            const r = li.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }),
        );
        for (let i = 0; i < crumbs.length; i++) {
          const c = crumbs[i];
          if (c.width === 0) continue;
          assert.ok(c.x >= 0 && c.x + c.width <= viewport.width, `${path}: crumb ${i} inside the window`);
          for (let j = i + 1; j < crumbs.length; j++) assert.ok(!overlaps(c, crumbs[j]), `${path}: crumbs ${i} and ${j} overlap`);
        }
        assert.deepEqual(page.errors, []);
      });
    });
  }

  it('breadcrumb links keep their focus ring whole', async () => {
    for (const viewport of [SIZES.phone, SIZES.laptop]) {
      const page = await open(deep, viewport);
      const link = page.locator('#dg-breadcrumbs a').first();
      await link.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const ring = await link.evaluate((a) => {
        const s = getComputedStyle(a);
        const grow = parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset);
        const r = a.getBoundingClientRect();
        const clip = a.closest('ol').getBoundingClientRect();
        return { visible: a.matches(':focus-visible') && s.outlineStyle !== 'none', grow, inside: r.left - grow >= clip.left && r.top - grow >= clip.top && r.bottom + grow <= clip.bottom };
      });
      assert.ok(ring.visible && ring.grow > 0, JSON.stringify(ring));
      assert.ok(ring.inside, `the ring fits the list that clips it (${viewport.width} px)`);
      await page.context().close();
    }
  });
});

describe('phones and tablets', () => {
  for (const viewport of NARROW) {
    it(`${viewport.width} px: the menu is a drawer: focus moves in and stays, Escape closes, focus returns`, async () => {
      const page = await open(banners, viewport);
      const button = page.getByRole('banner').getByRole('button', { name: 'Menu' });
      const menu = page.locator('#dg-menu');
      assert.equal(await button.isVisible(), true);
      assert.equal(await menu.isVisible(), false, 'closed, the drawer is out of sight');
      assert.equal(await page.locator('#dg-menu a').first().evaluate((a) => a.checkVisibility({ visibilityProperty: true })), false);
      await button.click();
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().x === 0);
      assert.equal(await menu.isVisible(), true);
      assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Banners', 'focus on the current page’s link');
      const drawer = await box(page, '#dg-menu');
      assert.ok(drawer.height === viewport.height && drawer.width <= 320, JSON.stringify(drawer));
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
        assert.equal(await focusedInMenu(page), true, `focus inside after ${i + 1} presses`);
      }
      // The page behind cannot be reached or scrolled.
      assert.equal(await page.locator('#dg-main').getAttribute('inert'), '');
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), 'hidden');
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => getComputedStyle(document.getElementById('dg-menu')).visibility === 'hidden');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus back on the button');
      assert.equal(await page.locator('#dg-main').getAttribute('inert'), null);
      // The close button and the backdrop close it too.
      await button.click();
      await page.getByRole('button', { name: 'Close menu' }).click();
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      await button.click();
      await page.locator('.dg-menu-backdrop').click({ position: { x: viewport.width - 10, y: viewport.height / 2 } });
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    it(`${viewport.width} px: tapping a menu link closes the drawer and shows the page`, async () => {
      const page = await open(banners, { ...viewport }, { hasTouch: true, isMobile: viewport.width < 500 });
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => window.scrollTo(0, 400));
      const button = page.getByRole('banner').getByRole('button', { name: 'Menu' });
      await button.tap();
      await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().x === 0);
      await page.locator('#dg-menu').getByRole('link', { name: 'Interstitials' }).tap();
      await page.waitForFunction(() => document.title.startsWith('Interstitials'));
      await page.waitForFunction(() => getComputedStyle(document.getElementById('dg-menu')).visibility === 'hidden');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      const h1 = await box(page, 'main h1');
      assert.ok(h1.y > 0 && h1.y + h1.height < viewport.height, 'the new page’s title is in view');
      assert.equal(await page.locator('.dg-menu-backdrop').count(), 0);
      assert.equal(await page.locator('#dg-main').getAttribute('inert'), null);
      await page.context().close();
    });

    it(`${viewport.width} px: the areas can be reached, and the table of contents folds above the article`, async () => {
      const page = await open(deep, viewport);
      const areasInBar = page.locator('#dg-topbar .dg-topbar-areas a');
      if (viewport.width < 768) {
        assert.equal(await areasInBar.first().isVisible(), false, 'no squeezed areas in the bar');
        await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
        const areas = page.locator('#dg-menu').getByRole('list', { name: 'Documentation areas' });
        await areas.waitFor();
        for (const a of await areas.getByRole('link').all()) {
          const r = await a.boundingBox();
          assert.ok(r.width > 100 && r.height >= 36, `a finger-sized area link: ${JSON.stringify(r)}`);
        }
        assert.equal(await areas.getByRole('link', { name: 'Mediation' }).getAttribute('aria-current'), 'true');
        await areas.getByRole('link', { name: 'Demand Partners' }).click();
      } else {
        for (const a of await areasInBar.all()) {
          const r = await a.boundingBox();
          assert.ok(r.width > 60 && r.x + r.width <= viewport.width - 90, `an area link in full, clear of the buttons: ${JSON.stringify(r)}`);
        }
        await areasInBar.filter({ hasText: 'Demand Partners' }).click();
      }
      await page.waitForFunction(() => location.pathname === '/documentation/dsp');
      await page.goto(env.url + long);
      await ready(page);
      const toggle = page.getByRole('button', { name: 'On this page' });
      const list = page.locator('#dg-toc-list');
      assert.equal(await toggle.isVisible(), true);
      assert.equal(await list.isVisible(), false);
      const [t, main] = [await box(page, '#dg-toc'), await box(page, '#dg-main')];
      assert.ok(t.y < main.y, 'above the article');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      await list.getByRole('link', { name: 'Mute Audio' }).click();
      await page.waitForFunction(() => location.hash === '#mute-audio');
      assert.equal(await list.isVisible(), false, 'folded again after an entry is followed');
      const target = await box(page, '#mute-audio');
      assert.ok(target.y >= 48 && target.y < 120, `the heading clears the top bar: ${target.y}`);
      await page.context().close();
    });

    it(`${viewport.width} px without scripts: no dead controls, the menu below the page and a link to it`, async () => {
      const page = await open(deep, viewport, { javaScriptEnabled: false });
      for (const name of ['Menu', 'Dark theme', 'Close menu', 'On this page', 'Back to top']) {
        assert.equal(await page.getByRole('button', { name }).count(), 0, `no ${name} button without scripts`);
      }
      const jump = page.getByRole('banner').getByRole('link', { name: 'Menu' });
      assert.equal(await jump.getAttribute('href'), '#dg-menu');
      const [menu, main] = [await box(page, '#dg-menu'), await box(page, '#dg-main')];
      assert.ok(menu.y >= main.y + main.height, 'the menu follows the page');
      await jump.click();
      await page.waitForFunction(() => location.hash === '#dg-menu');
      const shown = await box(page, '#dg-menu');
      assert.ok(Math.round(shown.y) >= 48 && shown.y < viewport.height / 2, `the link brings the menu into view, clear of the top bar: ${shown.y}`);
      if (viewport.width < 768) assert.equal(await page.locator('#dg-menu').getByRole('list', { name: 'Documentation areas' }).getByRole('link').count(), 2);
      assert.equal(await page.locator('#dg-toc-list').isVisible(), true, 'the table of contents is open');
      await page.context().close();
    });
  }
});

describe('the FAQ on a phone', () => {
  it('390 px: the FAQ has the shell of every page: every area in the menu drawer, on screen, without sideways scroll', async () => {
    const page = await open('/documentation/faq', SIZES.phone);
    assert.equal(await page.locator('#dg-root #dg-topbar').count(), 1);
    await page.getByRole('button', { name: 'Menu' }).click();
    const areas = page.locator('#dg-menu').getByRole('list', { name: 'Documentation areas' });
    const links = await areas.getByRole('link').all();
    assert.ok(links.length >= 2, `the areas: ${links.length}`);
    // Once the drawer has slid in.
    await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().left === 0);
    for (const a of links) {
      const r = await a.boundingBox();
      assert.ok(r.x >= 0 && r.x + r.width <= SIZES.phone.width, `on screen: ${JSON.stringify(r)}`);
    }
    assert.equal(await sideways(page), 0);
    await areas.getByRole('link', { name: 'Demand Partners' }).click();
    await page.waitForFunction(() => location.pathname === '/documentation/dsp');
    await page.context().close();
  });
});

describe('laptops and wider', () => {
  for (const viewport of [SIZES.laptop, SIZES.wide]) {
    it(`${viewport.width} px: the article keeps at least 680 px beside the menu and the table of contents`, async () => {
      const page = await open(long, viewport);
      const [menu, article, toc] = [await box(page, '#dg-menu'), await box(page, '.dg-article'), await box(page, '#dg-toc')];
      assert.ok(article.width >= 680, `article ${article.width} px`);
      assert.ok(menu.x === 0 && menu.width === 260, JSON.stringify(menu));
      assert.ok(toc.x >= article.x + article.width && toc.x + toc.width <= viewport.width, `the table of contents is a column of its own: ${JSON.stringify(toc)}`);
      assert.ok(toc.width >= 240, `toc ${toc.width} px`);
      assert.equal(await page.getByRole('button', { name: 'Menu' }).isVisible(), false);
      assert.equal(await page.getByRole('button', { name: 'On this page' }).isVisible(), false);
      assert.equal(await page.locator('#dg-toc-list').isVisible(), true);
      await page.context().close();
    });
  }

  it('the menu stays under the bars at the bottom of a page, beside the footer', async () => {
    const page = await open(long, SIZES.laptop);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1);
    const [menu, footer] = [await box(page, '#dg-menu'), await box(page, '#dg-footer')];
    assert.equal(menu.y, 96, 'not slid under the top bar and the breadcrumbs');
    assert.equal(menu.y + menu.height, SIZES.laptop.height);
    assert.ok(footer.y < SIZES.laptop.height && footer.x >= menu.x + menu.width, `the footer is beside it: ${JSON.stringify(footer)}`);
    await page.context().close();
  });

  it('draws every menu chevron at the same place in its row', async () => {
    const page = await open(deep, SIZES.laptop);
    const spots = await page.locator('#dg-menu :is(.dg-menu-caret, .dg-menu-toggle)').evaluateAll((els) =>
      els.map((el) => {
        const pseudo = el.matches('.dg-menu-caret') ? '::before' : '::after';
        const s = getComputedStyle(el, pseudo);
        const row = el.parentElement.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        // The chevron's box from the row's right edge and top.
        return [Math.round(row.right - r.right + parseFloat(s.right)), Math.round(r.top - row.top + parseFloat(s.top)), s.width, s.height];
      }),
    );
    assert.ok(spots.length >= 6, `${spots.length} chevrons`);
    assert.deepEqual(new Set(spots.map((s) => s.join(' '))).size, 1, JSON.stringify(spots));
    await page.context().close();
  });
});

describe('the menu from the keyboard', () => {
  it('takes one Tab stop per section: the link, whose arrow keys open and close it', async () => {
    const page = await open(banners, SIZES.laptop);
    await page.waitForLoadState('networkidle');
    const link = page.locator('#dg-menu a', { hasText: /^Mediation Setup$/ });
    const caret = page.getByRole('button', { name: 'Mediation Setup pages' });
    await link.focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Changelog', 'Tab skips the caret');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    assert.equal(await caret.getAttribute('aria-expanded'), 'true');
    // A closed section's list comes from another page: on a busy machine it may still be on its way.
    await page.locator('#dg-menu').getByText('Bidders', { exact: true }).waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Bidders', 'then into the open section');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await caret.getAttribute('aria-expanded'), 'false');
    await page.context().close();
  });
});

describe('back to top and links that open a new tab', () => {
  it('shows Back to top once scrolled down, and it goes to the top', async () => {
    for (const [path, viewport] of [
      [long, SIZES.phone],
      [long, SIZES.laptop],
      ['/documentation/faq', SIZES.phone],
    ]) {
      const page = await open(path, viewport);
      const button = page.getByRole('button', { name: 'Back to top' });
      assert.equal(await button.isVisible(), false);
      await page.evaluate(() => window.scrollTo(0, window.innerHeight * 1.5 - 20));
      await page.waitForTimeout(200);
      assert.equal(await button.isVisible(), false, 'not yet: less than one and a half windows down');
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => window.scrollY > window.innerHeight * 1.5);
      await button.waitFor({ state: 'visible' });
      const r = await button.boundingBox();
      assert.ok(r.x + r.width <= viewport.width && r.y + r.height <= viewport.height && r.width >= 40, JSON.stringify(r));
      await button.click();
      await page.waitForFunction(() => window.scrollY === 0);
      await button.waitFor({ state: 'hidden' });
      await page.context().close();
    }
  });

  it('marks links that open a new tab, to the eye and in their names', async () => {
    const page = await open(M, SIZES.laptop);
    await page.waitForLoadState('networkidle');
    for (const link of [page.locator('#dg-menu .dg-menu-external a').first(), page.locator('#dg-footer a[target="_blank"]').first()]) {
      const mark = await link.evaluate((a) => {
        const s = getComputedStyle(a, '::after');
        return { width: parseFloat(s.width), mask: s.maskImage || s.webkitMaskImage, content: s.content };
      });
      assert.ok(mark.width > 8 && /url\(/.test(mark.mask), JSON.stringify(mark));
      assert.match(mark.content, /opens in a new tab/);
    }
    await page.getByRole('link', { name: 'Success Stories (opens in a new tab)' }).waitFor();
    await page.getByRole('link', { name: 'Terms (opens in a new tab)' }).waitFor();
    // Links that stay in the site are not marked.
    const own = await page.locator('#dg-menu .dg-menu-list a').first().evaluate((a) => getComputedStyle(a, '::after').content);
    assert.equal(own, 'none');
    await page.context().close();
  });
});

describe('print', () => {
  it('prints the article alone, every snippet of a code box, in light colours', async () => {
    const page = await open(banners, SIZES.laptop, { colorScheme: 'dark' });
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['#dg-topbar', '#dg-breadcrumbs', '#dg-menu', '#dg-toc', '.dg-footer-links', '.dg-to-top', '.dg-code-actions', '.dg-code-tabs']) {
      assert.equal(await page.locator(selector).first().isVisible(), false, `${selector} is not printed`);
    }
    assert.equal(await page.locator('button:visible').count(), 0, 'no buttons');
    const panels = page.locator('#dg-code-0 .dg-code-panel');
    assert.equal(await panels.count(), 3);
    for (const p of await panels.all()) assert.equal(await p.isVisible(), true);
    assert.match(await panels.nth(1).textContent(), /MaxAdView adView = new MaxAdView/);
    const main = await box(page, '#dg-main');
    assert.ok(main.x === 0 && main.width > 1000, `the article takes the page: ${JSON.stringify(main)}`);
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
    assert.equal(await page.locator('.dg-code').first().evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(246, 248, 250)');
    await page.emulateMedia({ media: 'screen' });
    assert.equal(await page.locator('#dg-menu').isVisible(), true);
    assert.equal(await panels.nth(1).isVisible(), false);
    await page.context().close();
  });
});
