// Shared test data in the shapes docgen writes (page data, nav.json, pre-rendered markup).

import type { NavNode, NavShard, NavShardIndex, PageView, SiteView } from '../src/types';

export const site: SiteView = {
  title: 'Fixture Docs',
  base: '',
  home: '/documentation/mediation',
  apiBase: '',
  features: ['beta-tools'],
  year: 2020,
  copyright: 'Example Corp. All rights reserved.',
  footer: [
    { displayName: 'Terms', id: 'terms', isPage: false, url: 'https://example.test/terms', children: [] },
    {
      displayName: 'Your Privacy Choices',
      id: 'your-privacy-choices',
      isPage: false,
      url: 'https://example.test/privacy-choices',
      icon: { iconSrc: '/s/privacy-options.1234.svg', iconAlt: 'California Consumer Privacy Act (CCPA) Opt-Out Icon' },
      children: [],
    },
    { displayName: 'Cookies Settings', id: 'cookies-settings', isPage: false, url: '', children: [], action: 'consent' },
    { displayName: 'Sitemap', id: 'sitemap', isPage: false, url: '/documentation/mediation', children: [] },
  ],
  areas: [
    { displayName: 'Mediation', id: 'documentation-mediation', url: '/documentation/mediation' },
    { displayName: 'Demand Partners', id: 'documentation-dsp', notFound: { subtitle: 'Please try again.', title: 'Unable to load the current page.' }, url: '/documentation/dsp' },
  ],
  logo: '/s/logo.abcd.svg',
  search: null,
};

