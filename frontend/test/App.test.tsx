import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { currentRoute, initialView } from '../src/boot';
import { readPageData } from '../src/data/pageData';
import type { PageView } from '../src/types';
import { androidShard, bannersMenuHtml, codeGroupHtml, mediationShard, navShards, pageData, respond, shardIndex } from './fixtures';

const M = '/documentation/mediation';
const banners = `${M}/android/ad-formats/banners`;
const changelog = `${M}/android/changelog`;

const bannersArticle = `<h1 id="banners">Banners<a class="dg-anchor" href="#banners" aria-label="Link to this section: Banners">#</a></h1>
<p><a id="to-changelog" href="${changelog}">Changelog</a> <a id="to-dsp" href="/documentation/dsp/unknown">DSP</a>
<a id="to-nope" href="${M}/nope">Nope</a> <a id="to-legacy" href="/legacy/android">Legacy</a>
<a id="to-hash" href="#loading-a-banner">Loading</a> <a id="external" href="https://example.test/x">External</a>
<a id="blank" href="${changelog}" target="_blank">Blank</a></p>
<h2 id="loading-a-banner">Loading a Banner<a class="dg-anchor" href="#loading-a-banner" aria-label="Link to this section: Loading a Banner">#</a></h2>
<h3 id="sizes">Sizes</h3>`;

/** The tags of a page's head that describe it, as docgen writes them. */
function headOf(title: string, route: string, description: string) {
  return `<meta name="description" content="${description}"><link rel="canonical" href="https://docs.test${route}"><meta property="og:type" content="article"><meta property="og:title" content="${title}"><meta property="og:description" content="${description}"><meta property="og:url" content="https://docs.test${route}"><meta name="twitter:card" content="summary">`;
}

function shell(data: PageView, article: string) {
  const crumbs = data.breadcrumbs
    .map((c, i, all) => (i === all.length - 1 ? `<li><span aria-current="page">${c.displayName}</span></li>` : `<li><a href="${c.url}">${c.displayName}</a></li>`))
    .join('\n');
  return `<div id="dg-root" class="dg-shell">
<header id="dg-topbar" class="dg-topbar"><a class="dg-topbar-home" href="${M}"><img class="dg-topbar-logo" src="/s/logo.abcd.svg" alt="" width="28" height="28"><span class="dg-topbar-title">Fixture Docs</span></a></header>
<nav id="dg-breadcrumbs" class="dg-breadcrumbs" aria-label="Breadcrumbs"><ol>${crumbs}</ol></nav>
<div class="dg-columns">
${bannersMenuHtml}
<main id="dg-main" class="dg-main"><article class="dg-article" data-pagefind-body>
${article}
</article></main>
<aside id="dg-toc" class="dg-toc"></aside>
</div>
</div>
<script id="dg-page-data" type="application/json">${JSON.stringify(data)}</script>`;
}

const changelogData = pageData({
  route: changelog,
  canonical: changelog,
  title: 'Changelog',
  breadcrumbs: [
    { displayName: 'Mediation', url: M },
    { displayName: 'Android', url: `${M}/android` },
    { displayName: 'Changelog', url: changelog },
  ],
  toc: [{ displayName: 'Changelog', hashName: '#changelog', level: 1 }],
  menuPath: ['documentation-mediation', 'documentation-mediation-android', 'documentation-mediation-android-changelog'],
});

const files: Record<string, () => Response> = {
  ...Object.fromEntries(Object.entries(navShards()).map(([url, body]) => [url, () => respond(body)])),
  '/_docgen/nav/index.json': () => respond(shardIndex()),
  [`${changelog}/index.html`]: () =>
    respond(
      `<!DOCTYPE html><html><head><title>Changelog | Fixture Docs</title>${headOf('Changelog', changelog, 'What changed in each release.')}</head><body>${shell(changelogData, `<h1 id="changelog">Changelog</h1><p>Version 13</p>${codeGroupHtml}`)}</body></html>`,
      200,
      'text/html',
    ),
  '/legacy/android/index.html': () =>
    respond(`<html><head><meta http-equiv="refresh" content="0; url=${changelog}"></head><body></body></html>`, 200, 'text/html'),
};

let fetchMock: ReturnType<typeof vi.fn>;
let scrollTo: ReturnType<typeof vi.fn>;
let open: ReturnType<typeof vi.fn>;
let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn(async (url: string) => (files[url] ? files[url]!() : respond('<html><title>Not found</title></html>', 404, 'text/html')));
  vi.stubGlobal('fetch', fetchMock);
  scrollTo = vi.fn();
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
  open = vi.fn();
  window.open = open as unknown as typeof window.open;
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function boot(path = banners, data = pageData(), article = bannersArticle) {
  window.history.replaceState(null, '', path);
  document.title = `${data.title} | Fixture Docs`;
  document.head.innerHTML = `<title>${data.title} | Fixture Docs</title>${headOf(data.title, banners, 'Show a banner ad.')}<link rel="stylesheet" href="/s/app.css">`;
  document.body.innerHTML = shell(data, article);
  const root = document.getElementById('dg-root')!;
  const serverHeading = root.querySelector('.dg-article h1');
  const page = readPageData()!;
  const view = initialView(page, currentRoute(''), '', root);
  render(<App boot={{ site: page.site, base: '', view }} />, { container: root });
  return { root, serverHeading };
}

