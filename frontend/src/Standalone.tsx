import { useEffect, useMemo, useRef, useState } from 'react';
import { createApi } from './data/api';
import { useTheme } from './hooks/useTheme';
import { useUtcYear } from './hooks/useUtcYear';
import type { Access } from './lib/access';
import { renderIslands, useIslands } from './blocks/mount';
// The site's islands, registered once for the whole app.
import './blocks/islands';
import { BackToTop } from './shell/BackToTop';
import { ConsentDialog } from './shell/ConsentDialog';
import { AccessContext } from './state/AccessContext';
import { DocumentationProvider } from './state/DocumentationContext';
import type { SiteView } from './types';

function Extras({ article }: { article: HTMLElement | null }) {
  const ref = useRef(article);
  const islands = useIslands(ref, article);
  const year = useUtcYear();
  const [consent, setConsent] = useState<{ open: boolean; opener: HTMLElement | null }>({ open: false, opener: null });
  const { theme, toggle } = useTheme();

  useEffect(() => {
    for (const el of Array.from(document.querySelectorAll('.dg-year'))) el.textContent = String(year);
    const onClick = (e: MouseEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      const button = target?.closest('[data-action="consent"]');
      if (button instanceof HTMLElement) setConsent({ open: true, opener: button });
      if (target?.closest('.dg-theme-toggle')) toggle();
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [year, toggle]);
  // The page's own theme switch (in its header) says whether the dark theme is on.
  useEffect(() => {
    for (const el of Array.from(document.querySelectorAll('.dg-theme-toggle'))) el.setAttribute('aria-pressed', String(theme === 'dark'));
  }, [theme]);

  return (
    <>
      {renderIslands(islands)}
      <BackToTop />
      <ConsentDialog open={consent.open} opener={consent.opener} onClose={() => setConsent((c) => ({ ...c, open: false }))} />
    </>
  );
}

/**
 * The app on a page with a layout of its own (no shell to take over, e.g. layout: faq): the
 * content islands, the footer's year, the consent dialog, the theme switch of its header and
 * back to top.
 */
export function Standalone({ site, base, article }: { site: SiteView; base: string; article: HTMLElement | null }) {
  const api = useMemo(() => createApi(site.apiBase, base), [site, base]);
  const access = useMemo<Access>(() => ({ features: site.features, permissions: [] }), [site]);
  return (
    <DocumentationProvider api={api}>
      <AccessContext.Provider value={access}>
        <Extras article={article} />
      </AccessContext.Provider>
    </DocumentationProvider>
  );
}
