// What typing a query into the search box downloads on this repository's site: nothing before
// the search is used, then at most a few requests and kilobytes of index, and no page. Run
// alone (e2e/run.mjs): a busy machine spaces the keys out, and each prefix typed could then be
// looked up on its own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { REAL_SITE, start } from './harness.mjs';
import { isSearchFile, queryCost } from './searchCost.mjs';

const BANNERS = '/documentation/mediation/android/ad-formats/banners';
/** The budget for one query typed in the box: index, shards, excerpt files and the search code, gzip. */
const QUERY_BUDGET_GZIP = 150 * 1024;
/** …of which the index's files (no code): at most this many bytes gzip in at most this many requests. */
const QUERY_DATA_GZIP = 60 * 1024;
const QUERY_REQUESTS = 10;

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

/** Gzip size of a served file, read from the site folder. */
function gzipSize(urlPath) {
  return zlib.gzipSync(readFileSync(path.join(env.dir, decodeURIComponent(urlPath))), { level: 9 }).length;
}

describe('what a search costs on the real site', () => {
  it(`downloads nothing for search before it is used; typing a query costs at most ${QUERY_REQUESTS} requests and ${QUERY_DATA_GZIP / 1024} KB of index (gzip), ${QUERY_BUDGET_GZIP / 1024} KB with the code`, async () => {
    for (const query of ['bcat', 'MaxInterstitialAd', 'GDPR deleted device IDs', 'dsp_latency', 'liftoff', 'rewarded video ads', 'app open ads']) {
      const { early, after, received, data, described } = await queryCost(env, BANNERS, query);
      assert.deepEqual(early, [], 'nothing before the search is used');
      // Titles and excerpts come from the excerpt files: no result's page is fetched.
      assert.deepEqual(after.filter((p) => p.endsWith('/index.html') || p.endsWith('/')), [], 'no page fetched');
      const files = [...new Set(after.filter(isSearchFile))];
      assert.ok(files.some((p) => p.endsWith('/_docgen/search/index.json')), files.join(', '));
      assert.ok(files.some((p) => p.includes('/_docgen/search/x/')), `an excerpt file: ${files.join(', ')}`);
      const code = files.filter((p) => p.endsWith('.js'));
      assert.equal(code.length, 1, 'the search code');
      assert.equal(received.length, after.filter((p) => p.includes('/_docgen/search/')).length, 'every file once');
      assert.ok(received.length <= QUERY_REQUESTS, described);
      assert.ok(data <= QUERY_DATA_GZIP, described);
      assert.ok(data + gzipSize(code[0]) <= QUERY_BUDGET_GZIP, described);
      console.log(`# ${described}`);
    }
  });
});
