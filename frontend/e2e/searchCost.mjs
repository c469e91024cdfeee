// What typing one query into the search box downloads: the requests after the page settled,
// and the search files' bodies gzipped (the test servers do not compress), for the budget
// tests on this repository's site and on the 10,000-page corpus.
import zlib from 'node:zlib';
import { firstVisit, ready } from './harness.mjs';

/** The index's files and the search code. */
export const isSearchFile = (p) => p.includes('/_docgen/search/') || /\/search\.[0-9a-f]+\.js$/.test(p);

/**
 * Opens the search with `/`, types `text` and waits for the list (or the no-results line). With
 * `whole`, the text arrives in one input event, as pasted: only the whole query is looked up,
 * however busy the machine (typed, each prefix the box sees before the next key is looked up too).
 */
export async function search(page, text, { whole = false } = {}) {
  await page.keyboard.press('/');
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.waitFor({ state: 'visible' });
  if (whole) await box.fill(text);
  else await page.keyboard.type(text, { delay: 15 });
  await page.waitForFunction(
    (t) => {
      const box = document.querySelector('[role="search"] [role="combobox"]');
      if (box?.getAttribute('aria-expanded') === 'true' && !document.querySelector('.dg-search-status')) return true;
      return document.querySelector('.dg-search-status')?.textContent?.startsWith(`No results for “${t}”`) ?? false;
    },
    text.trim(),
  );
  // The list answers the whole query, not a prefix typed before the last key.
  await page.waitForTimeout(300);
}

/**
 * Opens `route` in a fresh page as a first visit, checks nothing of the search was fetched
 * before it is used, types `query` into the search box and returns what that cost: the paths
 * requested after the page settled and [path, gzip bytes] of each index file received.
 */
export async function queryCost(env, route, query) {
  const page = await env.page();
  const requested = [];
  const received = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  page.on('response', async (r) => {
    const p = new URL(r.url()).pathname;
    if (p.includes('/_docgen/search/')) received.push([p, zlib.gzipSync(await r.body(), { level: 9 }).length]);
  });
  // The search's code counts too: none of it may come from an earlier check's visit.
  await firstVisit(page);
  await page.goto(env.url + route);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const early = requested.filter(isSearchFile);
  const before = requested.length;
  await search(page, query);
  await page.waitForLoadState('networkidle');
  const after = requested.slice(before);
  await page.context().close();
  const data = received.reduce((n, [, bytes]) => n + bytes, 0);
  const described = `“${query}”: ${received.length} requests, ${data} bytes gzip: ${received.map(([p, b]) => `${p.replace(/.*\/search\//, '')} ${b}`).join(', ')}`;
  return { early, after, received, data, described };
}