const article = () => document.querySelector('.dg-article')!;
const menu = () => within(screen.getByRole('navigation', { name: 'Main menu' }));
const click = (selector: string, init: MouseEventInit = {}) => fireEvent.click(document.querySelector(selector)!, init);

describe('the app over a pre-rendered page', () => {
  it('mounts over the server’s page keeping its content nodes', () => {
    const { serverHeading } = boot();
    expect(document.querySelector('[aria-live="assertive"]')).toBeEmptyDOMElement();
    expect(article().querySelector('h1')).toBe(serverHeading);
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(menu().getByRole('link', { name: 'Banners' })).toHaveAttribute('aria-current', 'page');
  });

  it('navigates to another page without reloading: content, title, breadcrumbs, menu, scroll', async () => {
    boot();
    (window as unknown as { marker: string }).marker = 'still here';
    click('#to-changelog');
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(fetchMock).toHaveBeenCalledWith(`${changelog}/index.html`, expect.anything());
    expect(window.location.pathname).toBe(changelog);
    expect(document.title).toBe('Changelog | Fixture Docs');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByText('Changelog')).toHaveAttribute('aria-current', 'page');
    expect(menu().getByRole('link', { name: 'Changelog' })).toHaveAttribute('aria-current', 'page');
    expect(menu().getByRole('link', { name: 'Banners' })).not.toHaveAttribute('aria-current');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    expect(document.querySelector('[aria-live="assertive"]')).toHaveTextContent('Changelog');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Kotlin', 'Java', 'Groovy']);
    expect((window as unknown as { marker: string }).marker).toBe('still here');
  });

  it('describes the page on screen in the head: description, canonical, OpenGraph', async () => {
    boot();
    const head = () => ({
      description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
      ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
      ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
    });
    expect(head()).toEqual({ description: 'Show a banner ad.', canonical: `https://docs.test${banners}`, ogUrl: `https://docs.test${banners}`, ogTitle: 'Banners' });
    click('#to-changelog');
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(head()).toEqual({ description: 'What changed in each release.', canonical: `https://docs.test${changelog}`, ogUrl: `https://docs.test${changelog}`, ogTitle: 'Changelog' });
    expect(document.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(document.querySelector('link[rel="stylesheet"]')).not.toBeNull();
    act(() => window.history.back());
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Banners'));
    expect(head().canonical).toBe(`https://docs.test${banners}`);
    expect(head().description).toBe('Show a banner ad.');
  });

  it('starts loading a page when its link is hovered, and uses it on click', async () => {
    boot();
    fireEvent.mouseOver(document.querySelector('#to-changelog')!);
    expect(fetchMock).toHaveBeenCalledWith(`${changelog}/index.html`, expect.anything());
    click('#to-changelog');
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(fetchMock.mock.calls.filter(([u]) => u === `${changelog}/index.html`)).toHaveLength(1);
  });

  it('goes back and forward with the browser', async () => {
    boot();
    click('#to-changelog');
    await waitFor(() => expect(window.location.pathname).toBe(changelog));
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    act(() => window.history.back());
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Banners'));
    expect(window.location.pathname).toBe(banners);
    expect(document.title).toBe('Banners | Fixture Docs');
    act(() => window.history.forward());
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(fetchMock.mock.calls.filter(([u]) => u === `${changelog}/index.html`)).toHaveLength(1);
  });

  it('opens a ctrl- or cmd-clicked link in a new tab under /o', () => {
    boot();
    click('#to-changelog', { ctrlKey: true });
    expect(open).toHaveBeenCalledWith(`/o${changelog}`, '_blank', 'noopener');
    click('#to-changelog', { metaKey: true });
    expect(open).toHaveBeenCalledTimes(2);
    expect(window.location.pathname).toBe(banners);
    expect(fetchMock).not.toHaveBeenCalledWith(`${changelog}/index.html`, expect.anything());
  });

  it('leaves external links, new-tab links and links within the page to the browser', () => {
    boot();
    const prevented: boolean[] = [];
    const record = (e: Event) => {
      prevented.push(e.defaultPrevented);
      e.preventDefault();
    };
    window.addEventListener('click', record);
    click('#external');
    click('#blank');
    window.removeEventListener('click', record);
    expect(prevented).toEqual([false, false]);
    expect(window.location.pathname).toBe(banners);
  });

  it('shows "Unable to load the current page." for an unknown route of the DSP area, with the DSP menu and overview', async () => {
    boot();
    click('#to-dsp');
    await waitFor(() => expect(document.getElementById('dg-error-title')).toHaveTextContent('Unable to load the current page.'));
    expect(document.getElementById('dg-error-subtitle')).toHaveTextContent('Please try again.');
    expect(document.title).toBe('Unable to load the current page. | Fixture Docs');
    expect(window.location.pathname).toBe('/documentation/dsp/unknown');
    expect(screen.getByRole('link', { name: 'Go to the Demand Partners overview' })).toHaveAttribute('href', '/documentation/dsp');
    // The area's menu, loaded through the shard index by the area's id.
    await waitFor(() => expect(menu().getByRole('link', { name: 'Testing' })).toHaveAttribute('href', '/documentation/dsp/testing'));
    expect(document.querySelector('#dg-menu > .dg-menu-root')).toHaveTextContent('Demand Partners');
    expect(menu().queryByRole('link', { name: 'Banners' })).toBeNull();
    // No description or canonical address for a page that does not exist.
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.querySelector('meta[name="description"]')).toBeNull();
  });

  it('shows a not-found view for other unknown routes', async () => {
    boot();
    click('#to-nope');
    await waitFor(() => expect(document.getElementById('dg-error-title')).toHaveTextContent('Page not found'));
    expect(screen.getByRole('link', { name: 'Go to the documentation home' })).toHaveAttribute('href', M);
    expect(screen.queryByRole('link', { name: /overview/ })).toBeNull();
  });

  it('follows a legacy route to its page, with one history entry at the page’s own address', async () => {
    boot();
    const entries = window.history.length;
    click('#to-legacy');
    await waitFor(() => expect(window.location.pathname).toBe(changelog));
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(window.history.length).toBe(entries + 1);
  });

  it('changes the address only when the new page is there: the address always names the page on screen', async () => {
    boot();
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const served = files[`${changelog}/index.html`]!;
    fetchMock.mockImplementation(async (url: string) => {
      if (url === `${changelog}/index.html`) {
        await arrived;
        return served();
      }
      return files[url] ? files[url]!() : respond('<html></html>', 404, 'text/html');
    });
    const entries = window.history.length;
    click('#to-changelog');
    await waitFor(() => expect(document.getElementById('dg-main')).toHaveAttribute('aria-busy', 'true'));
    expect(window.location.pathname).toBe(banners);
    expect(article().querySelector('h1')).toHaveTextContent('Banners');
    arrive();
    await waitFor(() => expect(article().querySelector('h1')).toHaveTextContent('Changelog'));
    expect(window.location.pathname).toBe(changelog);
    expect(window.history.length).toBe(entries + 1);
    expect(document.getElementById('dg-main')).not.toHaveAttribute('aria-busy');
  });

  it('copies a heading’s link when its anchor is clicked', () => {
    boot();
    const prevented: boolean[] = [];
    const record = (e: Event) => {
      prevented.push(e.defaultPrevented);
      e.preventDefault();
    };
    window.addEventListener('click', record);
    click('h2 .dg-anchor');
    window.removeEventListener('click', record);
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}${banners}#loading-a-banner`);
    expect(prevented).toEqual([false]);
  });

  it('fills in the rest of the menu from the shards the page names, never nav.json', async () => {
    boot();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith(androidShard, expect.anything()));
    fireEvent.click(screen.getByRole('button', { name: 'Native Ads pages' }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Manual Native Ads' })).toBeInTheDocument());
    const urls = fetchMock.mock.calls.map(([u]) => u as string);
    expect(urls.filter((u) => u.includes('_docgen'))).toEqual([mediationShard, androidShard]);
  });

  it('loads a section’s shard, found in the index, when the reader opens it', async () => {
    boot();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith(androidShard, expect.anything()));
    fireEvent.click(await screen.findByRole('button', { name: /Getting Started/ }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Quick Start' })).toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledWith('/_docgen/nav/documentation-mediation-start.json', expect.anything());
  });

  it('takes a new-tab address (/o/...) for the page’s own', () => {
    boot(`/o${banners}#sizes`);
    expect(window.location.pathname).toBe(banners);
    expect(window.location.hash).toBe('#sizes');
    expect(document.querySelector('.dg-toc a[aria-current]')).toHaveTextContent('Sizes');
  });

  it('boots on a not-found page with the texts the server wrote', () => {
    const data = { ...pageData(), route: null, notFound: true, breadcrumbs: [], toc: [], menuPath: [] };
    window.history.replaceState(null, '', '/documentation/dsp/gone');
    document.body.innerHTML = `<div id="dg-root" class="dg-shell"><div class="dg-columns"><main id="dg-main" class="dg-main"><article class="dg-article dg-error-page" id="dg-not-found" data-not-found=""><h1 id="dg-error-title">Unable to load the current page.</h1><p id="dg-error-subtitle">Please try again.</p></article></main></div></div>`;
    const view = initialView(data, currentRoute(''), '', document.getElementById('dg-root')!);
    expect(view).toMatchObject({ kind: 'error', route: '/documentation/dsp/gone', title: 'Unable to load the current page.', subtitle: 'Please try again.' });
    render(<App boot={{ site: data.site, base: '', view }} />, { container: document.getElementById('dg-root')! });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Unable to load the current page.');
  });
});
