import { describe, expect, it } from 'vitest';
import { createSearch, excerpt, queryTokens, SearchError, tokenize, type Result, type Segment } from '../src/search/engine';
import { excerptUrlOf, fakeFetch, fixtureFiles, indexOf, resplit, SEARCH_INDEX, shardUrl, type IndexFiles } from './searchFixtures';

const urls = (results: Result[]) => results.map((r) => r.url.replace(/^\/documentation/, ''));
const marked = (segments: Segment[]) => segments.filter((s) => s.mark).map((s) => s.text);
const plain = (segments: Segment[]) => segments.map((s) => s.text).join('');
/** The fixture cut into several shards and excerpt files of two docs. */
const cut = () => resplit(fixtureFiles(), ['d', 'i', 'interstitialad', 'l', 'p'], 2);

function setup(files: IndexFiles = fixtureFiles()) {
  const fetch = fakeFetch(files);
  const search = createSearch(SEARCH_INDEX, fetch);
  const fetched = () => fetch.mock.calls.map(([url]) => url);
  return { files, fetch, search, fetched };
}

describe('tokenize', () => {
  it('indexes identifiers whole and by their camel-case and snake-case parts', () => {
    expect(tokenize('MaxInterstitialAd')).toEqual(['maxinterstitialad', 'max', 'interstitial', 'ad']);
    expect(tokenize('AUCTION_PRICE')).toEqual(['auction_price', 'auction', 'price']);
    expect(tokenize('OpenRTB2')).toEqual(['openrtb2', 'open', 'rtb', '2']);
    expect(tokenize('HTMLParser')).toEqual(['htmlparser', 'html', 'parser']);
  });

  it('drops single letters but not digits, and gives parts only to tokens with a capital or a _', () => {
    expect(tokenize('a b 7 x_y iOS')).toEqual(['7', 'x_y', 'ios', 'os']);
    expect(tokenize('v2.0 3f0c2a9e iab25')).toEqual(['v2', '0', '3f0c2a9e', 'iab25']);
    expect(tokenize('device IDs')).toEqual(['device', 'ids']);
    expect(tokenize('ÜberMaß')).toEqual(['übermaß', 'über', 'maß']);
  });

  it('reads a query as whole tokens, lower-cased, each once', () => {
    expect(queryTokens('MaxInterstitialAd  dsp_latency maxinterstitialad')).toEqual(['maxinterstitialad', 'dsp_latency']);
  });
});

