// Small data sets in the shapes docgen publishes (docs/v1/...), and a mocked fetch that serves
// them, for the tests of the data-driven islands.

import { vi } from 'vitest';
import { createApi, type Api } from '../src/data/api';
import { respond } from './fixtures';

/** The catalogue (docs/v1/mediated_networks → networks), deliberately not in display order. */
export const catalogue = [
  {
    name: 'ALPHA_NETWORK',
    slug: 'alpha',
    displayName: 'Alpha Ads',
    type: 'adapter',
    platform: ['android', 'ios'],
    bidding: true,
    size: ['REWARD', 'BANNER', 'INTER'],
    order: 20,
    inAdapterList: true,
    status: null,
    skadnetworkSpec: 'alpha',
    headerCode: {
      android: "implementation 'com.example:alpha-adapter:+'\nimplementation 'com.example:shared:1.0'\n",
      androidRepository: "maven { url 'https://repo.alpha.test/maven' }\n",
      ios: "pod 'AlphaAdapter'\n",
      plugin: null,
    },
  },
  {
    name: 'BETA_NETWORK',
    slug: 'beta',
    displayName: 'Beta Exchange',
    type: 'adapter',
    platform: ['android', 'ios'],
    bidding: false,
    size: ['APPOPEN', 'NATIVE'],
    order: 10,
    inAdapterList: true,
    status: null,
    skadnetworkSpec: 'beta',
    headerCode: {
      android: "implementation 'com.example:beta-adapter:+'\nimplementation 'com.example:shared:1.0'\n",
      androidRepository: null,
      ios: "pod 'BetaAdapter'\npod 'BetaSDK'\n",
      plugin: null,
    },
  },
  {
    name: 'GAMMA_NETWORK',
    slug: 'gamma',
    displayName: 'Gamma',
    type: 'adapter',
    platform: ['ios'],
    bidding: false,
    size: ['MREC'],
    order: 30,
    inAdapterList: true,
    status: 'The adapter was removed from the public repositories.',
    skadnetworkSpec: 'gamma',
    headerCode: { android: null, androidRepository: null, ios: "pod 'GammaAdapter'\n", plugin: null },
  },
  {
    name: 'DELTA_NETWORK',
    slug: 'delta',
    displayName: 'Delta',
    type: 'adapter',
    platform: ['android'],
    bidding: true,
    size: ['BANNER'],
    order: 40,
    inAdapterList: true,
    status: null,
    skadnetworkSpec: null,
    headerCode: {
      android: "implementation 'com.example:delta-adapter:+'\n",
      androidRepository: "maven { url 'https://repo.delta.test' }\n",
      ios: null,
      plugin: null,
    },
  },
  {
    // Shares Alpha's adapter and is listed under it: not a network of its own on the pages.
    name: 'ALPHA_BIDDING',
    slug: 'alpha-bidding',
    displayName: 'Alpha Bidding',
    type: 'adapter',
    platform: ['android', 'ios'],
    bidding: true,
    size: ['BANNER'],
    order: 25,
    inAdapterList: false,
    status: null,
    skadnetworkSpec: 'alpha',
    headerCode: { android: "implementation 'com.example:alpha-adapter:+'\n", androidRepository: null, ios: "pod 'AlphaAdapter'\n", plugin: null },
  },
  {
    name: 'APPLOVIN_NETWORK',
    slug: 'sdk-android',
    displayName: 'MAX SDK for Android',
    type: 'sdk',
    platform: ['android'],
    bidding: false,
    size: [],
    order: 0,
    inAdapterList: false,
    status: null,
    skadnetworkSpec: null,
    headerCode: { android: "implementation 'com.applovin:applovin-sdk:+'\n", androidRepository: null, ios: null, plugin: null },
  },
];

/** SKAdNetwork specs (docs/v1/mediation_sk_adnetwork_ids → mediationSKAdnetworkIdsSpecs). */
export const specs = [
  { name: 'APPLOVIN_NETWORK', slug: 'core', displayName: 'AppLovin MAX (core list)', core: true, skAdNetworkIds: ['c2.skadnetwork', 'c1.skadnetwork', 'm5.skadnetwork'] },
  { name: 'ALPHA_NETWORK', slug: 'alpha', displayName: 'Alpha Ads', core: false, skAdNetworkIds: ['z9.skadnetwork', 'a1.skadnetwork', 'c1.skadnetwork'] },
  { name: 'BETA_NETWORK', slug: 'beta', displayName: 'Beta Exchange', core: false, skAdNetworkIds: ['B1.skadnetwork', 'a1.skadnetwork'] },
  { name: 'GAMMA_NETWORK', slug: 'gamma', displayName: 'Gamma', core: false, skAdNetworkIds: ['g1.skadnetwork'] },
  { name: 'EPSILON_NETWORK', slug: 'epsilon', displayName: 'Epsilon', core: false, skAdNetworkIds: ['c2.skadnetwork'] },
];

export const NETWORKS_URL = '/docs/v1/mediated_networks';
export const SKAD_URL = '/docs/v1/mediation_sk_adnetwork_ids';

type Answer = Response | Error | (() => Promise<Response>);

/** A fetch that answers each URL from `routes` (a fresh Response per call); others get a 404. */
export function routeFetch(routes: Partial<Record<string, Answer>>) {
  return vi.fn(async (input: string) => {
    const answer = routes[input];
    if (answer === undefined) return respond('not found', 404, 'text/html');
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer();
    return answer.clone();
  });
}

/** The site's API (data/api.ts) over a mocked fetch. */
export function routeApi(routes: Record<string, Answer>): { api: Api; fetch: ReturnType<typeof routeFetch> } {
  const fetch = routeFetch(routes);
  return { api: createApi('', '', fetch), fetch };
}

/** The published documents of the data sets above. */
export const published = {
  [NETWORKS_URL]: respond({ networks: catalogue }),
  [SKAD_URL]: respond({ mediationSKAdnetworkIdsSpecs: specs }),
};

/** The items of an Info.plist SKAdNetworkItems array, as text, indented by `indent`. */
export function plistItems(ids: string[], indent = '    '): string {
  return ids
    .map((id) => `${indent}<dict>\n${indent}    <key>SKAdNetworkIdentifier</key>\n${indent}    <string>${id}</string>\n${indent}</dict>\n`)
    .join('');
}
