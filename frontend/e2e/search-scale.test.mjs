// The search's budget at scale: on the 10,000-page benchmark corpus (bench/gen-corpus), typing a
// query of one to three words into the search box costs at most 10 requests and 60 KB (gzip) of
// index files, as on this repository's site.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORPUS_PAGES, start } from './harness.mjs';
import { queryCost } from './searchCost.mjs';

const QUERY_DATA_GZIP = 60 * 1024;
const QUERY_REQUESTS = 10;

let env;
before(async () => {
  // Built while the other files ran, where the whole suite runs (e2e/run.mjs, CORPUS_PAGES).
  env = await start({ corpus: CORPUS_PAGES });
});
after(async () => {
  await env?.stop();
});

describe('search on the 10,000-page corpus', () => {
  it(`typing a query costs at most ${QUERY_REQUESTS} requests and ${QUERY_DATA_GZIP / 1024} KB of index (gzip)`, async () => {
    // A page some levels down, like a reader's.
    const { pages } = JSON.parse(readFileSync(path.join(env.dir, '_docgen/routes.json'), 'utf8'));
    const route = pages.map((p) => p.route).find((r) => r.split('/').length > 3);
    for (const query of ['configure', 'plugin', 'widget trace export', 'widget trace expo']) {
      const { early, received, data, described } = await queryCost(env, route, query);
      assert.deepEqual(early, [], 'nothing before the search is used');
      assert.ok(received.some(([p]) => p.includes('/_docgen/search/x/')), `results with excerpts: ${described}`);
      assert.ok(received.length <= QUERY_REQUESTS, described);
      assert.ok(data <= QUERY_DATA_GZIP, described);
      console.log(`# ${described}`);
    }
  });
});
