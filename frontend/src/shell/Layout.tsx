import { useCallback, useMemo, useRef, useState } from 'react';
import { useDrawer } from '../hooks/useDrawer';
import type { View } from '../hooks/usePageFetch';
import type { MenuData } from '../lib/menu';
import { withBase } from '../lib/routes';
import type { AreaLink, SiteView } from '../types';
import { Article, type ArticleContent } from './Article';
import { BackToTop } from './BackToTop';
import { Breadcrumbs } from './Breadcrumbs';
import { ConsentDialog } from './ConsentDialog';
import { ErrorPage } from './ErrorPage';
import { Footer } from './Footer';
import { LeftMenu } from './LeftMenu';
import { TableOfContents } from './TableOfContents';
import { TopBar } from './TopBar';

export interface LayoutProps {
  site: SiteView;
  base: string;
  view: View;
  /** The URL hash, when it belongs to the page on screen. */
  hash: string;
  menu: MenuData;
  /** Another page is being loaded. */
  busy: boolean;
  /** For a route without a page: the area whose own not-found page it shows, if any. */
  errorArea?: AreaLink | null;
}

/** The drawer's backdrop stays live while the rest of the page is inert. */
const keepBackdrop = (e: Element) => e.classList.contains('dg-menu-backdrop');

/**
 * The shell around a page, the same elements and classes as docgen's templates (page.html and
 * not_found.html), so that mounting the app over the pre-rendered page moves nothing. On narrow
 * screens the menu is a drawer opened from the top bar, closed again by every new page.
 */
export function Layout({ site, base, view, hash, menu, busy, errorArea = null }: LayoutProps) {
  const menuRef = useRef<HTMLElement>(null);
  const drawer = useDrawer(menuRef, view.key, keepBackdrop);
  const [consent, setConsent] = useState<{ open: boolean; opener: HTMLElement | null }>({ open: false, opener: null });
  const content = useMemo<ArticleContent | null>(
    () => (view.kind === 'page' ? { key: view.key, html: view.page.html, ...(view.nodes ? { nodes: view.nodes } : {}) } : null),
    [view],
  );
  const openConsent = useCallback((opener: HTMLElement) => setConsent({ open: true, opener }), []);
  const closeConsent = useCallback(() => setConsent((c) => ({ ...c, open: false })), []);
  const page = view.kind === 'page' ? view.page : null;

  return (
    <>
      <TopBar site={site} base={base} area={page?.data.area ?? errorArea?.url ?? null} menuOpen={drawer.open} onMenu={drawer.show} />
      {page && <Breadcrumbs crumbs={page.data.breadcrumbs} base={base} />}
      <div className="dg-columns">
        {(page || (errorArea && menu.root)) && (
          <LeftMenu menu={menu} route={view.route} site={site} base={base} open={drawer.open} onClose={drawer.close} navRef={menuRef} />
        )}
        {/* Before the article: where it folds above it, the article never moves as the page streams in. */}
        {page && <TableOfContents toc={page.data.toc} hash={hash} />}
        <main id="dg-main" className="dg-main" aria-busy={busy || undefined}>
          {content ? (
            <Article content={content} />
          ) : (
            view.kind === 'error' && (
              <ErrorPage
                title={view.title}
                subtitle={view.subtitle}
                homeHref={withBase(base, site.home)}
                {...(errorArea ? { overview: { name: errorArea.displayName, href: withBase(base, errorArea.url) } } : {})}
              />
            )
          )}
        </main>
      </div>
      <Footer site={site} onConsent={openConsent} />
      {page && <BackToTop />}
      <ConsentDialog open={consent.open} opener={consent.opener} onClose={closeConsent} />
    </>
  );
}
