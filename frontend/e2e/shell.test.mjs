// The shell in a browser: sizes, the menu, breadcrumbs, the table of contents, navigation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { M, VIEWPORTS, box, ready, start } from './harness.mjs';

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

/** Waits for the page's nav shards to be in use (the menu can then open any section). */
async function navLoaded(page) {
  await page.waitForLoadState('networkidle');
}

describe('layout', () => {
  it('has the sizes of the specification', async () => {
    const page = await open(`${M}/android/advanced-settings`);
    assert.equal((await box(page, '#dg-menu')).width, 260);
    assert.equal((await box(page, '#dg-main')).width, 1000);
    const toc = await box(page, '#dg-toc');
    assert.equal(toc.width, 400);
    assert.equal(toc.height, 700, 'a long table of contents stops at 700 px');
    const topbar = await box(page, '#dg-topbar');
    const crumbs = await box(page, '#dg-breadcrumbs');
    assert.deepEqual([topbar.y, topbar.height, crumbs.y, crumbs.height], [0, 48, 48, 48]);
    assert.equal(await page.locator('#dg-topbar').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(13, 17, 23)');
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 1000);
    assert.deepEqual([(await box(page, '#dg-topbar')).y, (await box(page, '#dg-breadcrumbs')).y], [0, 48], 'the bars stay at the top');
    await page.context().close();
  });

  it('keeps anchor targets 115 px below the top of the window', async () => {
    const page = await open(`${M}/android/advanced-settings#verbose-logging`);
    assert.equal(Math.round((await box(page, '#verbose-logging')).y), 115);
    await page.click('#dg-toc a[href="#mute-audio"]');
    await page.waitForFunction(() => Math.round(document.getElementById('mute-audio').getBoundingClientRect().top) === 115);
    await page.context().close();
  });

  it('shows no breadcrumb bar when only one page matches (an area home), and the bar with a trail', async () => {
    const page = await open(M);
    assert.equal(await page.locator('#dg-breadcrumbs').getAttribute('class'), 'dg-breadcrumbs is-single');
    assert.equal(await page.locator('#dg-breadcrumbs').isVisible(), false);
    assert.equal((await box(page, '#dg-menu')).y, 48, 'the menu starts under the top bar');
    assert.equal((await box(page, '#dg-main')).y, 48);
    await page.click('.dg-article a[href$="/android/integration"]');
    await page.waitForFunction(() => document.title.startsWith('Integration'));
    const trail = page.locator('#dg-breadcrumbs ol');
    assert.equal(await trail.isVisible(), true);
    assert.deepEqual([(await box(page, '#dg-breadcrumbs')).y, (await box(page, '#dg-breadcrumbs')).height], [48, 48]);
    assert.equal((await box(page, '#dg-main')).y, 96);
    assert.deepEqual(await trail.locator('a').allTextContents(), ['Mediation', 'Android']);
    assert.equal(await trail.locator('[aria-current="page"]').textContent(), 'Integration');
    await page.context().close();
  });
});

