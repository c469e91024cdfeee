// Client-side navigation: an internal link's page (its pre-rendered HTML file) is loaded, then
// its shell is swapped into this document (./swap) and the address changes, so each click makes
// one history entry and the address always names the page on screen. A legacy route is followed
// to where it leads; a page with a layout of its own, or one that cannot be loaded, is loaded by
// the browser as a document. A later click, Back or Forward cancels an earlier click.

import { readPageData } from '../data/pageData';
import { fetchPage, internalRoute, PageLoadError, type PageResult } from '../data/pages';
import { normalizeRoute, notFoundArea, openPrefixedHref, safeDecode, stripBase, withBase } from '../lib/routes';
import type { SiteView } from '../types';
import { SEARCH_SLOT, swapPage } from './swap';

/** Legacy routes leading on to legacy routes: followed this many times at most. */
const MAX_REDIRECTS = 5;

export interface NavigationOptions {
  base: string;
  site: SiteView;
  /** After a new page is in place (before paint): attach behaviour to its regions. */
  onPage: () => void;
}

let entries = 0;
function newEntryKey(): string {
  return `${Date.now().toString(36)}-${++entries}`;
}

function linkOf(e: Event): HTMLAnchorElement | null {
  const target = e.target;
  if (!(target instanceof Element)) return null;
  const a = target.closest('a[href]');
  return a instanceof HTMLAnchorElement ? a : null;
}

export class Navigation {
  private readonly cache = new Map<string, Promise<PageResult>>();
  /** The route on screen. */
  private route: string;
  private clicks = 0;
  private readonly announcer: HTMLElement;
  private readonly listening = new AbortController();
  /** The history entry on screen, and the scroll position of each entry seen. */
  private entry: string;
  private readonly scrolled = new Map<string, number>();

  constructor(private readonly options: NavigationOptions) {
    this.route = stripBase(window.location.pathname, options.base);
    this.entry = this.markEntry();
    this.announcer = document.createElement('div');
    this.announcer.className = 'dg-visually-hidden';
    this.announcer.setAttribute('aria-live', 'assertive');
    this.announcer.setAttribute('aria-atomic', 'true');
    document.body.append(this.announcer);
    const signal = this.listening.signal;
    document.addEventListener('click', (e) => { this.onClick(e); }, { signal });
    for (const type of ['mouseover', 'focusin', 'touchstart'] as const) document.addEventListener(type, (e) => { this.onIntent(e); }, { passive: true, signal });
    window.addEventListener('popstate', () => { this.onPopState(); }, { signal });
    // Where each history entry was scrolled to, for Back and Forward between the app's entries
    // (the browser's own restoration would scroll the page still on screen). It is left to the
    // browser until the first of them, and again when the document is left (a reload).
    window.addEventListener('scroll', () => this.scrolled.set(this.entry, window.scrollY), { passive: true, signal });
    window.addEventListener('pagehide', () => (window.history.scrollRestoration = 'auto'), { signal });
  }

  /** The key of the current history entry (one is given to an entry without). */
  private markEntry(): string {
    const state: unknown = window.history.state;
    const key = typeof state === 'object' && state !== null && 'dgEntry' in state && typeof state.dgEntry === 'string' ? state.dgEntry : null;
    if (key) return key;
    const made = newEntryKey();
    window.history.replaceState({ ...(typeof state === 'object' ? state : {}), dgEntry: made }, '');
    return made;
  }

  /** Stops listening (the document is done with). */
  dispose(): void {
    this.listening.abort();
    this.announcer.remove();
  }

  /** Loads a route's page, or takes the one loaded (or being loaded) before. */
  load = (route: string): Promise<PageResult> => {
    let p = this.cache.get(route);
    if (!p) {
      p = fetchPage(this.options.base, route);
      this.cache.set(route, p);
      // A failure is not kept: the next visit tries again.
      p.catch(() => this.cache.delete(route));
    }
    return p;
  };

  /** The route a link leads to, when the app should handle it; null for everything else. */
  private routeOfLink(a: HTMLAnchorElement): { route: string; url: URL } | null {
    // A link to another version of the site leads to another build: loaded as a document.
    if (a.hasAttribute('download') || a.hasAttribute('data-dg-version')) return null;
    const target = a.getAttribute('target');
    if (target && target !== '_self') return null;
    const url = new URL(a.href, window.location.href);
    const route = internalRoute(url, window.location.origin, this.options.base);
    return route === null ? null : { route, url };
  }

