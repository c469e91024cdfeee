import { describe, expect, it } from 'vitest';
import { articleSections, createSearch, excerpt, queryTokens, SearchError, tokenize, type Result, type Segment } from '../src/search/engine';
import { buildIndex, docListUrl, fakeFetch, fixtureDocs, pageFile, pageHtml, postingList, SEARCH_INDEX, shardUrl, type FixtureDoc } from './searchFixtures';

const docOf = (url: string) => fixtureDocs.findIndex((d) => d.url.endsWith(url));
const urls = (results: Result[]) => results.map((r) => r.url.replace(/^\/documentation/, ''));
const marked = (segments: Segment[]) => segments.filter((s) => s.mark).map((s) => s.text);
const plain = (segments: Segment[]) => segments.map((s) => s.text).join('');

function setup(files = buildIndex()) {
  const fetch = fakeFetch(files.files);
  const search = createSearch(SEARCH_INDEX, fetch);
  const fetched = () => fetch.mock.calls.map(([url]) => url);
  return { ...files, fetch, search, fetched };
}

describe('tokenize', () => {
  it('indexes identifiers whole and by their camel-case and snake-case parts', () => {
    expect(tokenize('MaxInterstitialAd')).toEqual(['maxinterstitialad', 'max', 'interstitial', 'ad']);
    expect(tokenize('AUCTION_PRICE')).toEqual(['auction_price', 'auction', 'price']);
    expect(tokenize('dsp_latency')).toEqual(['dsp_latency', 'dsp', 'latency']);
    expect(tokenize('OpenRTB2')).toEqual(['openrtb2', 'open', 'rtb', '2']);
    expect(tokenize('HTMLParser')).toEqual(['htmlparser', 'html', 'parser']);
  });

  it('does not repeat a part equal to the token, and drops single letters but not digits', () => {
    expect(tokenize('latency')).toEqual(['latency']);
    expect(tokenize('a b 7 x_y iOS')).toEqual(['7', 'x_y', 'ios', 'os']);
  });

  it('gives parts only to tokens with a capital or a _, as the index writer does', () => {
    // Lower-case letters and digits are one word: no `2` from `v2`, no digits from a hash.
    expect(tokenize('v2.0 3f0c2a9e iab25')).toEqual(['v2', '0', '3f0c2a9e', 'iab25']);
    expect(tokenize('IAB25')).toEqual(['iab25', 'iab', '25']);
  });

  it('reads capitals followed by a final s as one plural word', () => {
    expect(tokenize('device IDs')).toEqual(['device', 'ids']);
    expect(tokenize('APIs URLs')).toEqual(['apis', 'urls']);
    // Only at the end of the token: elsewhere the s starts the next camel-case run.
    expect(tokenize('IDsList')).toEqual(['idslist', 'ds', 'list']);
    expect(tokenize('URLs_count')).toEqual(['urls_count', 'ur', 'ls', 'count']);
  });

  it('splits on anything but letters, digits and _, Unicode letters and cases included', () => {
    expect(tokenize('bcat, badv; "bapp"')).toEqual(['bcat', 'badv', 'bapp']);
    expect(tokenize('Größe café')).toEqual(['größe', 'café']);
    expect(tokenize('ÜberMaß')).toEqual(['übermaß', 'über', 'maß']);
    expect(tokenize('device.ifa')).toEqual(['device', 'ifa']);
  });

  it('reads a query as whole tokens, lower-cased, each once', () => {
    expect(queryTokens('MaxInterstitialAd  dsp_latency maxinterstitialad')).toEqual(['maxinterstitialad', 'dsp_latency']);
    expect(queryTokens('GDPR deleted device IDs')).toEqual(['gdpr', 'deleted', 'device', 'ids']);
  });
});