describe('left menu', () => {
  it('loads no menu data for the menu the server rendered, never nav.json, and a closed section on demand', async () => {
    const page = await env.page();
    const data = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith('/_docgen/') || p.endsWith('/index.html')) data.push(p);
    });
    await page.goto(`${env.url}${M}/android/ad-formats/native/manual`);
    await ready(page);
    await navLoaded(page);
    assert.deepEqual(data, []);
    // A level-1 section without a page of its own: its shard (found in the index) names its
    // first page, whose menu, as the server rendered it, gives the section's list.
    const toggle = page.locator('#dg-menu button.dg-menu-toggle', { hasText: 'Getting Started' });
    await toggle.click();
    await page.getByRole('link', { name: 'Quick Start' }).waitFor();
    assert.deepEqual(data.slice(0, 2).map((p) => p.replace(/\.[0-9a-f]{10}\./, '.')), ['/_docgen/nav/index.json', `/_docgen/nav/${M.slice(1).replace(/\//g, '-')}-getting-started.json`]);
    assert.equal(data.length, 3, data.join(' '));
    assert.match(data[2], new RegExp(`^${M}/getting-started/.+/index\\.html$`));
    assert.ok(!data.includes('/_docgen/nav.json'));
    // Nothing in it is current: the page on screen is elsewhere.
    assert.equal(await page.locator('#dg-menu [aria-current="page"]').count(), 1);
    assert.equal(await page.locator('#dg-menu [aria-current="page"]').textContent(), 'Manual Native Ads');
    // A section with a page of its own: that page gives its list.
    await page.getByRole('button', { name: 'Mediation Setup pages' }).click();
    await page.waitForFunction(() => document.querySelector('#dg-menu li.is-open > a[href$="/mediation-setup"] ~ ul li'));
    assert.ok(data.some((p) => p.endsWith('/mediation-setup/index.html')), data.join(' '));
    await page.context().close();
  });

  it('shows icons on level 1 and four levels below the root', async () => {
    const page = await open(`${M}/android/ad-formats/native/manual`);
    assert.equal(await page.locator('#dg-menu > .dg-menu-root').textContent(), 'Mediation');
    assert.equal(await page.locator('#dg-menu > .dg-menu-list > li > :is(a, button) > img.dg-menu-icon').count(), 6);
    assert.equal(await page.locator('#dg-menu .dg-menu-list .dg-menu-list > li img.dg-menu-icon').count(), 0);
    const current = page.locator('#dg-menu [aria-current="page"]');
    assert.equal(await current.textContent(), 'Manual Native Ads');
    assert.equal(await current.evaluate((a) => { let n = 0; for (let e = a; e; e = e.parentElement) if (e.matches('ul.dg-menu-list')) n++; return n; }), 4);
    for (const name of ['Android pages', 'Ad Formats pages', 'Native Ads pages']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).getAttribute('aria-expanded'), 'true', name);
    }
    await page.context().close();
  });

  it('opens a section in 0.6 s and closes it in 0.4 s, animating its height', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    await navLoaded(page);
    const caret = page.getByRole('button', { name: 'Mediation Setup pages' });
    const section = caret.locator('xpath=..');
    // Clicked and sampled in the page, frame by frame from the click, so a slow round trip to
    // the browser cannot start the samples after the transition ended.
    const opening = await caret.evaluate(
      (button) =>
        new Promise((resolve) => {
          // The computed max-height of the list once it is there; 'none' once it is let go.
          const seen = [];
          const t0 = performance.now();
          button.click();
          const step = () => {
            const ul = button.parentElement.querySelector(':scope > ul.dg-menu-list');
            const maxHeight = ul ? getComputedStyle(ul).maxHeight : null;
            if (maxHeight !== null) seen.push(maxHeight === 'none' ? 'none' : parseFloat(maxHeight));
            if (maxHeight === 'none' || performance.now() - t0 > 5000) resolve(seen);
            else requestAnimationFrame(step);
          };
          step();
        }),
    );
    assert.equal(await caret.getAttribute('aria-expanded'), 'true');
    assert.equal(opening.at(-1), 'none', `open sections are not cut at 1500 px: ${opening.join(', ')}`);
    const heights = opening.slice(0, -1);
    assert.ok(heights.some((h) => h > 0 && h < 1500), `max-height passes between 0 and 1500 px: ${opening.join(', ')}`);
    assert.ok(heights.every((h, i) => i === 0 || h >= heights[i - 1]), `and only grows: ${opening.join(', ')}`);
    const list = section.locator(':scope > ul.dg-menu-list');
    assert.equal(await list.evaluate((ul) => getComputedStyle(ul).transitionDuration), '0.6s');
    assert.deepEqual(await list.locator(':scope > li > button').allTextContents(), ['Bidders', 'Others']);

    const closing = await caret.evaluate(
      (button) =>
        new Promise((resolve) => {
          const ul = button.parentElement.querySelector(':scope > ul.dg-menu-list');
          const seen = { duration: '', heights: [] };
          button.click();
          seen.duration = getComputedStyle(ul).transitionDuration;
          const step = () => {
            if (!ul.isConnected) return resolve(seen);
            seen.heights.push(ul.getBoundingClientRect().height);
            requestAnimationFrame(step);
          };
          step();
        }),
    );
    assert.equal(await caret.getAttribute('aria-expanded'), 'false');
    assert.equal(closing.duration, '0.4s');
    assert.ok(closing.heights.some((h) => h > 0 && h < closing.heights[0]), `height shrinks: ${closing.heights.join(', ')}`);
    await page.waitForFunction((li) => !li.querySelector(':scope > ul'), await section.elementHandle(), { timeout: 2000 });
    await page.context().close();
  });

  // The spec's menu animation: 0.6 s to open, 0.4 s to close, for the list and its chevron alike,
  // at every size (the drawer holds the same menu), and nothing animated with reduced motion.
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`${name} (${viewport.width} px): turns the chevron with the list, 0.6 s open and 0.4 s closed; nothing moves with reduced motion`, async () => {
      for (const reducedMotion of ['no-preference', 'reduce']) {
        const page = await open(`${M}/android/ad-formats/banners`, { viewport, reducedMotion });
        await navLoaded(page);
        if (await page.locator('.dg-menu-button').isVisible()) await page.locator('.dg-menu-button').click();
        const caret = page.getByRole('button', { name: 'Mediation Setup pages' });
        const list = caret.locator('xpath=..').locator(':scope > ul.dg-menu-list');
        const chevron = () => caret.evaluate((b) => getComputedStyle(b, '::before').transitionDuration);
        const [opening, closing] = reducedMotion === 'reduce' ? ['0s', '0s'] : ['0.6s', '0.4s'];
        assert.equal(await chevron(), closing, `${reducedMotion}: closed`);
        await caret.click();
        assert.deepEqual([await chevron(), await list.evaluate((ul) => getComputedStyle(ul).transitionDuration)], [opening, opening], `${reducedMotion}: opening`);
        if (reducedMotion === 'reduce') {
          assert.equal(await list.evaluate((ul) => ul.style.maxHeight), '', 'opened at once: no height animated');
        }
        await page.waitForFunction((ul) => ul.style.maxHeight === '', await list.elementHandle());
        // Clicked and read in one step: a slow round trip could find the list already gone.
        const closed = await caret.evaluate((b) => {
          b.click();
          const ul = b.parentElement.querySelector(':scope > ul');
          return { chevron: getComputedStyle(b, '::before').transitionDuration, list: ul && getComputedStyle(ul).transitionDuration };
        });
        assert.equal(closed.chevron, closing, `${reducedMotion}: closing`);
        assert.equal(closed.list, reducedMotion === 'reduce' ? null : '0.4s', reducedMotion === 'reduce' ? 'closed at once' : 'closing');
        await page.context().close();
      }
    });
  }

  it('opens and closes a section without a page of its own', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    await navLoaded(page);
    const toggle = page.locator('#dg-menu button.dg-menu-toggle', { hasText: 'Getting Started' });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.getByRole('link', { name: 'Quick Start' }).waitFor();
    await toggle.click();
    await page.getByRole('link', { name: 'Quick Start' }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('works from the keyboard: disclosure buttons open with Enter and Space, links follow', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    await navLoaded(page);
    const caret = page.getByRole('button', { name: 'iOS pages' });
    await caret.focus();
    await page.keyboard.press('Enter');
    assert.equal(await caret.getAttribute('aria-expanded'), 'true');
    // Another level-1 section: its items come with its nav shard.
    await caret.locator('xpath=..').locator(':scope > ul.dg-menu-list a').first().waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Integration');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.title.startsWith('iOS Integration'));
    await caret.focus();
    await page.keyboard.press('Space');
    assert.equal(await caret.getAttribute('aria-expanded'), 'false');
    await page.context().close();
  });

  it('marks the longest match of the route as active', async () => {
    const page = await open(`${M}/reporting/details`);
    const item = (name) => page.locator('#dg-menu .dg-menu-list > li', { has: page.locator(`:scope > a:text-is("${name}")`) });
    assert.match((await item('Reporting').getAttribute('class')) ?? '', /is-active/);
    assert.equal(await item('Reporting').locator('a').getAttribute('aria-current'), null, 'a page outside the menu: its section is active, not current');
    assert.doesNotMatch((await item('Reporting API').getAttribute('class')) ?? '', /is-active/);
    await item('Reporting API').locator('a').click();
    await page.waitForFunction(() => document.title.startsWith('Reporting API'));
    assert.match((await item('Reporting API').getAttribute('class')) ?? '', /is-active/);
    assert.equal(await item('Reporting API').locator('a').getAttribute('aria-current'), 'page');
    assert.doesNotMatch((await item('Reporting').getAttribute('class')) ?? '', /is-active/);
    await page.context().close();
  });

  it('hides items whose feature is off and opens external links in a new tab', async () => {
    const page = await open(M);
    await navLoaded(page);
    const menu = page.locator('#dg-menu');
    assert.equal(await menu.getByRole('link', { name: 'Labs' }).count(), 0);
    assert.equal(await menu.getByRole('link', { name: 'Beta Tools' }).count(), 1);
    for (const name of ['Success Stories', 'Help Center']) {
      const link = page.locator('#dg-menu .dg-menu-external a', { hasText: name });
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    }
    await page.context().close();
  });
});

