import { useEffect, useMemo, useState } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { renderIslands } from './blocks/mount';
import type { MountedIsland } from './blocks/registry';
import { createApi } from './data/api';
import type { Access } from './lib/access';
import { Search } from './search/Search';
import { ConsentDialog } from './shell/ConsentDialog';
import { AccessContext } from './state/AccessContext';
import { DocumentationProvider } from './state/DocumentationContext';
import type { SiteSearch, SiteView } from './types';

/** What the app renders with React: the parts of the page without server markup. */
export interface AppProps {
  site: SiteView;
  base: string;
  /** The element the search is rendered into (in the top bar), when the site has a search. */
  searchSlot: HTMLElement | null;
  /** The islands of the page on screen; a new page gives new ones. */
  islands: IslandSource;
  /**
   * The search of the page on screen: a page of another locale has its locale's index. Without
   * it, the search of `site`.
   */
  search?: Source<SiteSearch | null>;
}

/** A value of the page on screen, handed to the React tree by the shell (which reads it from the page). */
export class Source<T> {
  private current: T;
  private listener: ((value: T) => void) | null = null;
  constructor(initial: T) {
    this.current = initial;
  }
  get(): T {
    return this.current;
  }
  set(value: T): void {
    this.current = value;
    this.listener?.(value);
  }
  listen(listener: ((value: T) => void) | null): void {
    this.listener = listener;
  }
}

/** The islands on screen. */
export class IslandSource extends Source<MountedIsland[]> {
  constructor() {
    super([]);
  }
}

function Parts({ site, searchSlot, islands: source, search: searchSource }: Omit<AppProps, 'base'>) {
  const [islands, setIslands] = useState(() => source.get());
  const [shown, setSearch] = useState(() => searchSource?.get() ?? null);
  const search = searchSource ? shown : site.search;
  useEffect(() => {
    if (!searchSource) return;
    searchSource.listen(setSearch);
    setSearch(searchSource.get());
    return () => { searchSource.listen(null); };
  }, [searchSource]);
  const [consent, setConsent] = useState<{ open: boolean; opener: HTMLElement | null }>({ open: false, opener: null });
  useEffect(() => {
    // A new page's islands render within the task that swapped it in, before paint.
    source.listen((next) => { flushSync(() => { setIslands(next); }); });
    setIslands(source.get());
    return () => { source.listen(null); };
  }, [source]);
  // The footer's "Cookie settings" (wherever a template puts it) opens the dialog.
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const button = e.target instanceof Element ? e.target.closest('[data-action="consent"]') : null;
      if (button instanceof HTMLElement) setConsent({ open: true, opener: button });
    };
    document.addEventListener('click', onClick);
    return () => { document.removeEventListener('click', onClick); };
  }, []);
  return (
    <>
      {/* Another locale's index is another search: a new one, in the new page's language. */}
      {search && searchSlot && createPortal(<Search key={search.index} site={search} />, searchSlot)}
      {renderIslands(islands)}
      <ConsentDialog open={consent.open} opener={consent.opener} onClose={() => { setConsent((c) => ({ ...c, open: false })); }} />
    </>
  );
}

export function App({ site, base, searchSlot, islands, search }: AppProps) {
  const api = useMemo(() => createApi(site.apiBase, base), [site, base]);
  const access = useMemo<Access>(() => ({ features: site.features, permissions: [] }), [site]);
  return (
    <DocumentationProvider api={api}>
      <AccessContext.Provider value={access}>
        <Parts site={site} searchSlot={searchSlot} islands={islands} search={search} />
      </AccessContext.Provider>
    </DocumentationProvider>
  );
}
