// What the app reads from the pre-rendered page before it mounts.

import type { View } from './hooks/usePageFetch';
import { readHead } from './lib/head';
import { parseMenu } from './lib/menu';
import { errorTextFor, stripBase, stripOpenPrefix, withBase } from './lib/routes';
import type { PageView } from './types';

/**
 * The route of the address. A new-tab address (`/o/<route>`) shows the page of `<route>`, and
 * the address bar is set to the page's own address.
 */
export function currentRoute(base: string): string {
  const route = stripBase(window.location.pathname, base);
  const own = stripOpenPrefix(route);
  if (own !== route) {
    window.history.replaceState(window.history.state, '', withBase(base, own) + window.location.search + window.location.hash);
  }
  return own;
}

/** The page the server rendered, as the app's first view. */
export function initialView(data: PageView, route: string, base: string, root: HTMLElement, doc: Document = document): View {
  const article = root.querySelector<HTMLElement>('.dg-article');
  if (data.notFound || data.route === null || !article || article.id === 'dg-not-found') {
    const fallback = errorTextFor(route, data.site);
    const menu = doc.getElementById('dg-menu');
    return {
      kind: 'error',
      key: 0,
      route,
      title: doc.getElementById('dg-error-title')?.textContent || fallback.title,
      subtitle: doc.getElementById('dg-error-subtitle')?.textContent || fallback.subtitle,
      // An area's 404 page shows the area's menu.
      ...(menu ? { menu: parseMenu(menu, base) } : {}),
    };
  }
  return {
    kind: 'page',
    key: 0,
    route,
    page: { route, data, title: doc.title, html: article.innerHTML, menu: parseMenu(doc.getElementById('dg-menu'), base), head: readHead(doc) },
    nodes: Array.from(article.childNodes),
  };
}
