// Screenshots of this repository's own site at every size, light and dark, written for people
// to look at (frontend/e2e-artifacts/screenshots/, not committed). Each shot is also checked:
// the page fits the window sideways, its title is on the first screen, the theme is the one asked.
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REAL_SITE, VIEWPORTS, frontend, ready, start } from './harness.mjs';

const ARTIFACTS = path.join(frontend, 'e2e-artifacts', 'screenshots');

const PAGES = {
  guide: '/documentation/mediation/android/getting-started/integration',
  'bid-request': '/documentation/dsp/ortb-spec/bid-request',
  'area-home': '/documentation/mediation',
  faq: '/documentation/skafaq',
};

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await env?.stop();
});

async function shoot(page, name) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  assert.ok(statSync(file).size > 5000, `${file} written`);
}

describe('screenshots of the site', () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      it(`${size} (${viewport.width} px), ${colorScheme}`, async () => {
        const page = await env.page({ viewport, colorScheme });
        for (const [name, route] of Object.entries(PAGES)) {
          await page.goto(env.url + route);
          await ready(page);
          await page.waitForLoadState('networkidle');
          const facts = await page.evaluate(() => {
            const h1 = document.querySelector('main h1').getBoundingClientRect();
            const article = document.querySelector('.dg-article').getBoundingClientRect();
            return {
              theme: document.documentElement.getAttribute('data-theme'),
              sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
              title: h1.top >= 0 && h1.bottom <= window.innerHeight,
              article: article.width,
            };
          });
          assert.equal(facts.theme, colorScheme, `${name}: theme`);
          assert.equal(facts.sideways, 0, `${name}: scrolls sideways`);
          assert.ok(facts.title, `${name}: the title is on the first screen`);
          if (viewport.width >= 1280) assert.ok(facts.article >= 680, `${name}: article ${facts.article} px`);
          await shoot(page, `${name}-${viewport.width}-${colorScheme}`);
        }
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }

    it(`the menu drawer open on a phone and a tablet, ${colorScheme}`, async () => {
      for (const viewport of [VIEWPORTS.phone, VIEWPORTS.tablet]) {
        const page = await env.page({ viewport, colorScheme });
        await page.goto(env.url + PAGES.guide);
        await ready(page);
        await page.waitForLoadState('networkidle');
        await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
        await page.waitForFunction(() => document.getElementById('dg-menu').getBoundingClientRect().x === 0);
        await page.waitForTimeout(300);
        await shoot(page, `drawer-${viewport.width}-${colorScheme}`);
        await page.context().close();
      }
    });
  }
});