describe('navigation', () => {
  it('changes pages without a full reload, back and forward included', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    await page.evaluate(() => {
      window.__marker = 'kept';
    });
    await page.click('#dg-menu a[href$="/ad-formats/interstitials"]');
    await page.waitForFunction(() => document.querySelector('.dg-article h1')?.textContent?.startsWith('Interstitials'));
    assert.equal(new URL(page.url()).pathname, `${M}/android/ad-formats/interstitials`);
    assert.equal(await page.title(), 'Interstitials | Fixture Docs');
    assert.equal(await page.locator('#dg-menu [aria-current="page"]').textContent(), 'Interstitials');
    assert.equal(await page.locator('#dg-breadcrumbs [aria-current="page"]').textContent(), 'Interstitials');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('.dg-article h1')?.textContent?.startsWith('Banners'));
    assert.equal(await page.locator('#dg-menu [aria-current="page"]').textContent(), 'Banners');
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('.dg-article h1')?.textContent?.startsWith('Interstitials'));
    assert.equal(await page.evaluate(() => window.__marker), 'kept');
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('scrolls to the top on every route change', async () => {
    const page = await open(`${M}/android/advanced-settings`);
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForFunction(() => window.scrollY === 2500);
    await page.click('#dg-menu a[href$="/android/changelog"]');
    await page.waitForFunction(() => document.title.startsWith('Changelog'));
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.context().close();
  });

  it('goes to the #target of a link to another page, 115 px below the top', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    await page.click('.dg-article a[href$="/advanced-settings#verbose-logging"]');
    await page.waitForFunction(() => document.title.startsWith('Advanced Settings'));
    assert.equal(new URL(page.url()).hash, '#verbose-logging');
    assert.equal(Math.round((await box(page, '#verbose-logging')).y), 115);
    assert.equal(await page.locator('#dg-toc a[aria-current]').getAttribute('href'), '#verbose-logging');
    await page.context().close();
  });

  it('opens a ctrl-clicked link in a new tab at /o/..., and that page loads', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('#dg-menu a[href$="/android/integration"]', { modifiers: ['Control'] })]);
    await tab.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, `${M}/android/ad-formats/banners`, 'the first tab stays');
    await ready(tab);
    assert.equal(await tab.locator('.dg-article h1').evaluate((h) => h.firstChild.textContent), 'Integration');
    assert.equal(new URL(tab.url()).pathname, `${M}/android/integration`, 'the new tab shows the page’s own address');
    const opened = await tab.evaluate(() => performance.getEntriesByType('navigation')[0].name);
    assert.equal(new URL(opened).pathname, `/o${M}/android/integration`);
    assert.equal(await tab.locator('#dg-menu [aria-current="page"]').textContent(), 'Integration');
    await page.context().close();
  });

  it('shows the DSP error page for unknown DSP routes, loaded or navigated to', async () => {
    const page = await env.page();
    const response = await page.goto(`${env.url}/documentation/dsp/nope`);
    assert.equal(response.status(), 404);
    await ready(page);
    assert.equal(await page.locator('#dg-error-title').textContent(), 'Unable to load the current page.');
    assert.equal(await page.locator('#dg-error-subtitle').textContent(), 'Please try again.');

    await page.goto(`${env.url}${M}/reference/blocks`);
    await ready(page);
    await page.click('#to-dsp-missing');
    await page.waitForFunction(() => document.getElementById('dg-error-title')?.textContent === 'Unable to load the current page.');
    assert.equal(await page.locator('#dg-error-subtitle').textContent(), 'Please try again.');
    assert.equal(new URL(page.url()).pathname, '/documentation/dsp/no-such-page');
    await page.context().close();
  });
});

