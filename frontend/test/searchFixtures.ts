// A small search index in docgen's format (version 2), written the way the index writer
// (src/search/) does: per term [df, doc delta, weight, ...] with one pair per doc, the weight
// summed over the page (title x10, headings x4, body text x1) and capped at 255, lists capped to
// the 2000 heaviest docs; shards split at given first terms; the docs' addresses in lists of
// `chunk`; and each page's HTML as docgen writes it (page data, article, page footer).

import { vi } from 'vitest';
import { tokenize, type SearchIndex } from '../src/search/engine';

export const SEARCH_INDEX = '/_docgen/search/index.json';
const folder = '/_docgen/search/';

export interface FixtureDoc {
  url: string;
  title: string;
  breadcrumb: string[];
  area: number;
  /** -1: no platform. */
  platform: number;
  /** The text before the first heading; "" when the page starts with a heading. */
  intro: string;
  /** After the intro: [anchor, heading, text]. */
  sections?: Array<[string, string, string]>;
}

export const AREAS = ['MAX Mediation', 'Demand Partners', 'SKAdNetwork FAQ'];
export const PLATFORMS = ['Android', 'iOS'];

const M = '/documentation/mediation';
const D = '/documentation/dsp';

/** The fixture site's pages, in route order. */
export const fixtureDocs: FixtureDoc[] = [
  {
    url: `${D}/gdpr-deleted-device-ids-api`,
    title: 'GDPR Deleted Device IDs API',
    breadcrumb: ['Demand Partners'],
    area: 1,
    platform: -1,
    intro: 'When a user asks for their data to be deleted, the exchange records the device advertising ID. This API lists those IDs.',
    sections: [['authentication', 'Authentication', 'Send your report key in the Authorization header.']],
  },
  {
    url: `${D}/ortb-spec/bid-request`,
    title: 'Bid Request Objects',
    breadcrumb: ['Demand Partners', 'OpenRTB Specification'],
    area: 1,
    platform: -1,
    intro: 'The exchange sends OpenRTB2 bid requests. Block lists (bcat, badv, bapp) are sent to DSP bidders only.',
    sections: [
      ['bid-request-object', 'Bid Request Object', 'bcat string array: blocked advertiser categories. badv string array: blocked advertiser domains.'],
      ['device-object', 'Device Object', 'The device object holds the advertising ID (ifa) unless the user opted out under the GDPR.'],
      ['banner-example', 'Banner Example', '{ "id": "1", "bcat": ["IAB25"], "imp": [{ "banner": { "w": 320, "h": 50 } }] }'],
    ],
  },
  {
    url: `${D}/reporting`,
    title: 'Report APIs',
    breadcrumb: ['Demand Partners'],
    area: 1,
    platform: -1,
    intro: 'report_type is dsp_report or dsp_latency (dsp_latency is deprecated as of March 1, 2024).',
    sections: [['macros', 'Macros', 'The win notice carries the clearing price in the AUCTION_PRICE macro.']],
  },
  {
    url: `${M}/android/ad-formats/interstitials`,
    title: 'Interstitial Ads',
    breadcrumb: ['MAX Mediation', 'Android', 'Ad Formats'],
    area: 0,
    platform: 0,
    intro: 'Interstitial ads are full-screen ads shown at natural breaks of an app.',
    sections: [
      ['loading-an-interstitial-ad', 'Loading an Interstitial Ad', 'Create a MaxInterstitialAd with your ad unit ID, set a listener and call loadAd.'],
      ['showing-an-interstitial-ad', 'Showing an Interstitial Ad', 'Call showAd on the MaxInterstitialAd once it is ready.'],
      ['related', 'Related Pages', 'Banners, rewarded ads, app open ads.'],
    ],
  },
  {
    url: `${M}/android/mediation-setup/liftoff`,
    title: 'Liftoff Monetize',
    breadcrumb: ['MAX Mediation', 'Android', 'Mediation Setup'],
    area: 0,
    platform: 0,
    intro: 'Liftoff Monetize, formerly Vungle, is a publisher ad network.',
    sections: [['step-1', 'Step 1: Create an Account', 'Sign up with Liftoff.']],
  },
  {
    url: `${M}/ios/ad-formats/interstitials`,
    title: 'Interstitial Ads',
    breadcrumb: ['MAX Mediation', 'iOS', 'Ad Formats'],
    area: 0,
    platform: 1,
    intro: 'Interstitial ads are full-screen ads shown at natural breaks of an app.',
    sections: [['loading-an-interstitial-ad', 'Loading an Interstitial Ad', 'Create a MAInterstitialAd with your ad unit ID.']],
  },
  {
    url: `${M}/ios/mediation-setup/liftoff`,
    title: 'Liftoff Monetize',
    breadcrumb: ['MAX Mediation', 'iOS', 'Mediation Setup'],
    area: 0,
    platform: 1,
    intro: 'Liftoff Monetize, formerly Vungle, is a publisher ad network.',
    sections: [['step-1', 'Step 1: Create an Account', 'Sign up with Liftoff.']],
  },
  {
    url: `${M}/networks`,
    title: 'Mediated Networks',
    breadcrumb: ['MAX Mediation'],
    area: 0,
    platform: -1,
    intro: 'Every network MAX mediates, with the formats each supports.',
    sections: [
      ['bidders', 'Bidders', 'Liftoff Monetize: banner, interstitial, rewarded. Its adapter class is VungleInterstitialAdapter.'],
      ['custom', 'Custom Networks', 'Write an InterstitialAdapter of your own for a network MAX does not mediate.'],
    ],
  },
  {
    url: '/documentation/skafaq',
    title: 'SKAdNetwork FAQ',
    breadcrumb: [],
    area: 2,
    platform: -1,
    intro: `SKAdNetwork lets ad networks attribute installs without a device ID. ${'Apple signs each install postback, and the network checks it against its own records. '.repeat(4)}The conversion value is a number from 0 to 63 that the app sets after the install; the GDPR does not change how postbacks are sent.`,
  },
];

