import { useEffect, useRef } from 'react';
import { internalRoute } from '../data/pages';
import { openPrefixedHref } from '../lib/routes';

interface Options {
  base: string;
  /** The route on screen. */
  route: string;
  navigate(to: string, options?: { replace?: boolean }): void;
  prefetch(route: string): void;
  /** Goes to another page (`to`: its route, search and hash), once it is known what it is. */
  follow(to: string): void;
}

function linkOf(e: Event): HTMLAnchorElement | null {
  const target = e.target;
  if (!(target instanceof Element)) return null;
  const a = target.closest('a[href]');
  return a instanceof HTMLAnchorElement ? a : null;
}

/** The route a link leads to, when the app should handle it; null for everything else. */
function routeOfLink(a: HTMLAnchorElement, base: string): { route: string; url: URL } | null {
  if (a.hasAttribute('download')) return null;
  const target = a.getAttribute('target');
  if (target && target !== '_self') return null;
  const url = new URL(a.href, window.location.href);
  const route = internalRoute(url, window.location.origin, base);
  return route === null ? null : { route, url };
}

/**
 * Internal links navigate inside the app (no full reload); a ctrl- or cmd-click opens the page
 * in a new tab at `/o/<route>`. Links to another part of the same page keep the browser's own
 * behaviour. Hovering or focusing a link starts loading its page.
 */
export function useLinkInterception({ base, route, navigate, prefetch, follow }: Options): void {
  const latest = useRef({ base, route, navigate, prefetch, follow });
  latest.current = { base, route, navigate, prefetch, follow };

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0) return;
      const a = linkOf(e);
      if (!a) return;
      const { base: b, route: current, navigate: go } = latest.current;
      const link = routeOfLink(a, b);
      if (!link) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        window.open(openPrefixedHref(b, link.route, link.url.search, link.url.hash), '_blank', 'noopener');
        return;
      }
      if (e.shiftKey || e.altKey) return;
      const samePage = link.route === current && link.url.search === window.location.search;
      if (samePage && link.url.hash) return;
      e.preventDefault();
      if (samePage) {
        if (window.location.hash) go(link.route + link.url.search, { replace: true });
        window.scrollTo(0, 0);
        return;
      }
      latest.current.follow(link.route + link.url.search + link.url.hash);
    };
    const onIntent = (e: Event) => {
      const a = linkOf(e);
      if (!a) return;
      const link = routeOfLink(a, latest.current.base);
      if (link && link.route !== latest.current.route) latest.current.prefetch(link.route);
    };
    document.addEventListener('click', onClick);
    document.addEventListener('mouseover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);
    document.addEventListener('touchstart', onIntent, { passive: true });
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('mouseover', onIntent);
      document.removeEventListener('focusin', onIntent);
      document.removeEventListener('touchstart', onIntent);
    };
  }, []);
}
