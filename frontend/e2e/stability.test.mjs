// Mounting the app over a pre-rendered page changes nothing on screen: the same shell markup,
// every element where it was, and no layout shift at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { M, VIEWPORTS, holdAppUntilLaidOut, parsedSoFar, ready, recordShifts, serve, start } from './harness.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

const pages = [
  `${M}/android/ad-formats/banners`,
  `${M}/reference/tables`,
  `${M}/reference/blocks`,
  `${M}/android/advanced-settings#verbose-logging`,
  M,
  '/documentation/dsp/nope',
  '/documentation/faq',
];

const SELECTORS = [
  '#dg-topbar',
  '#dg-topbar a',
  '#dg-breadcrumbs',
  '#dg-breadcrumbs li',
  '#dg-menu',
  '#dg-menu li > a',
  '#dg-menu li > button',
  '#dg-main',
  '.dg-article > *',
  '.dg-code-bar',
  '.dg-code-panel',
  '.dg-table',
  '.dg-table tr',
  '[data-dg-block="popover"]',
  '#dg-toc',
  '#dg-toc li',
  '#dg-footer',
  '#dg-footer li',
  '.dg-copyright',
];

/** Where the shell's and the content's elements are, and the page's size and scroll. */
function geometry(selectors) {
  const round = (n) => Math.round(n * 2) / 2;
  const out = { scroll: [window.scrollX, window.scrollY], size: [document.documentElement.scrollWidth, document.documentElement.scrollHeight] };
  for (const s of selectors) {
    // Elements not displayed (rows past the first page, closed code tabs) have no box to keep.
    out[s] = Array.from(document.querySelectorAll(s), (el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 || r.height > 0)
      .map((r) => [round(r.x), round(r.y), round(r.width), round(r.height)].join(','));
  }
  return out;
}

/** The shell's markup: everything in #dg-root but the article's content. */
function shellMarkup() {
  const root = document.getElementById('dg-root').cloneNode(true);
  const article = root.querySelector('.dg-article');
  if (article && article.id !== 'dg-not-found') article.replaceChildren();
  // The table of contents marks its active entry once the app runs, and the phones' bar names it
  // (the HTML names the first); that is the one change.
  for (const a of root.querySelectorAll('#dg-toc [aria-current]')) a.removeAttribute('aria-current');
  for (const li of root.querySelectorAll('#dg-toc .is-active')) li.classList.remove('is-active');
  for (const c of root.querySelectorAll('.dg-toc-current')) c.textContent = '';
  // The footer's year is the build's before the app runs, today's after.
  for (const y of root.querySelectorAll('.dg-year')) y.textContent = 'YEAR';
  // Back to top shows once the app sees the page scrolled down (an opening #hash).
  for (const b of root.querySelectorAll('.dg-to-top')) b.classList.remove('is-shown');
  // The theme switch says whether the dark theme is on once the app runs: the HTML cannot know
  // the reader's theme (its icon, drawn from the theme by the style sheet, is right from the start).
  for (const b of root.querySelectorAll('.dg-theme-toggle')) b.removeAttribute('aria-pressed');
  // The search box exists only with the app (no dead control without it); the bar kept its room.
  for (const s of root.querySelectorAll('.dg-search')) s.remove();
  return root.innerHTML.replace(/>\s+</g, '><').replace(/\s+/g, ' ').trim();
}

async function before_(path, options) {
  const page = await env.page(options);
  await page.route('**/s/docgen/app.*.js', (route) => route.abort());
  await page.goto(env.url + path);
  await page.waitForLoadState('networkidle');
  const result = { geometry: await page.evaluate(geometry, SELECTORS), markup: await page.evaluate(shellMarkup) };
  await page.context().close();
  return result;
}

async function after_(path, options) {
  const page = await env.page(options);
  await page.addInitScript(recordShifts);
  await holdAppUntilLaidOut(page);
  await page.goto(env.url + path);
  await ready(page);
  // The user key comes in after mount; it may move nothing.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const result = {
    geometry: await page.evaluate(geometry, SELECTORS),
    markup: await page.evaluate(shellMarkup),
    ...(await page.evaluate(() => ({
      shifts: window.__shiftsSince(window.__laidOut),
      allShifts: window.__shifts,
      laidOut: window.__laidOut,
      // The app runs once its script arrived: after that, its mount's shifts are all counted.
      appArrived: performance.getEntriesByType('resource').find((e) => /\/s\/docgen\/app\.[0-9a-f]+\.js$/.test(e.name))?.responseEnd,
    }))),
    errors: page.errors,
  };
  await page.context().close();
  return result;
}

