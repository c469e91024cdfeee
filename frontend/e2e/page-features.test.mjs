// What a reader gets on this repository's own site besides the content: one history entry per
// click (also into the FAQ page), a head that describes the page on screen after a
// client-side navigation, the table of contents reaching its last section, the DSP area's
// not-found page with a way on, previous and next links, and breadcrumbs named as the menu.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REAL_SITE, ready, recordShifts, start } from './harness.mjs';

const M = '/documentation/mediation';
const DSP = '/documentation/dsp';
const FAQ = '/documentation/skafaq';
const BID_REQUEST = `${DSP}/ortb-spec/bid-request`;

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

async function open(route, options) {
  const page = await env.page(options);
  const response = await page.goto(env.url + route);
  if (options?.javaScriptEnabled !== false) await ready(page);
  return { page, response };
}

/** The built page of `route`, as the server wrote it. */
function built(route) {
  return readFileSync(path.join(env.dir, route.replace(/^\//, ''), 'index.html'), 'utf8');
}

/** A tag's attribute in a page's head, from its HTML. */
function headValue(html, selector) {
  const [attr, name, valueAttr] = selector;
  const tag = html.match(new RegExp(`<(?:meta|link) ${attr}="${name}" ${valueAttr}="([^"]*)"`));
  return tag ? tag[1].replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"') : null;
}

const DESCRIPTION = ['name', 'description', 'content'];
const CANONICAL = ['rel', 'canonical', 'href'];
const OG_URL = ['property', 'og:url', 'content'];
const OG_TITLE = ['property', 'og:title', 'content'];
/** The page's Markdown twin: `<link rel="alternate" type="text/markdown" href>`. */
const MARKDOWN = ['rel', 'alternate" type="text/markdown', 'href'];

/** The same values, read from the live document. */
function liveHead(page) {
  return page.evaluate(() => ({
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content') ?? null,
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
    canonicals: document.querySelectorAll('link[rel="canonical"]').length,
    markdown: document.querySelector('link[rel="alternate"][type="text/markdown"]')?.getAttribute('href') ?? null,
    markdowns: document.querySelectorAll('link[rel="alternate"][type="text/markdown"]').length,
  }));
}

/** What is on screen: the address, the document title, the page's heading, the FAQ's layout. */
function screenState(page) {
  return page.evaluate(() => ({
    path: location.pathname,
    title: document.title,
    h1: document.querySelector('.dg-article h1')?.firstChild?.textContent?.trim() ?? null,
    faq: document.body.classList.contains('dg-layout-faq'),
    history: history.length,
  }));
}

/** The title a built page gives its route, without the site's name. */
function titleOf(route) {
  return built(route).match(/<title>(.*?) \| /)[1].replace(/&amp;/g, '&').replace(/&#39;/g, "'");
}

/** Waits until the screen shows `route`'s own page. */
async function showing(page, route) {
  const title = titleOf(route);
  await page.waitForFunction(
    ([r, t]) => location.pathname === r && document.title.startsWith(`${t} | `) && document.documentElement.getAttribute('data-dg-app') === 'mounted',
    [route, title],
  );
  const state = await screenState(page);
  assert.equal(state.path, route);
  assert.ok(state.title.startsWith(`${title} | `), `${route}: ${state.title}`);
  if (route === FAQ) {
    assert.ok(state.faq, 'the FAQ layout is on screen');
  } else {
    assert.ok(!state.faq, `${route}: the FAQ is still on screen`);
    assert.equal(state.h1, built(route).match(/<article class="dg-article"[^>]*>\s*<h1[^>]*>([^<]*)/)[1].replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
  }
  return state;
}

describe('history', () => {
  it('records one entry per click, also into the FAQ, and Back shows the page of the address', async () => {
    const { page } = await open(M);
    const start = await showing(page, M);
    // A page of the shell, reached client-side.
    const next = await page.locator('.dg-article a[href^="/documentation/mediation/"]:not([href*="#"])').first().getAttribute('href');
    assert.ok(next && next !== M, next);
    await page.click(`.dg-article a[href="${next}"]`);
    const onNext = await showing(page, next);
    assert.equal(onNext.history, start.history + 1, 'one entry for the click');
    // The FAQ (layout: faq), from the top bar.
    await page.locator('#dg-topbar').getByRole('link', { name: 'SKAdNetwork FAQ' }).click();
    await page.waitForURL(`${env.url}${FAQ}`);
    const onFaq = await showing(page, FAQ);
    assert.equal(onFaq.history, start.history + 2, 'one entry for the click into the FAQ');
    // The FAQ links on to every area.
    const areas = await page.locator('#dg-topbar nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(areas, [M, DSP, FAQ]);

    await page.goBack();
    await showing(page, next);
    await page.goBack();
    await showing(page, M);
    await page.goForward();
    await showing(page, next);
    await page.goForward();
    await showing(page, FAQ);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('goes from the FAQ back into the app with one entry per click', async () => {
    const { page } = await open(FAQ);
    const start = await showing(page, FAQ);
    await page.locator('#dg-topbar').getByRole('link', { name: 'Demand Partners' }).click();
    const onDsp = await showing(page, DSP);
    assert.equal(onDsp.history, start.history + 1);
    await page.goBack();
    await showing(page, FAQ);
    await page.context().close();
  });
});

describe('the head after a client-side navigation', () => {
  it('names the canonical address and description of the page on screen', async () => {
    const { page } = await open(BID_REQUEST);
    await page.evaluate(() => {
      window.stillHere = true;
    });
    const first = await liveHead(page);
    assert.equal(first.canonical, headValue(built(BID_REQUEST), CANONICAL));
    const next = await page.locator('.dg-page-nav-next').getAttribute('href');
    await page.click('.dg-page-nav-next');
    await showing(page, next);
    assert.equal(await page.evaluate(() => window.stillHere), true, 'no full reload');
    const html = built(next);
    const head = await liveHead(page);
    assert.deepEqual(head, {
      description: headValue(html, DESCRIPTION),
      canonical: headValue(html, CANONICAL),
      ogUrl: headValue(html, OG_URL),
      ogTitle: headValue(html, OG_TITLE),
      canonicals: 1,
      markdown: headValue(html, MARKDOWN),
      markdowns: 1,
    });
    assert.notEqual(head.canonical, first.canonical);
    assert.notEqual(head.markdown, first.markdown);
    assert.ok(head.markdown?.endsWith('/index.md'), head.markdown);
    assert.notEqual(head.description, first.description);
    await page.goBack();
    await showing(page, BID_REQUEST);
    assert.deepEqual(await liveHead(page), first);
    await page.context().close();
  });
});

describe('table of contents', () => {
  it('makes the last section active when the page is scrolled to the bottom', async () => {
    const { page } = await open(`${DSP}/testing`);
    const entries = await page.locator('#dg-toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(entries.length >= 3, entries.join(' '));
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = entries.at(-1);
    await page.waitForFunction((h) => document.querySelector('#dg-toc a[aria-current]')?.getAttribute('href') === h, last, { timeout: 3000 });
    // The last heading cannot reach the top of the window: only the bottom makes it active.
    const top = await page.evaluate((id) => document.getElementById(decodeURIComponent(id.slice(1))).getBoundingClientRect().top, last);
    assert.ok(top > 120, `the last heading is at ${top}px`);
    // Up again, the heading in view takes over.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction((h) => document.querySelector('#dg-toc a[aria-current]')?.getAttribute('href') !== h, last, { timeout: 3000 });
    await page.context().close();
  });
});

/** The level-1 items of the DSP area in nav.json, by label. */
function dspLevelOne() {
  const nav = JSON.parse(readFileSync(path.join(env.dir, '_docgen/nav.json'), 'utf8'));
  return nav.find((n) => n.url === DSP).children.map((c) => c.displayName);
}

async function checkDspNotFound(page) {
  assert.equal(await page.locator('#dg-error-title').textContent(), 'Unable to load the current page.');
  assert.equal(await page.locator('#dg-error-subtitle').textContent(), 'Please try again.');
  assert.equal(await page.locator('#dg-menu > .dg-menu-root').textContent(), 'Demand Partners');
  const items = await page.locator('#dg-menu > .dg-menu-list > li > :is(a, button)').allTextContents();
  assert.deepEqual(items, dspLevelOne());
  const overview = page.getByRole('link', { name: 'Go to the Demand Partners overview' });
  assert.equal(await overview.getAttribute('href'), DSP);
  return overview;
}

describe('an unknown route of the DSP area', () => {
  it('keeps the specification’s title and subtitle, and shows the DSP menu and the overview, without JavaScript', async () => {
    const { page, response } = await open(`${DSP}/no-such-page`, { javaScriptEnabled: false });
    assert.equal(response.status(), 404);
    await checkDspNotFound(page);
    await page.context().close();
  });

  it('shows the same when the app mounts over it, and leads on to the overview', async () => {
    const { page } = await open(`${DSP}/ortb-spec/no-such-object`);
    await page.waitForLoadState('networkidle');
    const overview = await checkDspNotFound(page);
    assert.equal(await page.locator('#dg-topbar .dg-topbar-areas a[aria-current]').textContent(), 'Demand Partners');
    await overview.click();
    await showing(page, DSP);
    await page.context().close();
  });

  it('shows the same in the app’s own not-found view after a client-side navigation', async () => {
    const { page } = await open(`${M}/android/ad-formats/banners`);
    await page.evaluate(() => {
      window.stillHere = true;
      const a = document.createElement('a');
      a.href = '/documentation/dsp/gone';
      a.id = 'to-gone';
      a.textContent = 'gone';
      document.querySelector('.dg-article').prepend(a);
    });
    await page.click('#to-gone');
    await page.waitForFunction(() => document.getElementById('dg-error-title')?.textContent === 'Unable to load the current page.');
    await page.locator('#dg-menu > .dg-menu-root', { hasText: 'Demand Partners' }).waitFor();
    assert.equal(await page.evaluate(() => location.pathname), '/documentation/dsp/gone');
    assert.equal(await page.evaluate(() => window.stillHere), true, 'no full reload');
    await checkDspNotFound(page);
    // The browser reports the page the app asked for and did not find; nothing else.
    assert.deepEqual(page.errors.filter((e) => !e.includes('/documentation/dsp/gone/index.html')), []);
    await page.context().close();
  });
});

/** The routes of the DSP area's pages in menu order, from nav.json. */
function dspPagesInOrder() {
  const nav = JSON.parse(readFileSync(path.join(env.dir, '_docgen/nav.json'), 'utf8'));
  const out = [];
  const walk = (n) => {
    if (n.isPage) out.push(n.url);
    n.children.forEach(walk);
  };
  walk(nav.find((n) => n.url === DSP));
  return out;
}

describe('previous and next pages', () => {
  it('lead to the neighbours in menu order, with JavaScript and without', async () => {
    const order = dspPagesInOrder();
    const at = order.indexOf(BID_REQUEST);
    assert.ok(at > 0 && at < order.length - 1, order.join(' '));
    const { page } = await open(BID_REQUEST);
    assert.equal(await page.locator('.dg-page-nav-prev').getAttribute('href'), order[at - 1]);
    assert.equal(await page.locator('.dg-page-nav-next').getAttribute('href'), order[at + 1]);
    await page.click('.dg-page-nav-next');
    await showing(page, order[at + 1]);
    assert.equal(await page.locator('.dg-page-nav-prev').getAttribute('href'), BID_REQUEST);
    await page.click('.dg-page-nav-prev');
    await showing(page, BID_REQUEST);
    await page.click('.dg-page-nav-prev');
    await showing(page, order[at - 1]);
    await page.context().close();

    const plain = await open(BID_REQUEST, { javaScriptEnabled: false });
    await plain.page.click('.dg-page-nav-next');
    await plain.page.waitForURL(`${env.url}${order[at + 1]}`);
    assert.equal(await plain.page.locator('.dg-page-nav-prev').getAttribute('href'), BID_REQUEST);
    await plain.page.context().close();
  });
});

describe('the menu on a deep page', () => {
  const YANDEX = `${M}/unreal/mediation-setup/yandex`;
  /** Where the current page's item is, against the part of the menu and of the window in view. */
  const where = (page) =>
    page.evaluate(() => {
      const nav = document.getElementById('dg-menu');
      const item = nav.querySelector('[aria-current="page"]').getBoundingClientRect();
      const box = nav.getBoundingClientRect();
      const top = Math.max(box.top + nav.clientTop, 0);
      const bottom = Math.min(box.top + nav.clientTop + nav.clientHeight, window.innerHeight);
      return { shown: item.top >= top && item.bottom <= bottom, item: [item.top, item.bottom], menu: [top, bottom], pageScroll: window.scrollY, menuScroll: nav.scrollTop };
    });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    it(`${viewport.width}×${viewport.height}: the sticky menu shows the current item on load and after a navigation, the page unmoved and without layout shift`, async () => {
      const blocked = await env.page({ viewport });
      await blocked.route('**/s/docgen/app.*.js', (route) => route.abort());
      await blocked.goto(env.url + YANDEX);
      const server = await where(blocked);
      await blocked.context().close();
      assert.equal(server.shown, false, `the item is out of the menu's view as the server lays it out: ${JSON.stringify(server)}`);

      const page = await env.page({ viewport });
      await page.addInitScript(recordShifts);
      await page.goto(env.url + YANDEX);
      await ready(page);
      const seen = await where(page);
      assert.ok(seen.shown, `the current item is in view: ${JSON.stringify(seen)}`);
      assert.equal(seen.pageScroll, 0, 'the page did not move');
      const middle = (seen.menu[0] + seen.menu[1]) / 2;
      assert.ok(Math.abs((seen.item[0] + seen.item[1]) / 2 - middle) < 60, `about centred: ${JSON.stringify(seen)}`);
      assert.deepEqual(await page.evaluate(() => window.__shifts), [], 'no layout shift');

      // In the app: back to the top of the menu, then a link in the article to the deep page.
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => { document.getElementById('dg-menu').scrollTop = 0; });
      await page.evaluate((href) => {
        const a = document.createElement('a');
        a.href = href;
        a.textContent = 'deep';
        a.id = 'to-deep';
        document.querySelector('.dg-article').prepend(a);
      }, `${M}/unreal/mediation-setup/verve`);
      await page.click('#to-deep');
      await page.waitForFunction((route) => window.location.pathname === route && document.querySelector('#dg-menu [aria-current="page"]')?.getAttribute('href') === route, `${M}/unreal/mediation-setup/verve`);
      const next = await where(page);
      assert.ok(next.shown, `the current item is in view after the navigation: ${JSON.stringify(next)}`);
      assert.equal(next.pageScroll, 0);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it('390 px: the drawer opens on the current item, the page unmoved', async () => {
    const { page } = await open(YANDEX, { viewport: { width: 390, height: 844 } });
    await page.evaluate(() => window.scrollTo(0, 300));
    const scrolled = await page.evaluate(() => window.scrollY);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.waitForFunction(() => document.getElementById('dg-menu').contains(document.activeElement));
    const seen = await where(page);
    assert.ok(seen.shown, `the current item is in the drawer's view: ${JSON.stringify(seen)}`);
    assert.ok(seen.menuScroll > 0, 'the drawer scrolled to it');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-current')), 'page', 'focus is on it');
    assert.equal(seen.pageScroll, scrolled, 'the page did not move');
    await page.context().close();
  });
});

describe('breadcrumbs', () => {
  it('name the menu items on the way to the DSP bid-request page, as the menu and the titles do', async () => {
    const { page } = await open(BID_REQUEST);
    await page.waitForLoadState('networkidle');
    const crumbs = await page.locator('#dg-breadcrumbs li').allTextContents();
    // The menu's names on the way down: the root, each open section, the current page.
    const trail = await page.evaluate(() => {
      const names = [document.querySelector('#dg-menu > .dg-menu-root').textContent];
      const current = document.querySelector('#dg-menu [aria-current="page"]');
      const sections = [];
      for (let li = current.closest('li').parentElement.closest('li'); li; li = li.parentElement.closest('li')) {
        sections.unshift(li.querySelector(':scope > :is(a, button)').textContent);
      }
      return [...names, ...sections, current.textContent];
    });
    assert.deepEqual(crumbs, trail);
    assert.deepEqual(crumbs, ['Demand Partners', 'OpenRTB Specification', 'Bid Request Objects']);
    // The area by the name of its tab; the page by its title.
    assert.equal(await page.locator('#dg-topbar .dg-topbar-areas a[aria-current]').textContent(), crumbs[0]);
    assert.equal(crumbs.at(-1), titleOf(BID_REQUEST));
    assert.equal((await page.locator('.dg-article h1').first().textContent()).replace(/#$/, '').trim(), crumbs.at(-1));
    // Each earlier crumb leads somewhere.
    const hrefs = await page.locator('#dg-breadcrumbs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs.slice(0, 1), [DSP]);
    assert.equal(hrefs.length, 2);
    await page.context().close();
  });
});