describe('table of contents', () => {
  it('is a navigation named Table of Contents whose active entry follows the hash', async () => {
    const page = await open(`${M}/android/advanced-settings#mute-audio`);
    const toc = page.getByRole('navigation', { name: 'Table of Contents' });
    assert.equal(await toc.locator('a[aria-current]').getAttribute('href'), '#mute-audio');
    await toc.locator('a[href="#segment-name"]').click();
    await page.waitForFunction(() => document.querySelector('#dg-toc a[aria-current]')?.getAttribute('href') === '#segment-name');
    assert.equal(await toc.locator('a[aria-current]').count(), 1);
    await page.context().close();
  });

  it('follows the heading in view while scrolling (polled every 100 ms, 120 px threshold)', async () => {
    const page = await open(`${M}/android/advanced-settings`);
    assert.equal(await page.locator('#dg-toc a[aria-current]').getAttribute('href'), '#advanced-settings');
    const scrollHeadingTo = (id, top) => page.evaluate(([i, t]) => window.scrollBy(0, document.getElementById(i).getBoundingClientRect().top - t), [id, top]);
    await scrollHeadingTo('dsp-name', 125);
    await page.waitForTimeout(300);
    assert.notEqual(await page.locator('#dg-toc a[aria-current]').getAttribute('href'), '#dsp-name', 'not yet past 120 px');
    await scrollHeadingTo('dsp-name', 118);
    await page.waitForFunction(() => document.querySelector('#dg-toc a[aria-current]')?.getAttribute('href') === '#dsp-name', null, { timeout: 1000 });
    await page.context().close();
  });
});

