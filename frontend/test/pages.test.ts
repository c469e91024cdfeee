import { describe, expect, it, vi } from 'vitest';
import { PageLoadError, fetchPage, internalRoute, parsePage } from '../src/data/pages';
import { bannersMenuHtml, pageData, respond } from './fixtures';

function pageHtml(data = pageData(), article = '<h1 id="banners">Banners</h1>') {
  return `<!DOCTYPE html><html data-base=""><head><title>Banners | Fixture Docs</title></head><body>
<div id="dg-root" class="dg-shell">${bannersMenuHtml}<main id="dg-main" class="dg-main"><article class="dg-article">
${article}
</article></main></div>
<script id="dg-page-data" type="application/json">${JSON.stringify(data)}</script></body></html>`;
}

describe('loading another page', () => {
  it('takes the page data, the title and the whole document as the server rendered it', () => {
    const result = parsePage(pageHtml(), '/documentation/mediation/android/ad-formats/banners', '', '/documentation/mediation/android/ad-formats/banners/');
    expect(result?.kind).toBe('page');
    if (result?.kind !== 'page') return;
    expect(result.page.title).toBe('Banners | Fixture Docs');
    expect(result.page.data.title).toBe('Banners');
    expect(result.page.doc.querySelector('.dg-article')?.innerHTML.trim()).toBe('<h1 id="banners">Banners</h1>');
    expect(result.page.doc.querySelector('#dg-menu [aria-current="page"]')?.textContent).toBe('Banners');
  });

  it('takes the tags of the head that describe the page', () => {
    const html = pageHtml().replace(
      '<title>Banners | Fixture Docs</title>',
      '<title>Banners | Fixture Docs</title><meta name="description" content="Show a banner."><link rel="canonical" href="https://docs.test/b"><meta property="og:title" content="Banners"><link rel="icon" href="/favicon.ico">',
    );
    const result = parsePage(html, '/b', '', '/b/');
    expect(result?.kind === 'page' && result.page.head).toEqual([
      { tag: 'meta', attrs: [['name', 'description'], ['content', 'Show a banner.']] },
      { tag: 'link', attrs: [['rel', 'canonical'], ['href', 'https://docs.test/b']] },
      { tag: 'meta', attrs: [['property', 'og:title'], ['content', 'Banners']] },
    ]);
  });

  it('follows a legacy route’s redirect page', () => {
    const html = '<html><head><meta http-equiv="refresh" content="0; url=/documentation/mediation/android#top"></head><body></body></html>';
    expect(parsePage(html, '/docs/android', '', '/docs/android/')).toEqual({ kind: 'redirect', to: '/documentation/mediation/android#top' });
  });

  it('loads a page with a layout of its own as a whole document', () => {
    const html = `<html><body><div id="dg-faq"><article class="dg-article"></article></div><script id="dg-page-data" type="application/json">${JSON.stringify(pageData())}</script></body></html>`;
    // At the route's own address, as its links and canonical name it (no trailing slash).
    expect(parsePage(html, '/documentation/skafaq', '', '/documentation/skafaq/')).toEqual({ kind: 'document', href: '/documentation/skafaq' });
    expect(parsePage('<html><body><p>Another page</p></body></html>', '/x', '/base', '/base/x/')).toEqual({ kind: 'document', href: '/base/x' });
  });

  it('treats a not-found page as no page', () => {
    const data = { ...pageData(), route: null, notFound: true };
    expect(parsePage(pageHtml(data), '/x', '', '/x/')).toBeNull();
  });

  it('fetches the route’s index.html', async () => {
    const fetch = vi.fn(async () => respond(pageHtml(), 200, 'text/html'));
    const result = await fetchPage('', '/documentation/mediation/android/ad-formats/banners', undefined, fetch);
    expect(result.kind).toBe('page');
    expect(fetch).toHaveBeenCalledWith('/documentation/mediation/android/ad-formats/banners/index.html', expect.anything());
  });

  it('fails on an error status, a network error or a page that is not one', async () => {
    await expect(fetchPage('', '/a', undefined, async () => respond('nope', 404, 'text/html'))).rejects.toMatchObject({ status: 404 });
    await expect(fetchPage('', '/a', undefined, async () => Promise.reject(new TypeError('offline')))).rejects.toBeInstanceOf(PageLoadError);
    const shellWithoutData = '<html><body><div id="dg-root"><article class="dg-article"></article></div></body></html>';
    await expect(fetchPage('', '/a', undefined, async () => respond(shellWithoutData, 200, 'text/html'))).rejects.toBeInstanceOf(PageLoadError);
  });
});

describe('which links the app handles', () => {
  const origin = 'http://localhost:3000';
  const route = (href: string, base = '') => internalRoute(new URL(href, origin), origin, base);

  it('handles the routes of this site', () => {
    expect(route('/documentation/mediation/android')).toBe('/documentation/mediation/android');
    expect(route('/documentation/mediation/android/')).toBe('/documentation/mediation/android');
    expect(route('/documentation/mediation/index.html')).toBe('/documentation/mediation');
    expect(route('/docs/documentation/x', '/docs')).toBe('/documentation/x');
  });

  it('leaves other sites, files and other base paths alone', () => {
    expect(route('https://example.test/terms')).toBeNull();
    expect(route('/s/logo.abcd.svg')).toBeNull();
    expect(route('/_docgen/nav.json')).toBeNull();
    expect(route('/sitemap.xml')).toBeNull();
    expect(route('/elsewhere/x', '/docs')).toBeNull();
  });
});