describe('createSearch', () => {
  it('loads index.json, then only the shard of the word, and the doc list and page of each result', async () => {
    const { search, fetched, index } = setup();
    const results = await search.query('bcat ');
    expect(urls(results)).toEqual(['/dsp/ortb-spec/bid-request']);
    const doc = docOf('/bid-request');
    expect(fetched()).toEqual([SEARCH_INDEX, shardUrl(index, '0'), docListUrl(index, doc), pageFile(fixtureDocs[doc].url)]);
  });

  it('finds a term in the right shard by binary search of the first terms', async () => {
    const { search, fetched, index } = setup();
    expect(urls(await search.query('dsp_latency '))).toEqual(['/dsp/reporting']);
    expect(urls(await search.query('liftoff '))).toHaveLength(3);
    expect(fetched().filter((u) => u.includes('/s/'))).toEqual([shardUrl(index, 'd'), shardUrl(index, 'l')]);
  });

  it('matches the last word as a prefix, across consecutive shards', async () => {
    const { search, fetched, index } = setup();
    // `interstitiala…` terms start in shard "i" (interstitial) and go on in "interstitialad".
    const results = await search.query('interstitiala');
    expect(fetched().filter((u) => u.includes('/s/'))).toEqual([shardUrl(index, 'i'), shardUrl(index, 'interstitialad')]);
    expect(urls(results)).toEqual(['/mediation/networks']);
    expect(marked(results[0].sections[0].excerpt)).toEqual(['InterstitialAdapter']);
  });

  it('ranks the word typed before its completions, and titles before body text', async () => {
    const { search } = setup();
    const results = await search.query('interst');
    expect(urls(results).slice(0, 2)).toEqual(['/mediation/android/ad-formats/interstitials', '/mediation/ios/ad-formats/interstitials']);
    expect(urls(results)).toContain('/mediation/networks');
    expect(urls(await search.query('liftoff'))).toEqual([
      '/mediation/android/mediation-setup/liftoff',
      '/mediation/ios/mediation-setup/liftoff',
      '/mediation/networks',
    ]);
  });

  it('weights a word in the title above the same word in the text', async () => {
    const { search } = setup();
    // "GDPR" is in the title of the API page and in the text of two others.
    const results = await search.query('gdpr');
    expect(urls(results)[0]).toBe('/dsp/gdpr-deleted-device-ids-api');
    expect(urls(results)).toHaveLength(3);
    expect(urls(await search.query('GDPR deleted device IDs'))[0]).toBe('/dsp/gdpr-deleted-device-ids-api');
  });

  it('keeps the pages matching every word, and falls back to those matching the most', async () => {
    const { search } = setup();
    // Only the networks page has both words.
    expect(urls(await search.query('interstitial liftoff'))).toEqual(['/mediation/networks']);
    // No page has "zebra": the pages with "liftoff" are the best there is.
    expect(urls(await search.query('liftoff zebra '))).toEqual(urls(await search.query('liftoff ')));
    expect(await search.query('zebra quagga')).toEqual([]);
  });

  it('filters by area and by platform through the run-length tables', async () => {
    const { search } = setup();
    expect(urls(await search.query('liftoff', { platform: 'iOS' }))).toEqual(['/mediation/ios/mediation-setup/liftoff']);
    expect(urls(await search.query('gdpr', { area: 'Demand Partners' }))).toEqual(['/dsp/gdpr-deleted-device-ids-api', '/dsp/ortb-spec/bid-request']);
    expect(urls(await search.query('gdpr', { area: 'SKAdNetwork FAQ' }))).toEqual(['/skafaq']);
    expect(await search.query('liftoff', { area: 'Demand Partners' })).toEqual([]);
    expect(await search.query('liftoff', { area: 'No such area' })).toEqual([]);
    const [first] = await search.query('liftoff', { area: 'MAX Mediation', platform: 'Android' });
    expect(first).toMatchObject({ area: 'MAX Mediation', platform: 'Android', title: 'Liftoff Monetize' });
  });

  it('returns url, title, breadcrumb and an excerpt with the matched words marked', async () => {
    const { search } = setup();
    const [result] = await search.query('MaxInterstitialAd');
    expect(result).toMatchObject({
      url: '/documentation/mediation/android/ad-formats/interstitials',
      title: 'Interstitial Ads',
      breadcrumb: ['MAX Mediation', 'Android', 'Ad Formats'],
      area: 'MAX Mediation',
      platform: 'Android',
    });
    expect(marked(result.excerpt)).toEqual(['MaxInterstitialAd']);
    expect(plain(result.excerpt)).toBe('Create a MaxInterstitialAd with your ad unit ID, set a listener and call loadAd.');
  });

  it('marks the matching parts of identifiers and every form of the word typed', async () => {
    const { search } = setup();
    const [result] = await search.query('auction price');
    expect(marked(result.excerpt)).toEqual(['price', 'AUCTION_PRICE']);
    const [interstitials] = await search.query('interstitial ');
    expect(marked(interstitials.excerpt)).toEqual(['Interstitial']);
    const loading = interstitials.sections.find((s) => s.anchor === 'loading-an-interstitial-ad')!;
    expect(marked(loading.excerpt)).toEqual(['Interstitial']);
    expect(plain(loading.excerpt)).toContain('MaxInterstitialAd');
  });

  it('gives the matching sections as sub-results linking to their headings, best first, at most three', async () => {
    const { search } = setup();
    const [result] = await search.query('maxinterstitialad');
    expect(result.sections.map((s) => s.url)).toEqual([
      '/documentation/mediation/android/ad-formats/interstitials#loading-an-interstitial-ad',
      '/documentation/mediation/android/ad-formats/interstitials#showing-an-interstitial-ad',
    ]);
    expect(result.sections[0]).toMatchObject({ anchor: 'loading-an-interstitial-ad', heading: 'Loading an Interstitial Ad' });
    expect(result.excerptAnchor).toBe('loading-an-interstitial-ad');

    // "bcat" is in the intro and in two of the three sections; the intro is the page itself.
    const [bidRequest] = await search.query('bcat');
    expect(bidRequest.sections.map((s) => s.anchor)).toEqual(['bid-request-object', 'banner-example']);
    expect(bidRequest.excerptAnchor).toBe('');
    const [many] = await search.query('interstitial ad');
    expect(many.sections.map((s) => s.anchor)).toEqual(['loading-an-interstitial-ad', 'showing-an-interstitial-ad', 'related']);
  });

  it('finds the matching sections in the page: by the query words they hold, a heading match counting more, ties in page order', async () => {
    const page: FixtureDoc = {
      url: '/floors',
      title: 'Waterfalls',
      breadcrumb: [],
      area: 0,
      platform: -1,
      intro: 'How a waterfall is ordered.',
      sections: [
        ['overview', 'Overview', 'The price of an impression.'],
        ['price-floor', 'Price Floor', 'Set it per ad unit.'],
        ['rules', 'Rules', 'A floor price applies to each bid.'],
        ['floor', 'Floor', 'Nothing else here.'],
        ['more', 'More', 'One more price.'],
      ],
    };
    const { search } = setup(buildIndex([page], []));
    const sections = async (q: string) => (await search.query(q))[0].sections.map((s) => s.anchor);
    // Both words in a heading, both in a text, one in a heading.
    expect(await sections('floor price ')).toEqual(['price-floor', 'rules', 'floor']);
    // One word: in a heading first, then in page order, at most three.
    expect(await sections('price ')).toEqual(['price-floor', 'overview', 'rules']);
    // The excerpt comes from the best section whose text holds the word, not from one whose
    // heading alone does.
    const [floor] = await search.query('floor ');
    expect(floor.sections.map((s) => s.anchor)).toEqual(['price-floor', 'floor', 'rules']);
    expect(floor.excerptAnchor).toBe('rules');
    expect(marked(floor.excerpt)).toEqual(['floor']);
    // The word typed last matches as a prefix here too; the title is the intro's heading.
    expect(await sections('waterf')).toEqual([]);
    expect((await search.query('waterf'))[0].excerptAnchor).toBe('');
  });

  it('reads a page without intro: its first section is a section like the others', async () => {
    const page: FixtureDoc = {
      url: '/no-intro',
      title: 'Placements',
      breadcrumb: [],
      area: 0,
      platform: -1,
      intro: '',
      sections: [
        ['setup', 'Setup', 'Create a placement for each ad unit.'],
        ['naming', 'Naming', 'Name the placement after its screen.'],
      ],
    };
    const { search } = setup(buildIndex([page], []));
    const [result] = await search.query('placement ');
    expect(result.sections.map((s) => s.anchor)).toEqual(['setup', 'naming']);
    expect(result.excerptAnchor).toBe('setup');
    expect(plain(result.excerpt)).toBe('Create a placement for each ad unit.');
    // Nothing in the text holds the title's word: the excerpt is the start of the page.
    const [title] = await search.query('placements ');
    expect(title.sections).toEqual([]);
    expect(title.excerptAnchor).toBe('setup');
  });

  it('cuts a long text to a window around the matched words', async () => {
    const { search } = setup();
    const [faq] = await search.query('conversion value');
    const text = plain(faq.excerpt);
    expect(text.startsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(165);
    expect(marked(faq.excerpt)).toEqual(['conversion', 'value']);
  });

  it('orders equal scores by doc number, the same every time', async () => {
    const { search } = setup();
    const a = await search.query('vungle');
    const b = await search.query('Vungle ');
    expect(urls(a)).toEqual(['/mediation/android/mediation-setup/liftoff', '/mediation/ios/mediation-setup/liftoff', '/mediation/networks']);
    expect(a[0].score).toBe(a[1].score);
    expect(urls(b)).toEqual(urls(a));
  });

  it('returns at most `limit` results, 8 by default, fetching only their pages', async () => {
    const { search, fetched } = setup();
    const results = await search.query('ad', { limit: 2 });
    expect(results).toHaveLength(2);
    expect(fetched().filter((u) => u.endsWith('/index.html'))).toHaveLength(2);
    expect((await search.query('a')).length).toBeLessThanOrEqual(8);
  });

  it('fetches every file once', async () => {
    const { search, fetch } = setup();
    await Promise.all([search.query('liftoff'), search.query('liftoff')]);
    const before = fetch.mock.calls.length;
    await search.query('liftoff monetize');
    await search.filters();
    expect(fetch.mock.calls.length).toBe(before);
  });

  it('tells the areas and platforms of the index', async () => {
    const { search } = setup();
    expect(await search.filters()).toEqual({ areas: ['MAX Mediation', 'Demand Partners', 'SKAdNetwork FAQ'], platforms: ['Android', 'iOS'] });
  });

  it('answers an empty query with nothing and loads no shard', async () => {
    const { search, fetched } = setup();
    expect(await search.query('  ')).toEqual([]);
    expect(await search.query('a b ')).toEqual([]);
    expect(fetched()).toEqual([SEARCH_INDEX]);
  });

  it('reports a file that cannot be loaded, and tries it again on the next query', async () => {
    const { files, index } = buildIndex();
    const shard = shardUrl(index, 'l');
    const body = files.get(shard);
    files.delete(shard);
    const { search, fetch } = setup({ files, index });
    const error = await search.query('liftoff').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchError);
    expect(error).toMatchObject({ status: 404, url: shard });
    files.set(shard, body);
    expect(urls(await search.query('liftoff'))).toHaveLength(3);
    expect(fetch.mock.calls.filter(([u]) => u === shard)).toHaveLength(2);
  });

  it('refuses an index of another version, or a network failure, with a SearchError', async () => {
    const { files } = buildIndex();
    files.set(SEARCH_INDEX, { ...(files.get(SEARCH_INDEX) as object), version: 1 });
    await expect(setup({ files, index: buildIndex().index }).search.query('x')).rejects.toMatchObject({ name: 'SearchError', message: expect.stringContaining('version 1') });
    const offline = createSearch(SEARCH_INDEX, async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.filters()).rejects.toMatchObject({ status: 0 });
  });

  it('reads postings written by hand: doc deltas, weights, the df of a capped list', async () => {
    const index = { version: 2, docs: 5000, shards: [['a', 's/a.json']], chunk: 64, chunks: ['k'], areas: ['Docs'], area: [[5000, 0]], platforms: [], platform: [[5000, -1]] };
    const shard = {
      t: {
        // df 3, one doc left out by the cap: doc 1 weight 2, doc 3 weight 9.
        bcat: [3, 1, 2, 2, 9],
        // On nearly every page, though the list keeps two: doc 4 in its title, doc 5 in its text.
        common: [4900, 4, 10, 1, 1],
        // On two pages, in their text.
        rare: [2, 6, 1, 1, 1],
        constructor: [1, 0, 1],
      },
    };
    const page = (d: number, intro: string, sections: Array<[string, string, string]> = []): [string, string] => [
      pageFile(`/p${d}`),
      pageHtml({ url: `/p${d}`, title: `Page ${d}`, breadcrumb: [], intro, sections }),
    ];
    const files = new Map<string, unknown>([
      [SEARCH_INDEX, index],
      ['/_docgen/search/s/a.json', shard],
      ['/_docgen/search/d/k.json', Array.from({ length: 8 }, (_, d) => `/p${d}`)],
      page(0, 'Intro constructor.'),
      // No intro: the first entry is a section.
      page(1, '', [['h1', 'Heading 1', 'Text bcat.']]),
      page(3, 'Intro bcat.', [
        ['h1', 'Heading 1', 'Text 1.'],
        ['h2', 'Heading 2', 'Text 2 bcat.'],
        ['h3', 'Heading 3', 'Text 3.'],
        ['h4', 'The bcat list', 'Text 4 bcat.'],
      ]),
      page(4, 'Common.'),
      page(5, 'Common.'),
      page(6, 'Rare.'),
      page(7, 'Rare.'),
    ]);
    const search = createSearch(SEARCH_INDEX, fakeFetch(files));
    const results = await search.query('bcat ');
    expect(results.map((r) => r.url)).toEqual(['/p3', '/p1']);
    expect(results[0].sections.map((s) => s.url)).toEqual(['/p3#h4', '/p3#h2']);
    expect(results[1].sections.map((s) => s.url)).toEqual(['/p1#h1']);
    // No page has both words; a rare word in the text outranks a common one in the title,
    // because idf comes from df, not from the length of the kept list.
    expect((await search.query('common rare ')).map((r) => r.url)).toEqual(['/p6', '/p7', '/p4', '/p5']);
    // Terms named like Object properties are just terms.
    expect((await search.query('constructor ')).map((r) => r.doc)).toEqual([0]);
    expect(await search.query('__proto__ ')).toEqual([]);
  });
});

