// Loading another page for client-side navigation: the page's own static HTML file, parsed
// whole. The shell's regions are taken from it as the server rendered them (shell/swap.ts).

import { readHead, type HeadTag } from '../lib/head';
import { pageFileUrl, stripBase, withBase } from '../lib/routes';
import type { PageView } from '../types';
import type { Fetch } from './api';
import { readPageData } from './pageData';

export interface LoadedPage {
  route: string;
  data: PageView;
  /** The document title of the page. */
  title: string;
  /** The page as the server rendered it; its nodes are copied, never moved, into the document. */
  doc: Document;
  /** The tags of the head that describe the page (description, canonical, OpenGraph). */
  head: HeadTag[];
}

export type PageResult =
  | { kind: 'page'; page: LoadedPage }
  /** A legacy route's page: go on to `to` (a route). */
  | { kind: 'redirect'; to: string }
  /** A page with another layout (a standalone page): load it in full, at its own address. */
  | { kind: 'document'; href: string };

export class PageLoadError extends Error {
  readonly status: number;
  constructor(status: number, route: string) {
    super(`cannot load ${route}: ${status || 'network error'}`);
    this.name = 'PageLoadError';
    this.status = status;
  }
}


/** Reads a fetched page. `route` is the route that was asked for; `href` its URL. */
export function parsePage(html: string, route: string, base: string, href: string): PageResult | null {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const refresh = doc.querySelector('meta[http-equiv="refresh" i]')?.getAttribute('content');
  if (refresh && !doc.getElementById('dg-page-data')) {
    const match = /url=(.+)$/i.exec(refresh);
    if (match?.[1]) {
      const target = new URL(match[1].trim(), new URL(href, 'http://localhost'));
      return { kind: 'redirect', to: stripBase(target.pathname, base) + target.search + target.hash };
    }
  }
  // Not a page of the shell (a layout of its own): it loads as a whole document, at the
  // route's own address (the one its links and canonical name).
  if (!doc.getElementById('dg-root')) return { kind: 'document', href: withBase(base, route) };
  const data = readPageData(doc);
  const article = doc.querySelector('#dg-root .dg-article');
  if (!data || data.notFound || data.route === null || !article) return null;
  return {
    kind: 'page',
    page: {
      route,
      data,
      title: doc.title,
      doc,
      head: readHead(doc),
    },
  };
}

export async function fetchPage(base: string, route: string, signal?: AbortSignal, fetchImpl: Fetch = (i, init) => fetch(i, init)): Promise<PageResult> {
  const url = pageFileUrl(base, route);
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: 'text/html' }, ...(signal ? { signal } : {}) });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new PageLoadError(0, route);
  }
  if (!response.ok) {
    await response.text().catch(() => undefined);
    throw new PageLoadError(response.status, route);
  }
  const result = parsePage(await response.text(), route, base, withoutFile(url));
  if (!result) throw new PageLoadError(404, route);
  return result;
}

function withoutFile(url: string): string {
  return url.replace(/\/index\.html$/, '/');
}

/** The route of a link's URL, if it leads to a page of this site (not a file, not elsewhere). */
export function internalRoute(url: URL, origin: string, base: string): string | null {
  if (url.origin !== origin) return null;
  const path = url.pathname;
  if (base && path !== base && !path.startsWith(base + '/')) return null;
  let route = stripBase(path, base);
  if (route.endsWith('/index.html')) route = route.slice(0, -'/index.html'.length) || '/';
  if (route.startsWith('/s/') || route.startsWith('/_docgen/')) return null;
  const last = route.slice(route.lastIndexOf('/') + 1);
  if (last.includes('.')) return null;
  return route;
}
