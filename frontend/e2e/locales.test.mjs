// A site in three languages (crates/docgen-cli/tests/fixtures/locales: English, Chinese, and
// Arabic written right to left): the language menu keeps the reader on the same page, with and
// without scripts; the notices of an untranslated and of a stale page; `lang`, `dir` and the
// hreflang alternates, also after in-app navigation from one language to another, with the UI
// strings of the new one; a Chinese query in the search box finds the Chinese page; and the
// language menu on a phone.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VIEWPORTS, box, ready, repo, start } from './harness.mjs';

const site = path.join(repo, 'crates/docgen-cli/tests/fixtures/locales');
const SETUP = '/docs/guide/setup';
const REWARDED = '/docs/guide/rewarded';

let env;
before(async () => {
  env = await start({ site });
});
after(async () => {
  await env?.stop();
});

async function open(route, viewport = VIEWPORTS.laptop, options = {}) {
  const page = await env.page({ viewport, ...options });
  await page.goto(env.url + route);
  if (options.javaScriptEnabled !== false) await ready(page);
  return page;
}

const route = (page) => new URL(page.url()).pathname;
/** Waits for the address to be `pathname`. */
const arrive = (page, pathname) => page.waitForURL((u) => u.pathname === pathname);
const htmlAttrs = (page) => page.evaluate(() => ({ lang: document.documentElement.getAttribute('lang'), dir: document.documentElement.getAttribute('dir') }));
const alternates = (page) => page.locator('head link[rel="alternate"][hreflang]').evaluateAll((ls) => ls.map((l) => `${l.getAttribute('hreflang')} ${new URL(l.href).pathname}`));

/** Opens the language menu and picks `name`. */
async function pick(page, name) {
  await page.locator('.dg-locale-menu > summary').click();
  await page.locator('.dg-locale-menu a', { hasText: name }).click();
}

/** Marks the document, so a later check tells an in-app navigation from a page load. */
const mark = (page) => page.evaluate(() => { window.__sameDocument = true; });
/** The search box, by its name in the page's language. */
const searchBox = (page, name) => page.locator('#dg-search').getByRole('combobox', { name, exact: true });
const sameDocument = (page) => page.evaluate(() => window.__sameDocument === true);

describe('the language menu', () => {
  it('leads to the same page in another language, in the app, with its lang, dir, texts and alternates', async () => {
    const page = await open(SETUP);
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
    assert.deepEqual(await alternates(page), ['en /docs/guide/setup', 'zh-Hans /zh/docs/guide/setup', 'x-default /docs/guide/setup']);
    await searchBox(page, 'Search').waitFor();
    await mark(page);

    await pick(page, '简体中文');
    await arrive(page, `/zh${SETUP}`);
    assert.equal(await sameDocument(page), true, 'in-app navigation');
    assert.deepEqual(await htmlAttrs(page), { lang: 'zh-Hans', dir: null });
    assert.equal(await page.title(), '安装 SDK | Locale Docs');
    // The server's strings (the new page's markup) and the app's (the search box) are Chinese.
    assert.equal(await page.locator('.dg-toc-title').textContent(), '目录');
    await searchBox(page, '搜索').waitFor();
    assert.equal(await page.locator('.dg-locale-menu > summary').textContent(), '简体中文');
    assert.deepEqual(await alternates(page), ['en /docs/guide/setup', 'zh-Hans /zh/docs/guide/setup', 'x-default /docs/guide/setup']);

    // Arabic has no translation of this page: the English page under /ar, left to right.
    await pick(page, 'العربية');
    await arrive(page, `/ar${SETUP}`);
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
    assert.equal(await page.locator('.dg-locale-notice[data-kind="fallback"]').isVisible(), true);

    // A page written in Arabic, reached from the menu: right to left, and the texts Arabic.
    await page.locator(`#dg-menu a[href="/ar${REWARDED}"]`).click();
    await arrive(page, `/ar${REWARDED}`);
    assert.deepEqual(await htmlAttrs(page), { lang: 'ar', dir: 'rtl' });
    assert.deepEqual(await alternates(page), ['en /docs/guide/rewarded', 'ar /ar/docs/guide/rewarded', 'x-default /docs/guide/rewarded']);
    await searchBox(page, 'بحث').waitFor();
    // Right to left: the menu is on the right of the article.
    const [menu, main] = [await box(page, '#dg-menu'), await box(page, '#dg-main')];
    assert.ok(menu.x > main.x, `menu at ${menu.x}, article at ${main.x}`);

    // Back to English: lang and dir of the default again.
    await pick(page, 'English');
    await arrive(page, `${REWARDED}`);
    assert.equal(route(page), REWARDED);
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
    await searchBox(page, 'Search').waitFor();
    assert.equal(await sameDocument(page), true, 'every step in the app');
    assert.deepEqual(page.errors, []);
  });

  it('works without scripts: a disclosure of links to the same page', async () => {
    const page = await open(`/zh${SETUP}`, VIEWPORTS.laptop, { javaScriptEnabled: false });
    const list = page.locator('.dg-locale-menu ul');
    assert.equal(await list.isVisible(), false);
    await page.locator('.dg-locale-menu > summary').click();
    assert.equal(await list.isVisible(), true);
    await page.locator('.dg-locale-menu a', { hasText: 'English' }).click();
    await arrive(page, `${SETUP}`);
    assert.equal(route(page), SETUP);
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
  });
});

