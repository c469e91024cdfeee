// The light and dark themes: the system's preference by default, the switch in the top bar,
// remembered across reloads, set before the first paint (no flash of the other theme), with
// and without the app, and free of axe violations in the dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { M, ready, start } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(13, 17, 23)';
const banners = `${M}/android/ad-formats/banners`;

/** What the page shows: the theme attribute, the page's and a code box's backgrounds, the text colour. */
const colours = (page) =>
  page.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme'),
    bg: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.body).color,
    code: document.querySelector('.dg-code') ? getComputedStyle(document.querySelector('.dg-code')).backgroundColor : null,
    scheme: getComputedStyle(document.documentElement).colorScheme,
  }));

/** A page whose app script never arrives: what the HTML and the inline script alone do. */
async function withoutApp(options) {
  const page = await env.page(options);
  await page.route('**/s/docgen/app.*.js', (route) => route.abort());
  return page;
}

async function open(path, options = {}) {
  const page = await env.page(options);
  await page.goto(env.url + path);
  await ready(page);
  return page;
}

async function violations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

describe('the theme', () => {
  it('follows the system’s preference by default', async () => {
    for (const [colorScheme, theme, bg] of [
      ['light', 'light', LIGHT_BG],
      ['dark', 'dark', DARK_BG],
    ]) {
      const page = await open(banners, { colorScheme });
      const seen = await colours(page);
      assert.deepEqual([seen.theme, seen.bg, seen.scheme], [theme, bg, theme], colorScheme);
      assert.equal(await page.getByRole('banner').getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed'), String(theme === 'dark'));
      await page.context().close();
    }
  });

  it('is set before the first paint, by the page itself: no flash of the other theme', async () => {
    // The app's script is blocked: only the HTML, the style sheet and the inline script run.
    const page = await withoutApp({ colorScheme: 'dark' });
    await page.addInitScript(() => {
      // What the parser has done when the body starts: the theme must already be there.
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        window.__atBody = document.documentElement.getAttribute('data-theme');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(env.url + banners);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-dg-app')), null, 'the app did not run');
    assert.equal(await page.evaluate(() => window.__atBody), 'dark');
    const seen = await colours(page);
    // Code boxes keep their own background, light unless the reader chose dark for them.
    assert.deepEqual([seen.theme, seen.bg, seen.code], ['dark', DARK_BG, 'rgb(246, 248, 250)']);
    // A stored choice wins over the system, before the app too.
    await page.evaluate(() => localStorage.setItem('dg-theme', 'light'));
    await page.reload();
    assert.deepEqual([(await colours(page)).theme, (await colours(page)).bg], ['light', LIGHT_BG]);
    await page.context().close();
  });

  it('switches from the top bar, and the choice holds across reloads and pages', async () => {
    const page = await open(banners, { colorScheme: 'light' });
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Dark theme' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.deepEqual([(await colours(page)).theme, (await colours(page)).bg], ['dark', DARK_BG]);
    assert.equal(await page.evaluate(() => localStorage.getItem('dg-theme')), 'dark');
    await page.reload();
    await ready(page);
    assert.deepEqual([(await colours(page)).theme, (await colours(page)).bg], ['dark', DARK_BG]);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await page.waitForLoadState('networkidle');
    await page.click('#dg-menu a[href$="/ad-formats/interstitials"]');
    await page.waitForFunction(() => document.title.startsWith('Interstitials'));
    assert.equal((await colours(page)).bg, DARK_BG);
    // Back to light, the system's choice: the site follows the system again.
    await toggle.click();
    assert.equal((await colours(page)).bg, LIGHT_BG);
    assert.equal(await page.evaluate(() => localStorage.getItem('dg-theme')), null);
    await page.reload();
    await ready(page);
    assert.equal((await colours(page)).theme, 'light');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('switches on the FAQ page too', async () => {
    const page = await open('/documentation/faq', { colorScheme: 'light' });
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.equal((await colours(page)).bg, DARK_BG);
    await page.reload();
    await ready(page);
    assert.equal((await colours(page)).bg, DARK_BG);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await page.context().close();
  });

  it('follows the system without scripts, and shows no switch', async () => {
    for (const [colorScheme, bg] of [
      ['dark', DARK_BG],
      ['light', LIGHT_BG],
    ]) {
      const page = await env.page({ colorScheme, javaScriptEnabled: false });
      await page.goto(env.url + banners);
      const seen = await colours(page);
      assert.deepEqual([seen.theme, seen.bg], [null, bg], colorScheme);
      assert.equal(await page.getByRole('button', { name: 'Dark theme' }).count(), 0);
      await page.context().close();
    }
  });

  it('finds no axe violations in the dark', async () => {
    const paths = [banners, `${M}/reference/tables`, `${M}/reference/blocks`, '/documentation/dsp/nope', '/documentation/faq'];
    await env.visitEach(paths, { colorScheme: 'dark' }, async (page, path) => {
      await page.waitForLoadState('networkidle');
      assert.equal((await colours(page)).theme, 'dark');
      assert.deepEqual(await violations(page), [], path);
    });
    // The menu drawer and the search panel of a phone, open, in the dark.
    const page = await open(banners, { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
    await page.waitForLoadState('networkidle');
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().x === 0);
    assert.deepEqual(await violations(page), [], 'drawer open');
    await page.context().close();
  });
});