const leaf = (displayName: string, url: string, extra: Partial<NavNode> = {}): NavNode => ({
  displayName,
  id: url.slice(1).replace(/\//g, '-'),
  isPage: true,
  url,
  children: [],
  ...extra,
});

const M = '/documentation/mediation';

export const nav: NavNode[] = [
  {
    ...leaf('Mediation', M),
    children: [
      {
        ...leaf('Getting Started', `${M}/start`, { isPage: false, icon: { src: '/s/icons/start.svg', alt: 'Start' } }),
        children: [leaf('Quick Start', `${M}/start/quick`)],
      },
      {
        ...leaf('Android', `${M}/android`, { icon: { src: '/s/icons/android.svg', alt: 'Android' } }),
        children: [
          {
            ...leaf('Ad Formats', `${M}/android/ad-formats`),
            children: [
              leaf('Banners', `${M}/android/ad-formats/banners`),
              {
                ...leaf('Native Ads', `${M}/android/ad-formats/native`),
                children: [leaf('Manual Native Ads', `${M}/android/ad-formats/native/manual`)],
              },
            ],
          },
          {
            ...leaf('Mediation Setup', `${M}/android/setup`),
            children: [
              {
                displayName: 'Bidders',
                id: 'documentation-mediation-android-setup--bidders',
                isPage: false,
                url: `${M}/android/setup`,
                children: [leaf('Acme Network', `${M}/android/setup/acme`)],
              },
            ],
          },
          leaf('Changelog', `${M}/android/changelog`),
        ],
      },
      leaf('Reporting', `${M}/reporting`, { icon: { src: '/s/icons/reporting.svg', alt: 'Reporting' } }),
      leaf('Reporting API', `${M}/reporting-api`, { icon: { src: '/s/icons/api.svg', alt: 'API' } }),
      leaf('Labs', `${M}/labs`, { requireFeature: 'secret-labs' }),
      leaf('Beta Tools', `${M}/beta`, { requireFeature: 'beta-tools' }),
    ],
  },
  {
    ...leaf('Demand Partners', '/documentation/dsp'),
    children: [leaf('Testing', '/documentation/dsp/testing')],
  },
  { displayName: 'Success Stories', id: 'external-success-stories', isPage: false, url: 'https://example.test/stories', children: [], external: true },
  { displayName: 'Help Center', id: 'external-help-center', isPage: false, url: 'https://example.test/help', children: [], external: true },
];

const shardOf = (id: string) => `/_docgen/nav/${id}.json`;

/**
 * `nav` split as docgen writes `_docgen/nav/`: per area its root (level-1 sections marked
 * `sharded` instead of holding their children) and the external links; per level-1 section its
 * subtree. By shard route.
 */
export function navShards(tree: NavNode[] = nav): Record<string, NavShard> {
  const files: Record<string, NavShard> = {};
  const links = tree.filter((n) => n.external);
  for (const area of tree.filter((n) => !n.external)) {
    const children = area.children.map((c) => {
      if (c.children.length === 0) return c;
      files[shardOf(c.id)] = c;
      return { ...c, children: [], sharded: true };
    });
    files[shardOf(area.id)] = [{ ...area, children }, ...links];
  }
  return files;
}

/** `_docgen/nav/index.json` of `navShards()`. */
export function shardIndex(shards = navShards()): NavShardIndex {
  return {
    shards: Object.entries(shards).map(([file, s]) => {
      const node = Array.isArray(s) ? s[0] : s;
      return { id: node.id, route: node.url, file };
    }),
  };
}

export const mediationShard = shardOf('documentation-mediation');
export const androidShard = shardOf('documentation-mediation-android');

export function pageData(over: Partial<PageView> = {}): PageView {
  return {
    route: `${M}/android/ad-formats/banners`,
    canonical: `${M}/android/ad-formats/banners`,
    title: 'Banners',
    area: M,
    breadcrumbs: [
      { displayName: 'Mediation', url: M },
      { displayName: 'Android', url: `${M}/android` },
      { displayName: 'Ad Formats', url: `${M}/android/ad-formats` },
      { displayName: 'Banners', url: `${M}/android/ad-formats/banners` },
    ],
    toc: [
      { displayName: 'Banners', hashName: '#banners', level: 1 },
      { displayName: 'Loading a Banner', hashName: '#loading-a-banner', level: 2 },
      { displayName: 'Sizes', hashName: '#sizes', level: 3 },
    ],
    menuPath: ['documentation-mediation', 'documentation-mediation-android', 'documentation-mediation-android-ad-formats', 'documentation-mediation-android-ad-formats-banners'],
    navShards: [mediationShard, androidShard],
    site,
    ...over,
  };
}

/**
 * The menu docgen pre-renders on the Banners page (templates/page.html and macros.html): the
 * drawer's head and the areas (shown on narrow screens), the level-1 items, the open branch to
 * the active page, external links at the bottom; the root, the sections and the links carry
 * their nav ids.
 */
export const bannersMenuHtml = [
  '<nav id="dg-menu" class="dg-menu" aria-label="Main menu">',
  `<div class="dg-menu-head"><a class="dg-menu-home" href="${M}"><img src="/s/logo.abcd.svg" alt="" width="24" height="24">Fixture Docs</a><button type="button" class="dg-menu-close" aria-label="Close menu"></button></div>`,
  '<ul class="dg-menu-areas" aria-label="Documentation areas">',
  `<li><a href="${M}" aria-current="true">Mediation</a></li>`,
  '<li><a href="/documentation/dsp">Demand Partners</a></li>',
  '</ul>',
  `<a data-id="documentation-mediation" class="dg-menu-root" href="${M}">Mediation</a>`,
  '<ul class="dg-menu-list">',
  '<li data-id="documentation-mediation-start" class="dg-menu-section"><button type="button" class="dg-menu-toggle" aria-expanded="false"><img class="dg-menu-icon" src="/s/icons/start.svg" alt="Start" width="20" height="20">Getting Started</button></li>',
  `<li data-id="documentation-mediation-android" class="dg-menu-section is-open"><a href="${M}/android"><img class="dg-menu-icon" src="/s/icons/android.svg" alt="Android" width="20" height="20">Android</a><button type="button" class="dg-menu-caret" tabindex="-1" aria-expanded="true" aria-label="Android pages"></button><ul class="dg-menu-list">`,
  `<li data-id="documentation-mediation-android-ad-formats" class="dg-menu-section is-open"><a href="${M}/android/ad-formats">Ad Formats</a><button type="button" class="dg-menu-caret" tabindex="-1" aria-expanded="true" aria-label="Ad Formats pages"></button><ul class="dg-menu-list">`,
  `<li class="is-active"><a href="${M}/android/ad-formats/banners" aria-current="page">Banners</a></li>`,
  `<li data-id="documentation-mediation-android-ad-formats-native" class="dg-menu-section"><a href="${M}/android/ad-formats/native">Native Ads</a><button type="button" class="dg-menu-caret" tabindex="-1" aria-expanded="false" aria-label="Native Ads pages"></button></li>`,
  '</ul></li>',
  `<li data-id="documentation-mediation-android-setup" class="dg-menu-section"><a href="${M}/android/setup">Mediation Setup</a><button type="button" class="dg-menu-caret" tabindex="-1" aria-expanded="false" aria-label="Mediation Setup pages"></button></li>`,
  `<li><a href="${M}/android/changelog">Changelog</a></li>`,
  '</ul></li>',
  `<li><a href="${M}/reporting"><img class="dg-menu-icon" src="/s/icons/reporting.svg" alt="Reporting" width="20" height="20">Reporting</a></li>`,
  `<li><a href="${M}/reporting-api"><img class="dg-menu-icon" src="/s/icons/api.svg" alt="API" width="20" height="20">Reporting API</a></li>`,
  `<li><a href="${M}/beta">Beta Tools</a></li>`,
  '</ul>',
  '<ul class="dg-menu-external">',
  '<li data-id="external-success-stories"><a class="dg-menu-link" href="https://example.test/stories" target="_blank" rel="noopener noreferrer"><span class="dg-menu-label">Success Stories</span></a></li>',
  '<li data-id="external-help-center"><a class="dg-menu-link" href="https://example.test/help" target="_blank" rel="noopener noreferrer"><span class="dg-menu-label">Help Center</span></a></li>',
  '</ul>',
  '</nav>',
].join('\n');

/** Drops the whitespace between tags that the templates write for readability. */
export function tight(html: string): string {
  return html.replace(/>\s+</g, '><').trim();
}

/** A code group with three snippets, as docgen writes it. */
export const codeGroupHtml = `<div class="dg-code" data-dg-block="code" id="dg-code-3">
<div class="dg-code-bar"><div class="dg-code-tabs" role="tablist" aria-label="Code variants"><button type="button" role="tab" id="dg-code-3-tab-0" aria-controls="dg-code-3-panel-0" aria-selected="true" tabindex="0">Kotlin</button><button type="button" role="tab" id="dg-code-3-tab-1" aria-controls="dg-code-3-panel-1" aria-selected="false" tabindex="-1">Java</button><button type="button" role="tab" id="dg-code-3-tab-2" aria-controls="dg-code-3-panel-2" aria-selected="false" tabindex="-1">Groovy</button></div><div class="dg-code-actions"><span class="dg-code-copy-slot"><span class="dg-tooltip-anchor" data-dg-placeholder=""><button type="button" class="dg-button dg-button-quiet dg-code-copy"><span class="dg-button-label">Copy</span></button></span></span><button type="button" class="dg-code-bg-toggle" aria-label="Dark code background" title="Dark code background" aria-pressed="false"></button></div></div>
<div class="dg-code-panel" role="tabpanel" id="dg-code-3-panel-0" aria-labelledby="dg-code-3-tab-0" data-lang="kotlin"><pre class="dg-hl"><code><span class="hl-k">val</span> key = <span class="hl-s">"YOUR_SDK_KEY"</span></code></pre></div>
<div class="dg-code-panel" role="tabpanel" id="dg-code-3-panel-1" aria-labelledby="dg-code-3-tab-1" data-lang="java"><pre class="dg-hl"><code><span class="hl-t">String</span> key = <span class="hl-s">"YOUR_SDK_KEY"</span>;</code></pre></div>
<div class="dg-code-panel" role="tabpanel" id="dg-code-3-panel-2" aria-labelledby="dg-code-3-tab-2" data-lang="groovy"><pre class="dg-hl"><code>implementation <span class="hl-s">'com.example:sdk:1.0'</span></code></pre></div>
</div>`;

/** A single snippet, as docgen writes it. */
export const singleCodeHtml = `<div class="dg-code" data-dg-block="code" id="dg-code-0">
<div class="dg-code-bar"><span class="dg-code-label" title="Swift">Swift</span><div class="dg-code-actions"><span class="dg-code-copy-slot"><span class="dg-tooltip-anchor" data-dg-placeholder=""><button type="button" class="dg-button dg-button-quiet dg-code-copy"><span class="dg-button-label">Copy</span></button></span></span><button type="button" class="dg-code-bg-toggle" aria-label="Dark code background" title="Dark code background" aria-pressed="false"></button></div></div>
<div class="dg-code-panel" id="dg-code-0-panel-0" data-lang="swift"><pre class="dg-hl"><code><span class="hl-k">let</span> x = <span class="hl-n">1</span></code></pre></div>
</div>`;

export function tableHtml(rows: number, columns = 2): string {
  const head = `<thead><tr>${Array.from({ length: columns }, (_, c) => `<th>Col ${c + 1}</th>`).join('')}</tr></thead>`;
  const body = rows
    ? `<tbody>\n${Array.from({ length: rows }, (_, r) => `<tr>${Array.from({ length: columns }, (_, c) => `<td>r${r + 1}c${c + 1}</td>`).join('')}</tr>`).join('\n')}\n</tbody>`
    : '';
  return `<div class="dg-table" data-dg-block="table" role="region" tabindex="0" aria-label="Table 1">\n<table>${head}${body}</table>\n</div>`;
}

/** A Response for mocked fetch calls. */
export function respond(body: unknown, status = 200, type = 'application/json'): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { 'content-type': type } });
}