describe('createSearch over the writer’s index', () => {
  it('loads index.json, then only the shard of the word and the excerpt file of each result', async () => {
    const { search, fetched, files } = setup(cut());
    const { results, total, suggestion } = await search.query('bcat ');
    expect(urls(results)).toEqual(['/dsp/ortb-spec/bid-request']);
    expect(total).toBe(1);
    expect(suggestion).toBeNull();
    expect(fetched()).toEqual([SEARCH_INDEX, shardUrl(files, '0'), excerptUrlOf(files, '/dsp/ortb-spec/bid-request')]);
  });

  it('finds a term in its shard by binary search of the first terms', async () => {
    const { search, fetched, files } = setup(cut());
    expect(urls((await search.query('dsp_latency ')).results)).toEqual(['/dsp/reporting']);
    expect((await search.query('liftoff ')).total).toBe(3);
    expect(fetched().filter((u) => u.includes('/s/'))).toEqual([shardUrl(files, 'd'), shardUrl(files, 'l')]);
  });

  it('matches the last word as a prefix while it is typed, across consecutive shards', async () => {
    const { search, fetched, files } = setup(cut());
    // `interstitiala…` terms start in shard "i" (interstitial) and go on in "interstitialad".
    const { results } = await search.query('interstitiala');
    expect(fetched().filter((u) => u.includes('/s/'))).toEqual([shardUrl(files, 'i'), shardUrl(files, 'interstitialad')]);
    expect(urls(results)).toEqual(['/mediation/networks']);
    expect(marked(results[0].sections[0].excerpt)).toEqual(['InterstitialAdapter']);
    // Typed out (a space after it), the word is a word: no page holds `interstitiala`.
    expect((await search.query('interstitiala ')).suggestion).toBe('interstitial');
  });

  it('weights the title over headings over the text', async () => {
    const { search } = setup();
    // "GDPR" is in the title of the API page, in a section of the bid request and in the FAQ's text.
    expect(urls((await search.query('gdpr')).results)).toEqual(['/dsp/gdpr-deleted-device-ids-api', '/dsp/ortb-spec/bid-request', '/skafaq']);
    // The word typed before its completions, titles before the text.
    expect(urls((await search.query('interst')).results)).toEqual(['/mediation/android/ad-formats/interstitials', '/mediation/ios/ad-formats/interstitials', '/mediation/networks']);
  });

  it('weighs a word in a short page over the same word once in a long one', async () => {
    const { search } = setup();
    // The glossary comes first in the menu; its length puts it second.
    expect(urls((await search.query('nurl ')).results)).toEqual(['/dsp/win-notice', '/dsp/glossary']);
  });

  it('ranks one page across platforms together, in the menu’s order, the reader’s platform first', async () => {
    const { search } = setup();
    const { results } = await search.query('vungle ');
    expect(urls(results)).toEqual(['/mediation/android/mediation-setup/liftoff', '/mediation/ios/mediation-setup/liftoff', '/mediation/networks']);
    expect(results[0].score).toBe(results[1].score);
    expect(urls((await search.query('vungle ', { context: { platform: 'iOS' } })).results)[0]).toBe('/mediation/ios/mediation-setup/liftoff');
    // A platform named in the query says which one.
    expect(urls((await search.query('liftoff ios ')).results)[0]).toBe('/mediation/ios/mediation-setup/liftoff');
  });

  it('keeps the pages matching every word, and falls back to those matching the most', async () => {
    const { search } = setup();
    expect(urls((await search.query('interstitial liftoff')).results)).toEqual(['/mediation/networks']);
    expect(urls((await search.query('liftoff zebra ')).results)).toEqual(urls((await search.query('liftoff ')).results));
    expect(await search.query('zebra quagga')).toEqual({ results: [], total: 0, suggestion: null });
  });

  it('reads a word one or two edits away as a typo, and says how it read the query', async () => {
    const { search } = setup(cut());
    const swapped = await search.query('interstitail ');
    expect(swapped.suggestion).toBe('interstitial');
    expect(urls(swapped.results)[0]).toBe('/mediation/android/ad-formats/interstitials');
    expect(marked(swapped.results[0].excerpt)).toEqual(['Interstitial']);
    const missing = await search.query('liftof monetize ');
    expect(missing.suggestion).toBe('liftoff monetize');
    expect(urls(missing.results)).toEqual(['/mediation/android/mediation-setup/liftoff', '/mediation/ios/mediation-setup/liftoff', '/mediation/networks']);
    // Short words are not corrected: too many words are one edit from them.
    expect((await search.query('bcar ')).total).toBe(0);
  });

  it('finds other forms of a word', async () => {
    const { search } = setup();
    const { results } = await search.query('loading ');
    expect(urls(results)).toContain('/mediation/android/ad-formats/interstitials');
    expect(results.find((r) => r.url.endsWith('/banners'))?.sections[0].anchor).toBe('loading-a-banner');
  });

  it('finds a phrase of a synonym group for another (search.synonyms)', async () => {
    const { search } = setup();
    // The networks page says "medium rectangle", never "mrec"; the banners page says "MRECs".
    const mrec = urls((await search.query('mrec ')).results);
    expect(mrec).toEqual(['/mediation/android/ad-formats/banners', '/mediation/networks']);
    expect(urls((await search.query('medium rectangle ')).results)).toEqual(mrec);
  });

  it('counts every phrase of a synonym group with the rarity of the words typed', async () => {
    const { search } = setup();
    // "video" is rarer than "rewarded": the page saying "rewarded video" must not outrank the
    // page titled "Rewarded Ads" for "rewarded" by the rarity of "video".
    const { results } = await search.query('rewarded ');
    expect(urls(results)[0]).toBe('/mediation/android/ad-formats/rewarded-ads');
    expect(urls(results)).toContain('/dsp/reporting');
    expect(urls((await search.query('rewarded video ')).results)).toContain('/dsp/reporting');
  });

  it('filters by area and by platform', async () => {
    const { search } = setup();
    expect(urls((await search.query('liftoff', { platform: 'iOS' })).results)).toEqual(['/mediation/ios/mediation-setup/liftoff', '/mediation/networks']);
    expect(urls((await search.query('gdpr', { area: 'Demand Partners' })).results)).toEqual(['/dsp/gdpr-deleted-device-ids-api', '/dsp/ortb-spec/bid-request']);
    expect(urls((await search.query('gdpr', { area: 'SKAdNetwork FAQ' })).results)).toEqual(['/skafaq']);
    expect((await search.query('liftoff', { area: 'Demand Partners' })).total).toBe(0);
    const { results } = await search.query('liftoff', { area: 'MAX Mediation', platform: 'Android' });
    expect(results[0]).toMatchObject({ area: 'MAX Mediation', platform: 'Android', title: 'Liftoff Monetize' });
  });

  it('returns url, title, breadcrumb, the matching sections and an excerpt with the words marked', async () => {
    const { search } = setup();
    const [result] = (await search.query('MaxInterstitialAd')).results;
    expect(result).toMatchObject({
      url: '/documentation/mediation/android/ad-formats/interstitials',
      title: 'Interstitial Ads',
      breadcrumb: ['MAX Mediation', 'Android', 'Ad Formats'],
      excerptAnchor: 'loading-an-interstitial-ad',
    });
    expect(plain(result.excerpt)).toBe('Create a MaxInterstitialAd with your ad unit ID, set a listener and call loadAd.');
    expect(marked(result.excerpt)).toEqual(['MaxInterstitialAd']);
    expect(result.sections.map((s) => s.url)).toEqual(['/documentation/mediation/android/ad-formats/interstitials#loading-an-interstitial-ad']);
    expect(result.sections[0].heading).toBe('Loading an Interstitial Ad');
    // The parts of an identifier are marked where they match.
    const [reporting] = (await search.query('auction price')).results;
    expect(marked(reporting.excerpt)).toEqual(['price', 'AUCTION_PRICE']);
  });

  it('shows the stored window of a long text: its start', async () => {
    const { search } = setup();
    const [faq] = (await search.query('conversion value')).results;
    expect(plain(faq.excerpt).length).toBeLessThanOrEqual(172);
    expect(plain(faq.excerpt)).toMatch(/^SKAdNetwork lets ad networks/);
  });

  it('returns at most `limit` results with the count of all, fetching only their excerpt files', async () => {
    const { search, fetched } = setup(cut());
    const few = await search.query('ad', { limit: 2 });
    expect(few.results).toHaveLength(2);
    expect(few.total).toBeGreaterThan(8);
    expect(fetched().filter((u) => u.includes('/x/')).length).toBeLessThanOrEqual(2);
    expect((await setup().search.query('ad')).results).toHaveLength(8);
  });

  it('fetches at most five new excerpt files an answer, stopping before the first result beyond them', async () => {
    const one = resplit(fixtureFiles(), [], 1);
    const { search, fetched } = setup(one);
    const first = await search.query('ad ', { limit: 20 });
    expect(fetched().filter((u) => u.includes('/x/'))).toHaveLength(5);
    expect(first.results).toHaveLength(5);
    const all = await search.query('ad ', { limit: 20 });
    expect(urls(all.results).slice(0, 5)).toEqual(urls(first.results));
    expect(all.results).toHaveLength(Math.min(10, all.total));
  });

  it('fetches every file once', async () => {
    const { search, fetch } = setup();
    await Promise.all([search.query('liftoff'), search.query('liftoff')]);
    const before = fetch.mock.calls.length;
    await search.query('liftoff monetize');
    await search.filters();
    expect(fetch.mock.calls.length).toBe(before);
  });

  it('tells the areas and platforms of the index with their addresses', async () => {
    const { search } = setup();
    expect(await search.filters()).toEqual({
      areas: ['MAX Mediation', 'Demand Partners', 'SKAdNetwork FAQ'],
      platforms: ['Android', 'iOS'],
      areaHrefs: ['/documentation/mediation', '/documentation/dsp', '/documentation/skafaq'],
      platformHrefs: ['/documentation/mediation/android', '/documentation/mediation/ios'],
    });
  });

  it('answers an empty query with nothing and loads no shard', async () => {
    const { search, fetched } = setup();
    expect((await search.query('  ')).results).toEqual([]);
    expect((await search.query('a b ')).results).toEqual([]);
    expect(fetched()).toEqual([SEARCH_INDEX]);
  });

  it('drops only the words of a shard that failed, and fails when every shard did', async () => {
    const files = cut();
    const shard = shardUrl(files, 'l');
    const body = files.get(shard)!;
    files.delete(shard);
    const { search, fetch } = setup(files);
    // "liftoff" is in the failed shard; "gdpr" answers alone.
    expect(urls((await search.query('gdpr liftoff ')).results)).toEqual(urls((await search.query('gdpr ')).results));
    const error = await search.query('liftoff ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchError);
    expect(error).toMatchObject({ status: 404, url: shard });
    // The next query tries again.
    files.set(shard, body);
    expect((await search.query('liftoff ')).total).toBe(3);
    expect(fetch.mock.calls.filter(([u]) => u === shard).length).toBe(3);
  });

  it('drops only the results of an excerpt file that failed, and fails when all did', async () => {
    const files = resplit(fixtureFiles(), [], 1);
    const lost = excerptUrlOf(files, '/mediation/ios/mediation-setup/liftoff');
    expect(lost).not.toBe(excerptUrlOf(files, '/mediation/android/mediation-setup/liftoff'));
    files.delete(lost);
    const { search } = setup(files);
    const { results, total } = await search.query('liftoff ');
    expect(urls(results)).toEqual(['/mediation/android/mediation-setup/liftoff', '/mediation/networks']);
    expect(total).toBe(3);
    await expect(search.query('liftoff ', { platform: 'iOS', area: 'MAX Mediation', limit: 1 })).rejects.toBeInstanceOf(SearchError);
  });

  it('refuses an index of another version, or a network failure, with a SearchError', async () => {
    const files = fixtureFiles();
    files.set(SEARCH_INDEX, JSON.stringify({ ...indexOf(files), version: 2 }));
    await expect(setup(files).search.query('x')).rejects.toMatchObject({ name: 'SearchError', message: expect.stringContaining('version 2') });
    const offline = createSearch(SEARCH_INDEX, () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.filters()).rejects.toMatchObject({ status: 0 });
  });
});

describe('createSearch over an index written by hand', () => {
  // Scores as the writer stores them: steps of the weight times 4, +1 in the title, +2 in a heading.
  const record = (d: number): unknown => [`/p${String(d)}`, [], `Page ${String(d)}`, [['', '', `Text ${String(d)}.`], ['h', 'Heading', 'More.']]];
  const files: IndexFiles = new Map([
    [SEARCH_INDEX, JSON.stringify({ version: 3, docs: 5000, shards: [['a', 's/a.json']], excerpts: { digest: '0a', sizes: [8] }, areas: ['Docs'], areaHrefs: ['/'], area: [[5000, 0]], platforms: [], platformHrefs: [], platform: [[5000, -1]], twins: [], synonyms: [] })],
    [
      '/_docgen/search/s/a.json',
      JSON.stringify({
        t: {
          // df 3, one doc left out by the cap: doc 1 score 20 in section 1, doc 3 score 60 in its heading.
          bcat: [3, 1, 20 * 4, 1, 2, 60 * 4 + 2, 1],
          // On nearly every page, though the list keeps two: doc 4 in its title, doc 5 in its text.
          common: [4900, 4, 90 * 4 + 1, -1, 1, 30 * 4, 0],
          rare: [2, 6, 30 * 4, 0, 1, 30 * 4, 0],
          constructor: [1, 0, 10 * 4, 0],
        },
      }),
    ],
    ['/_docgen/search/x/0.0a.json', JSON.stringify(Array.from({ length: 8 }, (_, d) => record(d)))],
  ]);

  it('reads doc deltas, scores, flags and sections; idf from df, ties by doc', async () => {
    const search = createSearch(SEARCH_INDEX, fakeFetch(files));
    const { results } = await search.query('bcat ');
    expect(results.map((r) => r.url)).toEqual(['/p3', '/p1']);
    expect(results[0].sections.map((s) => s.url)).toEqual(['/p3#h']);
    // A rare word in the text outranks a common one in the title: idf comes from df, not from
    // the length of the kept list. Equal scores go by doc number.
    expect((await search.query('common rare ')).results.map((r) => r.url)).toEqual(['/p6', '/p7', '/p4', '/p5']);
    // Terms named like Object properties are just terms.
    expect((await search.query('constructor ')).results.map((r) => r.doc)).toEqual([0]);
    expect((await search.query('__proto__ ')).total).toBe(0);
  });
});

describe('excerpt', () => {
  const matches = (term: string) => term === 'needle';

  it('keeps a short text whole', () => {
    expect(excerpt('a needle here', matches)).toEqual([
      { text: 'a ', mark: false },
      { text: 'needle', mark: true },
      { text: ' here', mark: false },
    ]);
  });

  it('cuts at spaces, with an ellipsis on each cut side', () => {
    const text = `${'lead '.repeat(40)}the needle ${'tail '.repeat(40)}`;
    const shown = plain(excerpt(text, matches));
    expect(shown).toMatch(/^… ?lead/);
    expect(shown).toMatch(/tail ?…$/);
    expect(shown).not.toMatch(/\b(lea|ai|tai)\b/);
  });
});