describe('the notices', () => {
  it('says a page is not yet translated', async () => {
    const page = await open(`/zh${REWARDED}`);
    const notice = page.locator('.dg-locale-notice[data-kind="fallback"]');
    assert.equal(await notice.isVisible(), true);
    assert.match(await notice.textContent(), /本页尚未翻译成简体中文/);
    // The page is the English one: its language says so.
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
    assert.equal(await page.title(), 'Rewarded ads | Locale Docs');
  });

  it('says a translation may be out of date and links the source page', async () => {
    const page = await open(`/ar${REWARDED}`);
    const notice = page.locator('.dg-locale-notice[data-kind="stale"]');
    assert.equal(await notice.isVisible(), true);
    const link = notice.locator('a');
    assert.equal(await link.getAttribute('hreflang'), 'en');
    await mark(page);
    await link.click();
    await arrive(page, `${REWARDED}`);
    assert.equal(route(page), REWARDED);
    assert.deepEqual(await htmlAttrs(page), { lang: 'en', dir: null });
    assert.equal(await page.locator('.dg-locale-notice').count(), 0, 'no notice on the source');
    assert.deepEqual(page.errors, []);
  });
});

describe('search per locale', () => {
  it('finds the Chinese page for a Chinese query, from the index of the page’s language', async () => {
    // Arrive in English, go to Chinese in the app: the search reads the Chinese index.
    const page = await open(SETUP);
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await pick(page, '简体中文');
    await arrive(page, `/zh${SETUP}`);
    await searchBox(page, '搜索').click();
    await page.keyboard.type('初始化', { delay: 15 });
    const first = page.locator('[role="listbox"] .dg-search-page').first();
    await first.waitFor();
    assert.equal(await first.getAttribute('href'), `/zh${SETUP}`);
    // A word in the middle of a sentence: its pairs are marked in the excerpt.
    await searchBox(page, '搜索').fill('密钥');
    await page.locator('[role="listbox"] mark', { hasText: '密钥' }).first().waitFor();
    assert.equal(await first.getAttribute('href'), `/zh${SETUP}`);
    assert.ok(fetched.includes('/zh/_docgen/search/index.json'), fetched.join(', '));
    assert.ok(!fetched.includes('/_docgen/search/index.json'), 'not the default language’s index');
    assert.deepEqual(page.errors, []);
  });
});

describe('the language menu on a phone and a laptop', () => {
  for (const [name, viewport] of [['phone', VIEWPORTS.phone], ['laptop', VIEWPORTS.laptop]]) {
    it(`${name} (${viewport.width} px): the top bar fits, the menu opens inside the screen`, async () => {
      for (const at of [`/zh${SETUP}`, `/ar${REWARDED}`]) {
        const page = await open(at, viewport);
        const bar = await page.locator('#dg-topbar').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        assert.ok(bar.scroll <= bar.client, `${at}: the top bar overflows (${bar.scroll} > ${bar.client})`);
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(sideways, 0, `${at}: the page scrolls sideways`);
        const summary = await box(page, '.dg-locale-menu > summary');
        assert.ok(summary.x >= 0 && summary.x + summary.width <= viewport.width, `${at}: the menu button is on screen`);
        assert.ok(summary.height >= 24, `${at}: the menu button is ${summary.height} px high`);
        await page.locator('.dg-locale-menu > summary').click();
        const list = await box(page, '.dg-locale-menu ul');
        assert.ok(list.x >= 0 && list.x + list.width <= viewport.width, `${at}: the list spans ${list.x}–${list.x + list.width}`);
        if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: path.join(process.env.E2E_SCREENSHOTS, `locales-${name}-${at.split('/')[1]}.png`) });
        // Its entries read against its background (the page's colours, not the top bar's).
        const contrast = await page.locator('.dg-locale-menu a').first().evaluate((a) => {
          const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => [r, g, b].map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
          const [fg, bg] = [lum(rgb(getComputedStyle(a).color)), lum(rgb(getComputedStyle(a.closest('ul')).backgroundColor))];
          return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        });
        assert.ok(contrast >= 4.5, `${at}: the entries' contrast is ${contrast.toFixed(2)}`);
        // Each entry is a target a finger can hit, and leads to the same page.
        for (const link of await page.locator('.dg-locale-menu a').all()) {
          const b = await link.boundingBox();
          assert.ok(b.height >= 32, `${await link.textContent()}: ${b.height} px high`);
        }
        await page.locator('.dg-locale-menu a', { hasText: 'English' }).click();
        await arrive(page, `${at.replace(/^\/(zh|ar)/, '')}`);
        assert.deepEqual(page.errors, []);
      }
    });
  }
});
