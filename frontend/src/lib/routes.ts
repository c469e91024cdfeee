// Routes are paths without the site's base prefix and without a trailing slash ("/" alone
// is the root). hrefs are what appears in the pages: the base prefix plus the route.

import { OPEN_PREFIX } from '../constants';
import type { AreaLink } from '../types';

export function normalizeRoute(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Whether `prefix` is `route` or one of its ancestors, on segment boundaries. */
export function isPrefix(prefix: string, route: string): boolean {
  return prefix === '/' || route === prefix || (route.startsWith(prefix) && route.charAt(prefix.length) === '/');
}

/** The route of a path that may carry the base prefix. */
export function stripBase(path: string, base: string): string {
  if (base && (path === base || path.startsWith(base + '/'))) return normalizeRoute(path.slice(base.length));
  return normalizeRoute(path);
}

export function withBase(base: string, route: string): string {
  return route === '/' ? base || '/' : base + route;
}

/** `/o/documentation/x` (a new-tab link) is the route `/documentation/x`. */
export function stripOpenPrefix(route: string): string {
  if (route === OPEN_PREFIX) return '/';
  return route.startsWith(OPEN_PREFIX + '/') ? route.slice(OPEN_PREFIX.length) : route;
}

/** The href that opens `route` in a new tab. */
export function openPrefixedHref(base: string, route: string, search = '', hash = ''): string {
  return base + OPEN_PREFIX + (route === '/' ? '/' : route) + search + hash;
}

/** The file of a route's page: `/a/b` → `/a/b/index.html`. */
export function pageFileUrl(base: string, route: string): string {
  return base + (route === '/' ? '' : route) + '/index.html';
}

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The area whose own not-found page a route without a page shows (the longest match among the
 * areas that give one), or null.
 */
export function notFoundArea<A extends Pick<AreaLink, 'url' | 'notFound'>>(route: string, site: { areas: readonly A[] }): A | null {
  let best: A | null = null;
  for (const area of site.areas) {
    if (area.notFound && isPrefix(area.url, route) && (best === null || area.url.length > best.url.length)) best = area;
  }
  return best;
}
