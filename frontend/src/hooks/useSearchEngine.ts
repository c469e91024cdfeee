import { useCallback, useEffect, useRef, useState } from 'react';
import type { Filters, Search } from '../search/engine';
import { loadSearch } from '../search/load';
import type { SiteSearch } from '../types';

export type EngineState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; engine: Search; filters: Filters }
  | { status: 'failed'; error: unknown };

/**
 * The search engine of the site, loaded by `start()` (the first focus of the search box) rather
 * than with the page: its code and index.json come in then. After a failure `start()` tries again.
 */
export function useSearchEngine(site: SiteSearch): { state: EngineState; start: () => void } {
  const [state, setState] = useState<EngineState>({ status: 'idle' });
  const busy = useRef(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const { index, script } = site;
  const start = useCallback(() => {
    if (busy.current) return;
    busy.current = true;
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    loadSearch({ index, script })
      .then(async (engine) => ({ engine, filters: await engine.filters() }))
      .then(
        ({ engine, filters }) => { if (live.current) setState({ status: 'ready', engine, filters }); },
        (error: unknown) => {
          busy.current = false;
          if (live.current) setState({ status: 'failed', error });
        },
      );
  }, [index, script]);

  return { state, start };
}