describe('articleSections', () => {
  const article = (html: string) => {
    const doc = new DOMParser().parseFromString(`<article class="dg-article">${html}</article>`, 'text/html');
    return doc.querySelector('article')!;
  };

  it('reads a page as the index writer does: sections by h2 and h3, text decoded and collapsed', () => {
    // The same page as the index writer's own test (src/search/text.rs).
    const html = [
      '<h1 id="t">Title<a class="dg-anchor" href="#t">#</a></h1>',
      '<p>Intro &amp; <code>MaxAdView</code> text.</p>',
      '<h2 id="load-an-ad">Load an <em>ad</em><a class="dg-anchor" href="#load-an-ad" aria-label="Link to this section: Load an ad">#</a></h2>',
      "<p>Call<br>load().</p><script>var x = '<p>';</script>",
      '<ul><li>one</li><li>two</li></ul><!-- a > comment -->',
      '<h3 id="x&amp;y">X &lt; Y</h3><pre><code><span class="k">val</span> a</code></pre>',
    ].join('\n');
    expect(articleSections(article(html))).toEqual([
      ['', '', 'Intro & MaxAdView text.'],
      ['load-an-ad', 'Load an ad', 'Call load(). one two'],
      ['x&y', 'X < Y', 'val a'],
    ]);
  });

  it('keeps code tab labels apart, joins inline markup, and leaves out the page footer', () => {
    const html =
      '<div role="tablist"><button>Kotlin</button><button>Java</button></div><p>un<em>break</em>able</p>' +
      '<footer class="dg-page-footer"><a href="/e">Edit this page</a></footer>';
    expect(articleSections(article(html))).toEqual([['', '', 'Kotlin Java unbreakable']]);
  });
});

