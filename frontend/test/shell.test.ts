// The app on the server's markup: behaviour attached in place, the next page's regions swapped in.

import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { PageResult } from '../src/data/pages';
import { Shell } from '../src/shell/attach';
import { adoptBranch } from '../src/shell/menu';
import { swapPage } from '../src/shell/swap';
import { start } from '../src/start';
import { bannersMenuHtml, pageData, respond } from './fixtures';

const M = '/documentation/mediation';
const BANNERS = `${M}/android/ad-formats/banners`;
const NATIVE = `${M}/android/ad-formats/native`;

/** A page of the shell in the shape of templates/page.html, with `extra` where a site's own template may put anything. */
function pageHtml({ title = 'Banners', route = BANNERS, menu = bannersMenuHtml, extra = '', bodyClass = 'dg-layout-page' } = {}) {
  return `<!DOCTYPE html><html data-base=""><head><title>${title} | Fixture Docs</title>
<meta name="description" content="About ${title}"><link rel="canonical" href="https://example.test${route}"></head>
<body class="${bodyClass}"><div id="dg-root" class="dg-shell">
<header id="dg-topbar" class="dg-topbar"><button type="button" class="dg-menu-button" aria-label="Menu" aria-expanded="false" aria-controls="dg-menu"></button><div id="dg-search" class="dg-search-slot"></div><button type="button" class="dg-theme-toggle" aria-label="Dark theme" aria-pressed="false"></button></header>
<nav id="dg-breadcrumbs" class="dg-breadcrumbs"><ol><li><span aria-current="page">${title}</span></li></ol></nav>
<div class="dg-columns">${menu}<aside id="dg-toc" class="dg-toc"></aside>
<main id="dg-main" class="dg-main"><article class="dg-article"><h1 id="top">${title}</h1>${extra}<p><a id="next" href="${NATIVE}">Native</a></p></article></main></div>
<footer id="dg-footer" class="dg-footer"><p class="dg-copyright">© <span class="dg-year">2001</span> Fixture</p></footer>
<button type="button" class="dg-to-top" aria-label="Back to top"></button></div>
<script id="dg-page-data" type="application/json">${JSON.stringify(pageData({ route, title }))}</script></body></html>`;
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** Puts a parsed page into the test's document, as the browser would have loaded it. */
function load(html: string) {
  const doc = parse(html);
  document.title = doc.title;
  document.head.innerHTML = doc.head.innerHTML;
  document.body.className = doc.body.className;
  document.body.innerHTML = doc.body.innerHTML;
}

/** The Native Ads page: its menu shows the section open, with a deeper section open on its way. */
const nativeMenu = bannersMenuHtml
  .replace('<li class="is-active"><a href="/documentation/mediation/android/ad-formats/banners" aria-current="page">Banners</a></li>', `<li><a href="${BANNERS}">Banners</a></li>`)
  .replace(
    /<li data-id="documentation-mediation-android-ad-formats-native" class="dg-menu-section">(.*?)aria-expanded="false"(.*?)><\/button><\/li>/,
    `<li data-id="documentation-mediation-android-ad-formats-native" class="dg-menu-section is-active is-open">$1aria-expanded="true"$2></button><ul class="dg-menu-list"><li class="is-active"><a href="${NATIVE}/manual" aria-current="page">Manual Native Ads</a></li><li data-id="deeper" class="dg-menu-section is-open"><button type="button" class="dg-menu-toggle" aria-expanded="true">Deeper</button><ul class="dg-menu-list"><li><a href="${NATIVE}/deeper/one">One</a></li></ul></li></ul></li>`,
  );

beforeEach(() => {
  // No animation: the menu's lists change at once.
  window.matchMedia = vi.fn((q: string) => ({ matches: q.includes('reduce'), addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
  window.scrollTo = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('swapping in the next page', () => {
  it('takes every region as the next page has it, keeps the search’s element, and describes the new page', () => {
    load(pageHtml());
    const slot = document.getElementById('dg-search')!;
    slot.textContent = 'search state';
    const next = parse(pageHtml({ title: 'Native Ads', route: NATIVE, menu: nativeMenu, extra: '<p class="site-marker">Overridden</p>', bodyClass: 'dg-layout-page custom' }));
    expect(swapPage(document, next)).toBe(true);
    expect(document.querySelector('.dg-article h1')?.textContent).toBe('Native Ads');
    expect(document.querySelector('.site-marker')?.textContent).toBe('Overridden');
    expect(document.querySelector('#dg-breadcrumbs [aria-current="page"]')?.textContent).toBe('Native Ads');
    expect(document.querySelector('#dg-menu [aria-current="page"]')?.textContent).toBe('Manual Native Ads');
    expect(document.getElementById('dg-search')).toBe(slot);
    expect(slot.textContent).toBe('search state');
    expect(slot.nextElementSibling).toHaveClass('dg-theme-toggle');
    expect(document.title).toBe('Native Ads | Fixture Docs');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', 'About Native Ads');
    expect(document.body.className).toBe('dg-layout-page custom');
    expect(JSON.parse(document.getElementById('dg-page-data')!.textContent).title).toBe('Native Ads');
  });

  it('gives focus back to the link that had it, when the next page has it too', () => {
    load(pageHtml());
    const link = document.querySelector<HTMLAnchorElement>(`#dg-menu a[href="${M}/android/changelog"]`)!;
    link.focus();
    swapPage(document, parse(pageHtml({ title: 'Changelog', route: `${M}/android/changelog` })));
    expect(document.activeElement).not.toBe(link);
    expect(document.activeElement).toBe(document.querySelector(`#dg-menu a[href="${M}/android/changelog"]`));
  });

  it('changes nothing for a page without the shell', () => {
    load(pageHtml());
    const before = document.body.innerHTML;
    expect(swapPage(document, parse('<html><body><div id="dg-faq"></div></body></html>'))).toBe(false);
    expect(document.body.innerHTML).toBe(before);
  });
});

describe('the left menu', () => {
  function attach(pages: Record<string, string>) {
    const load = vi.fn(async (route: string): Promise<PageResult> => {
      const html = pages[route];
      if (!html) throw new Error(`no page ${route}`);
      const doc = parse(html);
      return { kind: 'page', page: { route, data: pageData({ route }), title: doc.title, doc, head: [] } };
    });
    const shell = new Shell({ features: [], permissions: [] }, { base: '', load });
    onTestFinished(() => { shell.dispose(); });
    return { shell, load };
  }
  const section = (id: string) => document.querySelector<HTMLElement>(`#dg-menu li[data-id="${id}"]`)!;

  it('closes and opens a section the server rendered open, keeping its list', () => {
    load(pageHtml());
    const { load: fetchPage } = attach({});
    const adFormats = section('documentation-mediation-android-ad-formats');
    const caret = adFormats.querySelector('.dg-menu-caret')!;
    fireEvent.click(caret);
    expect(caret).toHaveAttribute('aria-expanded', 'false');
    expect(adFormats).not.toHaveClass('is-open');
    expect(adFormats.querySelector('ul')).toBeNull();
    fireEvent.click(caret);
    expect(caret).toHaveAttribute('aria-expanded', 'true');
    expect(adFormats.querySelector('[aria-current="page"]')?.textContent).toBe('Banners');
    expect(fetchPage).not.toHaveBeenCalled();
  });

  it('opens a closed section with the list its own page shows, nothing in it current and deeper sections closed', async () => {
    load(pageHtml());
    const { load: fetchPage } = attach({ [NATIVE]: pageHtml({ title: 'Native Ads', route: NATIVE, menu: nativeMenu }) });
    const native = section('documentation-mediation-android-ad-formats-native');
    fireEvent.click(native.querySelector('.dg-menu-caret')!);
    expect(native).toHaveClass('is-open');
    await waitFor(() => { expect(native.querySelector('ul.dg-menu-list')).not.toBeNull(); });
    expect(fetchPage).toHaveBeenCalledWith(NATIVE);
    expect(Array.from(native.querySelectorAll('a'), (a) => a.textContent)).toEqual(['Native Ads', 'Manual Native Ads']);
    expect(native.querySelector('ul [aria-current]')).toBeNull();
    expect(native.querySelector('ul .is-active')).toBeNull();
    const deeper = native.querySelector<HTMLElement>('li[data-id="deeper"]')!;
    expect(deeper).not.toHaveClass('is-open');
    expect(deeper.querySelector('button')).toHaveAttribute('aria-expanded', 'false');
    // The deeper list was kept: it opens without another page.
    fireEvent.click(deeper.querySelector('button')!);
    expect(deeper.querySelector('a')?.textContent).toBe('One');
    expect(fetchPage).toHaveBeenCalledTimes(1);
    // The only page current is still the one on screen.
    expect(Array.from(document.querySelectorAll('#dg-menu [aria-current="page"]'), (a) => a.textContent)).toEqual(['Banners']);
  });

  it('opens and closes a section with its link’s arrow keys', () => {
    load(pageHtml());
    attach({});
    const android = section('documentation-mediation-android');
    const link = android.querySelector('a')!;
    fireEvent.keyDown(link, { key: 'ArrowLeft' });
    expect(android).not.toHaveClass('is-open');
    fireEvent.keyDown(link, { key: 'ArrowRight' });
    expect(android).toHaveClass('is-open');
    fireEvent.keyDown(link, { key: 'ArrowLeft', shiftKey: true });
    expect(android).toHaveClass('is-open');
  });

  it('keeps sections the reader opened open on the next page', async () => {
    load(pageHtml());
    const { shell } = attach({ [NATIVE]: pageHtml({ title: 'Native Ads', route: NATIVE, menu: nativeMenu }) });
    fireEvent.click(section('documentation-mediation-android-setup').querySelector('.dg-menu-caret')!);
    fireEvent.click(section('documentation-mediation-android-ad-formats-native').querySelector('.dg-menu-caret')!);
    await waitFor(() => { expect(section('documentation-mediation-android-ad-formats-native').querySelector('ul')).not.toBeNull(); });
    swapPage(document, parse(pageHtml({ title: 'Changelog', route: `${M}/android/changelog` })));
    shell.page();
    expect(section('documentation-mediation-android-ad-formats-native')).toHaveClass('is-open');
    expect(section('documentation-mediation-android-ad-formats-native').querySelector('a[href$="/manual"]')).not.toBeNull();
  });

  it('adopts a branch without changing the page it came from', () => {
    const doc = parse(pageHtml({ menu: nativeMenu }));
    const list = doc.querySelector<HTMLUListElement>('li[data-id="documentation-mediation-android-ad-formats-native"] > ul')!;
    const stash = new Map<string, HTMLUListElement>();
    const adopted = adoptBranch(list, stash);
    expect(adopted.ownerDocument).toBe(document);
    expect(list.querySelector('[aria-current]')).not.toBeNull();
    expect(stash.get('deeper')?.textContent).toBe('One');
  });
});

describe('the drawer of narrow screens', () => {
  it('opens from the menu button: the rest inert, focus on the current page, Escape closes and focus returns', () => {
    load(pageHtml());
    const shell = new Shell({ features: [], permissions: [] }, null);
    onTestFinished(() => { shell.dispose(); });
    const button = document.querySelector<HTMLElement>('.dg-menu-button')!;
    button.focus();
    fireEvent.click(button);
    const nav = document.getElementById('dg-menu')!;
    expect(nav).toHaveClass('is-open');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(document.querySelector('.dg-menu-backdrop')).not.toBeNull();
    expect(document.getElementById('dg-main')?.closest('[inert]')).not.toBeNull();
    expect(document.activeElement?.textContent).toBe('Banners');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(nav).not.toHaveClass('is-open');
    expect(document.querySelector('[inert]')).toBeNull();
    expect(document.querySelector('.dg-menu-backdrop')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('the app on a page', () => {
  it('shows today’s year and navigates to a page of a site’s own templates without a reload', async () => {
    window.history.replaceState(null, '', BANNERS);
    load(pageHtml());
    const native = pageHtml({ title: 'Native Ads', route: NATIVE, menu: nativeMenu, extra: '<p class="site-marker">Overridden</p>' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === `${NATIVE}/index.html` ? respond(native, 200, 'text/html') : respond('missing', 404, 'text/plain'))),
    );
    const app = start()!;
    onTestFinished(() => { app.dispose(); });
    expect(document.documentElement).toHaveAttribute('data-dg-app', 'mounted');
    expect(document.querySelector('.dg-year')?.textContent).toBe(String(new Date().getUTCFullYear()));
    const length = window.history.length;
    fireEvent.click(document.getElementById('next')!);
    await waitFor(() => { expect(document.querySelector('.dg-article h1')?.textContent).toBe('Native Ads'); });
    expect(window.location.pathname).toBe(NATIVE);
    expect(window.history.length).toBe(length + 1);
    expect(document.querySelector('.site-marker')?.textContent).toBe('Overridden');
    expect(document.querySelector('.dg-year')?.textContent).toBe(String(new Date().getUTCFullYear()));
    expect(document.querySelector('[aria-live="assertive"]')?.textContent).toBe('Native Ads');
  });
});
