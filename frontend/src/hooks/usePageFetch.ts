import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchPage, type LoadedPage, type PageResult } from '../data/pages';
import type { MenuData } from '../lib/menu';
import { errorTextFor } from '../lib/routes';
import type { SiteView } from '../types';

export type View =
  | {
      kind: 'page';
      /** Changes with every page shown (also when the same route is shown again). */
      key: number;
      route: string;
      page: LoadedPage;
      /** The nodes of the article that is already in the document (first page only). */
      nodes?: Node[];
    }
  | {
      kind: 'error';
      key: number;
      route: string;
      title: string;
      subtitle: string;
      /** The menu the server pre-rendered into an area's 404 page (first page only). */
      menu?: MenuData;
    };

export interface PageFetch {
  view: View;
  loading: boolean;
  /** Starts loading a route's page ahead of a navigation (on hover), keeping the result. */
  prefetch(route: string): void;
  /** Loads a route's page (or takes it from those loaded before), keeping the result. */
  load(route: string): Promise<PageResult>;
}

interface Options {
  route: string;
  base: string;
  site: SiteView;
  initial: View;
  /** A legacy route's page says to go on to another route. */
  onRedirect(to: string): void;
  /**
   * The page has a layout of its own (not the shell): load it as a whole document, in place of
   * the history entry that asked for it (one entry per navigation).
   */
  onDocument(href: string): void;
}

let nextKey = 1;

/**
 * The page shown for the current route. A route change keeps the old page on screen until the
 * new one is there (no blank flash), then swaps it in; a failure shows the error view. Pages
 * once loaded (or prefetched) are kept, so back and forward are immediate.
 */
export function usePageFetch({ route, base, site, initial, onRedirect, onDocument }: Options): PageFetch {
  const [view, setView] = useState<View>(initial);
  const [loading, setLoading] = useState(false);
  const cache = useRef<Map<string, Promise<PageResult>> | null>(null);
  if (cache.current === null) {
    cache.current = new Map();
    if (initial.kind === 'page') cache.current.set(initial.route, Promise.resolve({ kind: 'page', page: initial.page }));
  }
  const callbacks = useRef({ onRedirect, onDocument });
  callbacks.current = { onRedirect, onDocument };

  const get = useCallback(
    (r: string): Promise<PageResult> => {
      const pages = cache.current!;
      let p = pages.get(r);
      if (!p) {
        p = fetchPage(base, r);
        pages.set(r, p);
        // A failure is not kept: the next visit tries again.
        p.catch(() => pages.delete(r));
      }
      return p;
    },
    [base],
  );

  const prefetch = useCallback((r: string) => void get(r).catch(() => undefined), [get]);


  useEffect(() => {
    if (route === view.route) return;
    let current = true;
    setLoading(true);
    get(route).then(
      (result) => {
        if (!current) return;
        setLoading(false);
        if (result.kind === 'page') setView({ kind: 'page', key: nextKey++, route, page: result.page });
        else if (result.kind === 'redirect') callbacks.current.onRedirect(result.to);
        else callbacks.current.onDocument(result.href);
      },
      () => {
        if (!current) return;
        setLoading(false);
        setView({ kind: 'error', key: nextKey++, route, ...errorTextFor(route, site) });
      },
    );
    return () => {
      current = false;
    };
  }, [route, view.route, get, site]);

  return { view, loading, prefetch, load: get };
}