describe('the fixture index', () => {
  it('holds one pair per page and term: the summed weight of title, headings and text, at most 255', () => {
    const page = (title: string, intro: string, sections: Array<[string, string, string]> = []): FixtureDoc => ({ url: '/x', title, breadcrumb: [], area: 0, platform: -1, intro, sections });
    const { files, index } = buildIndex([page('Bcat', 'bcat and bcat'), page('Other', '', [['h', 'Bcat list', 'The bcat.']]), page('Many', 'bcat '.repeat(300))], []);
    const shard = files.get('/_docgen/search/' + index.shards[0][1]) as { t: Record<string, number[]> };
    expect(shard.t.bcat).toEqual([3, 0, 12, 1, 5, 1, 255]);
  });

  it('keeps the heaviest docs of a long list, ties by doc, in doc order, with the true df', () => {
    expect(postingList([[7, 1], [3, 10], [12, 2]])).toEqual([3, 3, 10, 4, 1, 5, 2]);
    expect(postingList([[1, 1], [2, 5], [3, 1], [4, 5], [5, 1]], 3)).toEqual([5, 1, 1, 1, 5, 2, 5]);
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

  it('shows the start of a text without a match', () => {
    const text = 'word '.repeat(60);
    const segments = excerpt(text, matches);
    expect(segments).toHaveLength(1);
    expect(segments[0].text.endsWith('…')).toBe(true);
    expect(segments[0].text.length).toBeLessThanOrEqual(161);
  });

  it('cuts at spaces, with an ellipsis on each cut side', () => {
    const text = `${'lead '.repeat(40)}the needle ${'tail '.repeat(40)}`;
    const text2 = plain(excerpt(text, matches));
    expect(text2).toMatch(/^… ?lead/);
    expect(text2).toMatch(/tail ?…$/);
    expect(text2).not.toMatch(/\b(lea|ai|tai)\b/);
  });
});