  private onClick(e: MouseEvent): void {
    if (e.defaultPrevented || e.button !== 0) return;
    const a = linkOf(e);
    const link = a ? this.routeOfLink(a) : null;
    if (!link) return;
    const { base } = this.options;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      window.open(openPrefixedHref(base, link.route, link.url.search, link.url.hash), '_blank', 'noopener');
      return;
    }
    if (e.shiftKey || e.altKey) return;
    const samePage = link.route === this.route && link.url.search === window.location.search;
    // Another part of the same page: the browser's own behaviour (`:target` moves there).
    if (samePage && link.url.hash) {
      document.querySelector('.dg-target')?.classList.remove('dg-target');
      return;
    }
    e.preventDefault();
    if (samePage) {
      if (window.location.hash) window.history.replaceState(window.history.state, '', withBase(base, link.route) + link.url.search);
      window.scrollTo(0, 0);
      return;
    }
    // A result chosen in the search: the reader goes on reading there, not typing.
    this.follow(link.route + link.url.search + link.url.hash, 0, a?.closest(`#${SEARCH_SLOT}`) != null);
  }

  private onIntent(e: Event): void {
    const a = linkOf(e);
    const link = a ? this.routeOfLink(a) : null;
    if (link && link.route !== this.route) void this.load(link.route).catch(() => undefined);
  }

  private busy(on: boolean): void {
    const main = document.getElementById('dg-main');
    if (on) main?.setAttribute('aria-busy', 'true');
    else main?.removeAttribute('aria-busy');
  }

  /**
   * Goes to `to` (a route with its search and hash) once its page is loaded; with `focusContent`,
   * focus then moves to the new page's content (`show`).
   */
  follow(to: string, hops = 0, focusContent = false): void {
    const click = ++this.clicks;
    this.busy(true);
    const { base } = this.options;
    const url = new URL(to, 'http://app.invalid');
    const route = normalizeRoute(url.pathname);
    const href = withBase(base, route) + url.search + url.hash;
    this.load(route).then(
      (result) => {
        if (click !== this.clicks) return;
        if (result.kind === 'redirect' && hops < MAX_REDIRECTS) {
          this.follow(result.to, hops + 1, focusContent);
          return;
        }
        this.busy(false);
        if (result.kind === 'page') {
          this.push(href);
          this.show(result.page.doc, route, url.hash, null, focusContent);
        } else {
          window.location.assign(result.kind === 'document' ? result.href + url.search + url.hash : href);
        }
      },
      (error: unknown) => {
        if (click !== this.clicks) return;
        this.notFound(route, error).then(
          (doc) => {
            if (click !== this.clicks) return;
            this.busy(false);
            this.push(href);
            this.show(doc, route, '', null);
          },
          // The browser shows what the server has at that address.
          () => {
            if (click === this.clicks) window.location.assign(href);
          },
        );
      },
    );
  }

  /**
   * For a route without a page: the not-found page the server rendered for it (its area's own,
   * else the site's). Fails for other errors (the network, the server).
   */
  private async notFound(route: string, error: unknown): Promise<Document> {
    if (!(error instanceof PageLoadError) || error.status !== 404) throw error;
    const area = notFoundArea(route, this.options.site);
    const response = await fetch(withBase(this.options.base, `${area ? area.url : ''}/404.html`), { headers: { accept: 'text/html' } });
    if (!response.ok) throw new PageLoadError(response.status, route);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    if (!doc.getElementById('dg-root')) throw new PageLoadError(404, route);
    return doc;
  }

  private push(href: string): void {
    this.scrolled.set(this.entry, window.scrollY);
    window.history.scrollRestoration = 'manual';
    this.entry = newEntryKey();
    window.history.pushState({ dgEntry: this.entry }, '', href);
  }

  private onPopState(): void {
    const click = ++this.clicks;
    this.entry = this.markEntry();
    const route = stripBase(window.location.pathname, this.options.base);
    if (route === this.route) return;
    const scroll = this.scrolled.get(this.entry) ?? null;
    this.busy(true);
    this.load(route).then(
      (result) => {
        if (click !== this.clicks) return;
        this.busy(false);
        if (result.kind === 'page') this.show(result.page.doc, route, window.location.hash, scroll);
        else if (result.kind === 'redirect') {
          window.history.replaceState({ dgEntry: this.entry }, '', withBase(this.options.base, result.to));
          this.onPopState();
        } else window.location.replace(result.href + window.location.search + window.location.hash);
      },
      (error: unknown) =>
        this.notFound(route, error).then(
          (doc) => {
            if (click !== this.clicks) return;
            this.busy(false);
            this.show(doc, route, '', scroll);
          },
          () => {
            if (click === this.clicks) window.location.reload();
          },
        ),
    );
  }

  /**
   * Puts a loaded page on screen: at `scroll` (Back and Forward), else at its #hash target (whose
   * scroll-margin keeps it clear of the fixed bars), else at the top. With `focusContent`, focus
   * goes to that target, else to the page's title, else to its main region.
   */
  private show(doc: Document, route: string, hash: string, scroll: number | null, focusContent = false): void {
    if (!swapPage(document, doc)) {
      window.location.reload();
      return;
    }
    this.route = route;
    this.options.onPage();
    const target = hash ? document.getElementById(safeDecode(hash.slice(1))) : null;
    // A swapped-in page's #hash target is not `:target` (no fragment navigation happened), so
    // it is marked for the style sheet.
    target?.classList.add('dg-target');
    if (scroll !== null) window.scrollTo(0, scroll);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    if (focusContent) {
      const main = document.getElementById('dg-main');
      const to = target ?? main?.querySelector('h1') ?? main;
      if (to instanceof HTMLElement) {
        if (!to.matches('a[href], button, input, select, textarea, [tabindex]')) to.tabIndex = -1;
        to.focus({ preventScroll: true });
      }
    }
    // A full load announces the new document by itself; this tells screen readers of this one.
    this.announcer.textContent = doc.getElementById('dg-error-title')?.textContent ?? readPageData(doc)?.title ?? document.title;
  }
}