/** The first terms at which the fixture's term dictionary is split into shards (after the first). */
export const SHARD_SPLITS = ['d', 'i', 'interstitialad', 'l', 'p'];

function runs(values: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const v of values) {
    const last = out.at(-1);
    if (last && last[1] === v) last[0]++;
    else out.push([1, v]);
  }
  return out;
}

/** Docs kept per term, as the index writer keeps them. */
export const MAX_POSTINGS = 2000;
const TITLE_WEIGHT = 10;
const HEADING_WEIGHT = 4;

/** A term's list: [df, doc delta, weight, ...], the heaviest `max` docs (ties: lower doc first), in doc order. */
export function postingList(pairs: Array<[number, number]>, max = MAX_POSTINGS): number[] {
  const kept = pairs.length > max ? [...pairs].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, max) : [...pairs];
  kept.sort((a, b) => a[0] - b[0]);
  const list = [pairs.length];
  let previous = 0;
  for (const [doc, weight] of kept) {
    list.push(doc - previous, weight);
    previous = doc;
  }
  return list;
}

/** The files of the index, by URL. */
export function buildIndex(
  docs: FixtureDoc[] = fixtureDocs,
  splits: string[] = SHARD_SPLITS,
  chunk = 4,
  maxPostings = MAX_POSTINGS,
): { index: SearchIndex; files: Map<string, unknown> } {
  const postings = new Map<string, Array<[number, number]>>();
  docs.forEach((doc, d) => {
    const weights = new Map<string, number>();
    const add = (words: string, by: number) => {
      for (const term of tokenize(words)) weights.set(term, (weights.get(term) ?? 0) + by);
    };
    add(doc.title, TITLE_WEIGHT);
    for (const [, heading, text] of [['', '', doc.intro], ...(doc.sections ?? [])]) {
      add(heading, HEADING_WEIGHT);
      add(text, 1);
    }
    for (const [term, w] of weights) {
      if (!postings.has(term)) postings.set(term, []);
      postings.get(term)!.push([d, Math.min(255, w)]);
    }
  });

  const terms = [...postings.keys()].sort();
  const firsts = [terms[0], ...splits];
  const shardTerms: Array<Record<string, number[]>> = firsts.map(() => ({}));
  for (const term of terms) {
    let i = 0;
    while (i + 1 < firsts.length && firsts[i + 1] <= term) i++;
    shardTerms[i][term] = postingList(postings.get(term)!, maxPostings);
  }

  const files = new Map<string, unknown>();
  const shards: Array<[string, string]> = firsts.map((first, i) => [first, `s/${first}.${(i + 1).toString(16).padStart(10, '0')}.json`]);
  shards.forEach(([, file], i) => files.set(folder + file, { t: shardTerms[i] }));
  const chunks = Array.from({ length: Math.ceil(docs.length / chunk) }, (_, c) => `c${c}`);
  chunks.forEach((name, c) => files.set(`${folder}d/${name}.json`, docs.slice(c * chunk, (c + 1) * chunk).map((d) => d.url)));
  for (const doc of docs) files.set(pageFile(doc.url), pageHtml(doc));
  const index: SearchIndex = {
    version: 2,
    docs: docs.length,
    shards,
    chunk,
    chunks,
    areas: AREAS,
    area: runs(docs.map((d) => d.area)),
    platforms: PLATFORMS,
    platform: runs(docs.map((d) => d.platform)),
  };
  files.set(SEARCH_INDEX, index);
  return { index, files };
}

