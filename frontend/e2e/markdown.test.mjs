// What a reader sees of docgen's Markdown, on the reader-pages fixture (images, admonitions,
// code meta, math, tab sets of prose), on a phone and a laptop, light and dark. Screenshots of
// the image and admonition pages go to frontend/e2e-artifacts/screenshots/ for people to look at.
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VIEWPORTS, frontend, ready, recordShifts, repo, start } from './harness.mjs';

const FIXTURE = path.join(repo, 'crates/docgen-cli/tests/fixtures/reader-pages');
const ARTIFACTS = path.join(frontend, 'e2e-artifacts', 'screenshots');
const SIZES = [VIEWPORTS.phone, VIEWPORTS.laptop];
const THEMES = ['light', 'dark'];

let env;
before(async () => {
  env = await start({ sources: ['site.yaml', 'content', 'static'].map((f) => path.join(FIXTURE, f)) });
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await env?.stop();
});

/**
 * A page with the app mounted; every response of 400 or more is kept in `page.failed`, every
 * layout shift in `window.__shifts`. `delayImages` holds images back that many milliseconds, so
 * the page lays out before they arrive.
 */
async function open(route, { viewport, colorScheme, delayImages = 0, ...options } = {}) {
  const page = await env.page({ viewport, colorScheme, ...options });
  page.failed = [];
  page.on('response', (r) => {
    if (r.status() >= 400) page.failed.push(`${r.status()} ${r.url()}`);
  });
  if (delayImages) {
    await page.route(/\.(png|svg)$/, async (route) => {
      await new Promise((r) => setTimeout(r, delayImages));
      await route.continue();
    });
  }
  await page.addInitScript(recordShifts);
  await page.goto(env.url + route);
  if (options.javaScriptEnabled !== false) await ready(page);
  return page;
}

async function shoot(page, name) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(statSync(file).size > 5000, `${file} written`);
}

/** The WCAG contrast ratio of two `rgb()`/`rgba()` colours (the first drawn over the second). */
function contrast(fg, bg) {
  const parse = (c) => c.match(/[\d.]+/g).map(Number);
  const [br, bgc, bb] = parse(bg);
  const [r, g, b, a = 1] = parse(fg);
  const mixed = [r * a + br * (1 - a), g * a + bgc * (1 - a), b * a + bb * (1 - a)];
  const lum = ([x, y, z]) => {
    const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(x) + 0.7152 * lin(y) + 0.0722 * lin(z);
  };
  const [l1, l2] = [lum(mixed), lum([br, bgc, bb])].sort((p, q) => q - p);
  return (l1 + 0.05) / (l2 + 0.05);
}

