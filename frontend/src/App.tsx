import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
// The site's islands, registered once for the whole app.
import './blocks/islands';
import { createApi } from './data/api';
import { useLinkInterception } from './hooks/useLinkInterception';
import { useNavTree } from './hooks/useNavTree';
import { usePageFetch, type View } from './hooks/usePageFetch';
import type { PageResult } from './data/pages';
import { useScrollToTop } from './hooks/useScrollToTop';
import type { Access } from './lib/access';
import { applyHead } from './lib/head';
import { emptyMenu, fromNav } from './lib/menu';
import { normalizeRoute, notFoundArea } from './lib/routes';
import { Layout } from './shell/Layout';
import { RouteAnnouncer } from './shell/RouteAnnouncer';
import { AccessContext } from './state/AccessContext';
import { DocumentationProvider } from './state/DocumentationContext';
import type { SiteView } from './types';

export interface Boot {
  site: SiteView;
  /** The site's base path (`<html data-base>`), "" at the root of a host. */
  base: string;
  /** The page the server rendered, as the app shows it first. */
  view: View;
  /** The nav shards the first page names (a not-found page names its area's). */
  navShards?: string[];
}

const noShards: string[] = [];

/** Legacy routes leading on to legacy routes: followed this many times at most. */
const MAX_REDIRECTS = 5;

/**
 * Following a link: its page is loaded first, and only then is the address changed, so each
 * click makes one history entry and the address always names the page on screen. A page of the
 * shell (or a route without one: the not-found view) gets an entry of the app; a legacy route
 * is followed to where it leads; a page with a layout of its own is loaded by the browser as a
 * document, with its own entry (an entry pushed first and replaced by a document would make
 * Back stay in that document). A later click, Back or Forward cancels an earlier click.
 */
function useFollow(load: (route: string) => Promise<PageResult>, navigate: (to: string) => void) {
  const location = useLocation();
  const [pending, setPending] = useState(false);
  const clicks = useRef(0);
  useEffect(() => {
    clicks.current++;
    setPending(false);
  }, [location.key]);
  const go = useCallback(
    (to: string) => {
      const click = ++clicks.current;
      setPending(true);
      const step = (target: string, hops: number) => {
        const url = new URL(target, 'http://app.invalid');
        const done = (act: () => void) => {
          if (click !== clicks.current) return;
          setPending(false);
          act();
        };
        load(normalizeRoute(url.pathname)).then(
          (result) => {
            if (click !== clicks.current) return;
            if (result.kind === 'redirect' && hops < MAX_REDIRECTS) step(result.to, hops + 1);
            else if (result.kind === 'document') done(() => window.location.assign(result.href + url.search + url.hash));
            else done(() => navigate(target));
          },
          // Shown as the not-found view at its own address.
          () => done(() => navigate(target)),
        );
      };
      step(to, 0);
    },
    [load, navigate],
  );
  return { go, pending };
}

function Shell({ boot }: { boot: Boot }) {
  const { site, base } = boot;
  const location = useLocation();
  const navigate = useNavigate();
  const route = normalizeRoute(location.pathname);
  const { view, loading, prefetch, load } = usePageFetch({
    route,
    base,
    site,
    initial: boot.view,
    onRedirect: (to) => navigate(to, { replace: true }),
    // Only reached through Back or Forward to an address the app never pushes itself.
    onDocument: (href) => window.location.replace(href + window.location.search + window.location.hash),
  });
  const follow = useFollow(load, navigate);
  useLinkInterception({ base, route: view.route, navigate, prefetch, follow: follow.go });
  // A route without a page in an area with its own not-found page shows that area's menu.
  const errorArea = view.kind === 'error' ? notFoundArea(view.route, site) : null;
  const nav = useNavTree(base, (view.kind === 'page' ? view.page.data.navShards : boot.navShards) ?? noShards);
  const { loadSection } = nav;
  useEffect(() => {
    if (errorArea) loadSection(errorArea.id);
  }, [errorArea, loadSection]);
  const menu = useMemo(() => {
    const loaded = nav.nodes ? fromNav(nav.nodes, view.route, base, site.features) : null;
    const prerendered = view.kind === 'page' ? view.page.menu : view.menu;
    const shown = loaded?.root ? loaded : (prerendered ?? loaded ?? emptyMenu);
    return { ...shown, loadSection: nav.loadSection };
  }, [nav, view, base, site.features]);

  useLayoutEffect(() => {
    document.title = view.kind === 'page' ? view.page.title : `${view.title} | ${site.title}`;
    // The head describes the page on screen; a route without a page has no description.
    applyHead(view.kind === 'page' ? view.page.head : []);
  }, [view, site.title]);
  useScrollToTop(view.key, location.hash);

  return (
    <>
      <Layout site={site} base={base} view={view} hash={view.route === route ? location.hash : ''} menu={menu} busy={loading || follow.pending} errorArea={errorArea} />
      <RouteAnnouncer view={view} />
    </>
  );
}

export function App({ boot }: { boot: Boot }) {
  const api = useMemo(() => createApi(boot.site.apiBase, boot.base), [boot]);
  const access = useMemo<Access>(() => ({ features: boot.site.features, permissions: [] }), [boot]);
  return (
    <DocumentationProvider api={api}>
      <AccessContext.Provider value={access}>
        {/* Location updates stay synchronous: the page on screen changes only when the new one is loaded. */}
        <BrowserRouter basename={boot.base || '/'} future={{ v7_startTransition: false, v7_relativeSplatPath: true }}>
          <Shell boot={boot} />
        </BrowserRouter>
      </AccessContext.Provider>
    </DocumentationProvider>
  );
}