async function assertStill(path, options) {
  const pre = await before_(path, options);
  const post = await after_(path, options);
  assert.ok(post.laidOut < post.appArrived, `the document was laid out (${post.laidOut} ms) before the app arrived (${post.appArrived} ms)`);
  assert.deepEqual(post.shifts, [], `no layout shift once the document was laid out: ${JSON.stringify(post.allShifts)}`);
  assert.deepEqual(post.geometry, pre.geometry);
  assert.equal(post.markup, pre.markup);
  assert.deepEqual(post.errors, []);
}

// The checks run three at a time: most of their time is waiting (for the network to be idle, for
// the app held back, for the rest of a slow page), and each has a tab of its own.
describe('mounting the app', { concurrency: 3 }, () => {
  for (const path of pages) {
    it(`moves nothing on ${path}`, () => assertStill(path));
  }

  // A link gated by an enabled feature can only be visible before the app runs if docgen marks
  // it (data-dg-allowed) when it builds the page; the style sheet already shows marked ones.
  it(`moves nothing on ${M}/reference/gates`, () =>
    assertStill(`${M}/reference/gates`),
  );

  // On a phone and a tablet: the drawer stays closed, the folded table of contents and the
  // buttons of the top bar are in place from the first paint.
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.tablet]) {
    for (const path of [`${M}/android/ad-formats/banners`, `${M}/android/advanced-settings#verbose-logging`, M, '/documentation/faq']) {
      it(`moves nothing at ${viewport.width} px on ${path}`, () => assertStill(path, { viewport }));
    }
  }
  it('moves nothing in the dark theme', () => assertStill(`${M}/android/ad-formats/banners`, { colorScheme: 'dark' }));
});

describe('a page arriving slowly', { concurrency: 3 }, () => {
  // The browser paints what it has parsed so far: the rest of the page (the footer, the data)
  // must not move what is already on screen, wherever the layout places it: on a long page and
  // on a short one whose footer is in the first screen, cut after the content or mid-footer.
  const cuts = ['</main>', '<nav class="dg-footer-links"'];
  for (const path of [`${M}/android/ad-formats/banners`, M, '/documentation/faq']) {
    for (const after of cuts) {
      it(`moves nothing on screen while ${path} streams in, cut at ${after}, at every size`, async () => {
        // The rest of a page is sent when the test says so; `sent` is the start of the last one.
        let sent = '';
        const waiting = [];
        const release = () => { for (const send of waiting.splice(0)) send(); };
        const until = (before) => {
          sent = before;
          return new Promise((resolve) => waiting.push(resolve));
        };
        const slow = await serve(env.dir, { stall: { after, until } });
        try {
          for (const viewport of Object.values(VIEWPORTS).concat([{ width: 1100, height: 900 }])) {
            const page = await env.page({ viewport });
            await page.addInitScript(recordShifts);
            await page.goto(`${slow.url}${path}`, { waitUntil: 'commit' });
            await parsedSoFar(page, sent);
            release();
            await page.waitForLoadState('load');
            await ready(page);
            await page.waitForTimeout(200);
            const seen = await page.evaluate(() => ({ shifts: window.__shiftsSince(performance.getEntriesByType('navigation')[0].responseEnd), all: window.__shifts, painted: performance.getEntriesByType('paint').length > 0, parsed: performance.getEntriesByType('navigation')[0].domContentLoadedEventStart, first: performance.getEntriesByType('paint')[0]?.startTime }));
            assert.ok(seen.painted && seen.first < seen.parsed, `${viewport.width} px: painted before the page was parsed (${seen.first} < ${seen.parsed})`);
            assert.deepEqual(seen.shifts, [], `${viewport.width} px, once the rest arrived: ${JSON.stringify(seen.all)}`);
            await page.context().close();
          }
        } finally {
          release();
          await slow.close();
        }
      });
    }
  }
});