/** A fetch that serves `files` (strings as they are, anything else as JSON; 404 for anything else), recording every URL asked for. */
export function fakeFetch(files: Map<string, unknown>) {
  return vi.fn(async (url: string) => {
    const body = files.get(url);
    if (body === undefined) return new Response('not found', { status: 404 });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 });
  });
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The file of the page at `url`. */
export function pageFile(url: string): string {
  return `${url.replace(/\/$/, '')}/index.html`;
}

/** A page as docgen writes it: the shell around the article, the heading links, the page footer and the page data. */
export function pageHtml(doc: Pick<FixtureDoc, 'url' | 'title' | 'breadcrumb' | 'intro' | 'sections'>): string {
  const heading = (tag: string, id: string, text: string) =>
    `<${tag} id="${escape(id)}">${escape(text)}<a class="dg-anchor" href="#${escape(id)}" aria-label="Link to this section: ${escape(text)}">#</a></${tag}>`;
  const crumbs = [...doc.breadcrumb.map((label, i) => ({ displayName: label, url: `/crumb-${i}` })), { displayName: doc.title, url: doc.url }];
  const data = { route: doc.url, title: doc.title, breadcrumbs: crumbs, toc: [], menuPath: [], navShards: [] };
  return [
    '<!doctype html><html><head><title>' + escape(doc.title) + '</title></head><body>',
    '<nav class="dg-left-menu"><a href="/">Menu link</a></nav>',
    '<div id="dg-root"><main><article class="dg-article">',
    heading('h1', 'title', doc.title),
    doc.intro ? `<p>${escape(doc.intro)}</p>` : '',
    ...(doc.sections ?? []).map(([anchor, h, text]) => `${heading('h2', anchor, h)}\n<p>${escape(text)}</p>`),
    '<footer class="dg-page-footer"><a href="/edit">Edit this page</a><p>Last updated</p></footer>',
    '</article></main></div>',
    `<script id="dg-page-data" type="application/json">${JSON.stringify(data)}</script>`,
    '</body></html>',
  ].join('\n');
}

/** The URL of a shard of the fixture by its first term. */
export function shardUrl(index: SearchIndex, first: string): string {
  const shard = index.shards.find(([f]) => f === first);
  if (!shard) throw new Error(`no shard ${first}`);
  return folder + shard[1];
}

/** The doc list that holds `doc`. */
export function docListUrl(index: SearchIndex, doc: number): string {
  return `${folder}d/${index.chunks[Math.floor(doc / index.chunk)]}.json`;
}