for (const viewport of SIZES) {
  for (const colorScheme of THEMES) {
    const at = `${viewport.width} px, ${colorScheme}`;

    describe(`images (${at})`, () => {
      it('load, keep their aspect, fit the column, load lazily after the first, and move nothing', async () => {
        const page = await open('/docs/images', { viewport, colorScheme, delayImages: 400 });
        assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), colorScheme);
        // Lazy images load as the reader scrolls to them.
        const count = await page.locator('.dg-article img').count();
        assert.equal(count, 5);
        for (let i = 0; i < count; i++) {
          const img = page.locator('.dg-article img').nth(i);
          await img.scrollIntoViewIfNeeded();
          await img.evaluate((el) => (el.complete ? null : new Promise((resolve) => el.addEventListener('load', resolve, { once: true }))));
        }
        await page.waitForLoadState('networkidle');
        const images = await page.locator('.dg-article img').evaluateAll((imgs) =>
          imgs.map((img) => {
            const r = img.getBoundingClientRect();
            const column = img.closest('.dg-article').getBoundingClientRect();
            return {
              src: img.getAttribute('src'),
              natural: [img.naturalWidth, img.naturalHeight],
              attrs: [Number(img.getAttribute('width')), Number(img.getAttribute('height'))],
              box: [r.width, r.height],
              inside: r.left >= column.left - 0.5 && r.right <= column.right + 0.5,
              loading: img.getAttribute('loading'),
            };
          }),
        );
        for (const img of images) {
          assert.ok(img.natural[0] > 0 && img.natural[1] > 0, `${img.src} loaded`);
          assert.ok(img.attrs[0] > 0 && img.attrs[1] > 0, `${img.src} has width and height`);
          const aspect = img.natural[0] / img.natural[1];
          assert.ok(Math.abs(img.attrs[0] / img.attrs[1] - aspect) < 0.01, `${img.src}: width/height ${img.attrs} match ${img.natural}`);
          assert.ok(Math.abs(img.box[0] / img.box[1] - aspect) < 0.02, `${img.src}: shown at its aspect (${img.box})`);
          assert.ok(img.inside, `${img.src} fits the column`);
        }
        assert.equal(images[0].loading, null, 'the first image loads at once');
        assert.deepEqual(images.slice(1).map((i) => i.loading), ['lazy', 'lazy', 'lazy', 'lazy']);
        assert.ok(images[0].box[0] < 1200, 'the wide picture shrinks to the column');
        assert.deepEqual(page.failed, [], 'nothing missing on the network');
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll');
        assert.deepEqual(await page.evaluate(() => window.__shifts), [], 'no layout shift while images load');
        await page.evaluate(() => window.scrollTo(0, 0));
        await shoot(page, `markdown-images-${viewport.width}-${colorScheme}`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    });

    describe(`admonitions (${at})`, () => {
      it('show each kind with its title, colours of its own and readable text; nested ones inside their parent', async () => {
        const page = await open('/docs/admonitions', { viewport, colorScheme });
        const boxes = await page.locator('.dg-admonition').evaluateAll((els) =>
          els.map((el) => {
            const title = el.querySelector(':scope > .dg-admonition-title');
            const body = el.querySelector(':scope > p:not(.dg-admonition-title)');
            const s = getComputedStyle(el);
            const r = el.getBoundingClientRect();
            return {
              kind: [...el.classList].find((c) => c.startsWith('dg-admonition-')).slice('dg-admonition-'.length),
              title: title?.textContent,
              titleVisible: Boolean(title && title.getBoundingClientRect().height > 0 && getComputedStyle(title).visibility === 'visible'),
              border: s.borderLeftColor,
              background: s.backgroundColor,
              titleColor: title ? getComputedStyle(title).color : '',
              bodyColor: body ? getComputedStyle(body).color : '',
              size: [r.width, r.height],
              parent: el.parentElement.closest('.dg-admonition')?.querySelector(':scope > .dg-admonition-title')?.textContent ?? null,
            };
          }),
        );
        const titles = boxes.map((b) => [b.kind, b.title]);
        assert.deepEqual(titles, [
          ['note', 'Note'], ['tip', 'Tip'], ['info', 'Info'], ['warning', 'Warning'], ['danger', 'Danger'], ['caution', 'Caution'], ['success', 'Success'],
          ['tip', 'Custom title'],
          ['note', 'Note'], ['tip', 'Tip'], ['important', 'Important'], ['warning', 'Warning'], ['caution', 'Caution'],
          ['danger', 'Outer'], ['info', 'Inner'],
        ]);
        for (const b of boxes) {
          assert.ok(b.titleVisible && b.size[0] > 100 && b.size[1] > 30, `${b.kind} "${b.title}" is visible`);
          assert.notEqual(b.background, 'rgba(0, 0, 0, 0)', `${b.kind} has a background`);
          for (const [what, color] of [['title', b.titleColor], ['text', b.bodyColor]]) {
            const ratio = contrast(color, b.background);
            assert.ok(ratio >= 4.5, `${b.kind} ${what} ${color} on ${b.background}: ${ratio.toFixed(2)}:1`);
          }
        }
        // One look per kind, and no two kinds alike: borders apart by more than a shade.
        const looks = new Map();
        for (const b of boxes) {
          const look = { border: b.border, background: b.background };
          if (looks.has(b.kind)) assert.deepEqual(looks.get(b.kind), look, `${b.kind} looks the same wherever it is`);
          looks.set(b.kind, look);
        }
        const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
        const distance = (c, d) => Math.hypot(...rgb(c).map((v, i) => v - rgb(d)[i]));
        const kinds = [...looks.keys()];
        assert.equal(kinds.length, 8);
        for (const p of kinds) {
          for (const q of kinds) {
            if (p >= q) continue;
            const [a, b] = [looks.get(p), looks.get(q)];
            assert.ok(distance(a.border, b.border) >= 40, `${p} and ${q} have borders apart: ${a.border} vs ${b.border}`);
            assert.notEqual(a.background, b.background, `${p} and ${q} have backgrounds of their own`);
          }
        }
        const inner = boxes.find((b) => b.title === 'Inner');
        const outer = boxes.find((b) => b.title === 'Outer');
        assert.equal(inner.parent, 'Outer', 'the nested admonition is inside its parent');
        assert.ok(inner.size[0] < outer.size[0], 'and narrower than it');
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll');
        await shoot(page, `markdown-admonitions-${viewport.width}-${colorScheme}`);
        assert.deepEqual(page.errors, []);
        assert.deepEqual(page.failed, []);
        await page.context().close();
      });
    });

    describe(`code and math (${at})`, () => {
      it('shows the file name, highlighted lines and line numbers that are never selected or copied', async () => {
        const page = await open('/docs/code', { viewport, colorScheme, permissions: ['clipboard-read', 'clipboard-write'] });
        const titled = page.locator('.dg-code').first();
        assert.equal(await titled.locator('.dg-code-file').textContent(), 'app.js');
        assert.ok(await titled.locator('.dg-code-file').isVisible());
        const shades = await page.locator('.dg-code').evaluateAll((boxes) =>
          boxes.map((box) => ({
            box: getComputedStyle(box).backgroundColor,
            marked: Array.from(box.querySelectorAll('.dg-line-hl'), (l) => [getComputedStyle(l).backgroundColor, getComputedStyle(l).boxShadow, l.getBoundingClientRect().height]),
          })),
        );
        assert.deepEqual(shades.map((s) => s.marked.length), [1, 1, 2], 'the lines asked for are marked');
        for (const s of shades) {
          for (const [bg, shadow, height] of s.marked) {
            assert.ok(bg !== s.box && bg !== 'rgba(0, 0, 0, 0)', `a marked line has a shade of its own (${bg} on ${s.box})`);
            assert.notEqual(shadow, 'none', 'and a bar at its left');
            assert.ok(height > 10);
          }
        }
        const numbered = page.locator('.dg-code').nth(1);
        const numbers = await numbered.locator('.dg-ln').evaluateAll((lines) => lines.map((l) => getComputedStyle(l, '::before').content));
        assert.deepEqual(numbers, ['counter(dg-ln)', 'counter(dg-ln)', 'counter(dg-ln)']);
        const gutter = await numbered.locator('.dg-ln').first().evaluate((l) => parseFloat(getComputedStyle(l, '::before').width));
        assert.ok(gutter > 10, `the numbers have room (${gutter} px)`);
        const expected = 'val sdk = AppLovinSdk.getInstance(context)\nsdk.initializeSdk { config -> start(config) }\nval banner = MaxAdView("YOUR_AD_UNIT_ID", context)\n';
        const selected = await numbered.locator('code').evaluate((code) => {
          const range = document.createRange();
          range.selectNodeContents(code);
          const selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          return selection.toString();
        });
        // The browser leaves the final line break out of a selection.
        assert.equal(selected, expected.trimEnd(), 'the selection holds the code alone');
        assert.doesNotMatch(selected, /\d/);
        const both = await page.locator('.dg-code').nth(2).locator('code').evaluate((code) => {
          const range = document.createRange();
          range.selectNodeContents(code);
          window.getSelection().removeAllRanges();
          window.getSelection().addRange(range);
          return window.getSelection().toString();
        });
        assert.equal(both, 'export const refresh = 30;\nexport const retries = 3;\nexport const region = "eu";');
        await numbered.getByRole('button', { name: 'Copy' }).click();
        await numbered.getByRole('button', { name: 'Copied' }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected, 'Copy leaves the numbers out');
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll');
        await shoot(page, `markdown-code-${viewport.width}-${colorScheme}`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });

      it('renders math as MathML', async () => {
        const page = await open('/docs/math', { viewport, colorScheme });
        const formulas = await page.locator('.dg-article math').evaluateAll((ms) =>
          ms.map((m) => {
            const r = m.getBoundingClientRect();
            return { display: m.getAttribute('display'), size: [r.width, r.height], ns: m.namespaceURI, fraction: Boolean(m.querySelector('mfrac')) };
          }),
        );
        assert.equal(formulas.length, 2);
        for (const f of formulas) {
          assert.equal(f.ns, 'http://www.w3.org/1998/Math/MathML');
          assert.ok(f.size[0] > 20 && f.size[1] > 8, `a formula with a size (${f.size})`);
        }
        assert.equal(formulas[1].display, 'block');
        assert.ok(formulas[1].fraction && formulas[1].size[1] > formulas[0].size[1], 'the fraction stands on two levels');
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    });
  }
}

describe('tab sets of prose', () => {
  const shown = (page, set) => page.locator(`${set} > .dg-tabs-panel:visible`).evaluateAll((ps) => ps.map((p) => p.getAttribute('data-label')));
  const selected = (page, set) => page.locator(`${set} [role="tab"][aria-selected="true"]`).textContent();

  for (const viewport of SIZES) {
    it(`switch by click and keyboard, one panel at a time, in step by label (${viewport.width} px)`, async () => {
      const page = await open('/docs/tabs', { viewport });
      const first = page.locator('#dg-tabs-0');
      assert.ok(await first.getByRole('tablist').isVisible());
      assert.deepEqual(await first.getByRole('tab').allTextContents(), ['macOS', 'Linux', 'Windows']);
      assert.deepEqual(await shown(page, '#dg-tabs-0'), ['macOS']);
      assert.ok(await first.locator('.dg-code').getByRole('button', { name: 'Copy' }).isVisible(), 'the code box inside works');
      await first.getByRole('tab', { name: 'Linux' }).click();
      assert.deepEqual(await shown(page, '#dg-tabs-0'), ['Linux']);
      assert.deepEqual(await shown(page, '#dg-tabs-1'), ['Linux'], 'the other set follows the label');
      await page.keyboard.press('ArrowRight');
      assert.equal(await first.getByRole('tab', { name: 'Windows' }).evaluate((t) => t === document.activeElement && t.tabIndex === 0), true);
      assert.deepEqual(await shown(page, '#dg-tabs-0'), ['Windows']);
      assert.deepEqual(await shown(page, '#dg-tabs-1'), ['Linux'], 'a set without the label keeps its tab');
      await page.keyboard.press('ArrowRight');
      assert.equal(await selected(page, '#dg-tabs-0'), 'macOS', 'the arrows wrap around');
      await page.keyboard.press('End');
      assert.equal(await selected(page, '#dg-tabs-0'), 'Windows');
      await page.keyboard.press('Home');
      assert.equal(await selected(page, '#dg-tabs-0'), 'macOS');
      assert.deepEqual(await shown(page, '#dg-tabs-1'), ['macOS']);
      // Tab leaves the tab list for the panel's content: one stop per list.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), null);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scroll');
      await shoot(page, `markdown-tabs-${viewport.width}-light`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    it(`mount without moving anything (${viewport.width} px)`, async () => {
      const geometry = () =>
        Array.from(document.querySelectorAll('.dg-tabs, .dg-tabs-list, .dg-tabs [role="tab"], .dg-tabs-panel, .dg-article > *'), (el) => {
          const r = el.getBoundingClientRect();
          return [el.tagName, el.className, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)].join(' ');
        }).filter((g) => !g.endsWith(' 0 0'));
      const still = await env.page({ viewport });
      await still.route('**/s/docgen/app.*.js', (route) => route.abort());
      await still.goto(env.url + '/docs/tabs');
      await still.waitForLoadState('networkidle');
      const before = await still.evaluate(geometry);
      await still.context().close();
      const page = await open('/docs/tabs', { viewport });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(200);
      assert.deepEqual(await page.evaluate(geometry), before);
      assert.deepEqual(await page.evaluate(() => window.__shifts), []);
      await page.context().close();
    });
  }

  it('show every panel under its label without scripts', async () => {
    const page = await open('/docs/tabs', { viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    assert.equal(await page.locator('#dg-tabs-0 [role="tablist"]').isVisible(), false);
    assert.deepEqual(await shown(page, '#dg-tabs-0'), ['macOS', 'Linux', 'Windows']);
    const labels = await page.locator('#dg-tabs-0 > .dg-tabs-panel').evaluateAll((ps) => ps.map((p) => getComputedStyle(p, '::before').content));
    assert.deepEqual(labels, ['"macOS"', '"Linux"', '"Windows"']);
    await page.context().close();
  });
});