describe('footer', () => {
  it('links out in new tabs, shows the opt-out icon and the current UTC year', async () => {
    const page = await open(M);
    const links = page.locator('#dg-footer a.dg-footer-link');
    assert.deepEqual(await links.allTextContents(), ['Terms', 'Privacy', 'Support', 'Your Privacy Choices', 'EULA', 'DMCA']);
    for (const target of await links.evaluateAll((as) => as.map((a) => a.target))) assert.equal(target, '_blank');
    const icon = page.getByRole('img', { name: 'California Consumer Privacy Act (CCPA) Opt-Out Icon' });
    assert.equal(await icon.isVisible(), true);
    assert.equal(await page.locator('#dg-footer button[data-action="consent"]').textContent(), 'Cookies Settings');
    const year = String(new Date().getUTCFullYear());
    assert.equal(await page.locator('.dg-copyright').textContent(), `© ${year} Example Corp. All rights reserved.`);
    await page.context().close();
    const noJs = await env.page({ javaScriptEnabled: false });
    await noJs.goto(env.url + M);
    assert.equal(await noJs.locator('.dg-year').textContent(), '2001', 'the build wrote its own year');
    await noJs.context().close();
  });

  it('opens the consent dialog: modal, focus kept inside, Escape closes, focus returns', async () => {
    const page = await open(M);
    const opener = page.locator('#dg-footer button[data-action="consent"]');
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Cookie settings' });
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      assert.equal(await dialog.evaluate((d) => d.contains(document.activeElement)), true, `focus inside after ${i + 1} presses`);
    }
    assert.equal(await page.locator('#dg-root').getAttribute('inert'), '');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await opener.evaluate((b) => b === document.activeElement), true);
    await page.context().close();
  });
});
