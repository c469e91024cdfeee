// The judged set: queries a reader asks on the real site, each from a page, with the pages that
// answer it (judged by reading the content). The real engine runs them over the real index as
// the search box does: the platform filter preselected to the page's platform, the page's
// platform and area boosted. Prints success@1, success@3 and MRR.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createSearch } from '../../src/search/engine';
import { contextOf } from '../../src/search/SearchFilters';
import { buildRealSite, fileFetch } from './realIndex';

interface Judged {
  query: string;
  from: string;
  answers: string[];
}

const judged = JSON.parse(readFileSync(path.join(__dirname, 'judged.json'), 'utf8')) as Judged[];
let site: ReturnType<typeof buildRealSite>;

beforeAll(() => {
  site = buildRealSite();
}, 120_000);
afterAll(() => {
  site.remove();
});

it('finds the page a reader means', async () => {
  expect(judged.length).toBeGreaterThanOrEqual(40);
  const { fetchImpl } = fileFetch(site.out);
  const search = createSearch('/_docgen/search/index.json', fetchImpl);
  const filters = await search.filters();
  let at1 = 0;
  let at3 = 0;
  let rr = 0;
  const misses: string[] = [];
  for (const { query, from, answers } of judged) {
    const context = contextOf(filters, from);
    // A query ends with a space once typed: the last word is not a prefix.
    const { results } = await search.query(`${query} `, { platform: context.platform, context, limit: 10 });
    const rank = results.findIndex((r) => answers.includes(r.url)) + 1;
    if (rank === 1) at1++;
    if (rank >= 1 && rank <= 3) at3++;
    if (rank >= 1) rr += 1 / rank;
    if (rank !== 1) misses.push(`${JSON.stringify(query)} from ${from}: rank ${rank || '-'}; top ${results.slice(0, 3).map((r) => r.url).join(', ')}`);
  }
  const n = judged.length;
  const figures = { queries: n, successAt1: at1 / n, successAt3: at3 / n, mrr: rr / n };
  console.log(`search relevance: ${n} queries, success@1 ${(100 * figures.successAt1).toFixed(1)} %, success@3 ${(100 * figures.successAt3).toFixed(1)} %, MRR ${figures.mrr.toFixed(3)}`);
  if (misses.length > 0) console.log(`not first:\n  ${misses.join('\n  ')}`);
  expect(figures.successAt3).toBeGreaterThanOrEqual(0.95);
  expect(figures.mrr).toBeGreaterThanOrEqual(0.9);
}, 60_000);
