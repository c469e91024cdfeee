import { useLayoutEffect, useMemo } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
// The site's islands, registered once for the whole app.
import './blocks/islands';
import { createApi } from './data/api';
import { useLinkInterception } from './hooks/useLinkInterception';
import { useNavTree } from './hooks/useNavTree';
import { usePageFetch, type View } from './hooks/usePageFetch';
import { useScrollToTop } from './hooks/useScrollToTop';
import type { Access } from './lib/access';
import { emptyMenu, fromNav } from './lib/menu';
import { normalizeRoute } from './lib/routes';
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

function Shell({ boot }: { boot: Boot }) {
  const { site, base } = boot;
  const location = useLocation();
  const navigate = useNavigate();
  const route = normalizeRoute(location.pathname);
  const { view, loading, prefetch } = usePageFetch({
    route,
    base,
    site,
    initial: boot.view,
    onRedirect: (to) => navigate(to, { replace: true }),
    onDocument: (href) => window.location.assign(href),
  });
  useLinkInterception({ base, route: view.route, navigate, prefetch });
  const nav = useNavTree(base, (view.kind === 'page' ? view.page.data.navShards : boot.navShards) ?? noShards);
  const menu = useMemo(() => {
    const loaded = nav.nodes ? fromNav(nav.nodes, view.route, base, site.features) : null;
    const shown = loaded?.root ? loaded : view.kind === 'page' ? view.page.menu : (loaded ?? emptyMenu);
    return { ...shown, loadSection: nav.loadSection };
  }, [nav, view, base, site.features]);

  useLayoutEffect(() => {
    document.title = view.kind === 'page' ? view.page.title : `${view.title} | ${site.title}`;
  }, [view, site.title]);
  useScrollToTop(view.key, location.hash);

  return (
    <>
      <Layout site={site} base={base} view={view} hash={view.route === route ? location.hash : ''} menu={menu} busy={loading} />
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
