import { useCallback, useEffect, useState } from 'react';
import type { Result, Search } from '../search/engine';

export interface SearchRequest {
  text: string;
  area: string | null;
  platform: string | null;
}

export interface SearchResults {
  /** The request the results answer; null before the first answer (or with no query). */
  answered: SearchRequest | null;
  results: Result[];
  /** A query is waiting for its debounce or its files. */
  searching: boolean;
  error: unknown;
  /** Asks the same query again (after an error). */
  retry: () => void;
}

export const SEARCH_DEBOUNCE_MS = 120;

type State = Omit<SearchResults, 'retry'>;

const none: State = { answered: null, results: [], searching: false, error: null };

/**
 * The results of `request`, asked `delay` ms after it last changed (typing does not send a
 * query per key). An answer to an older request is dropped. An empty query has no results.
 */
export function useSearchResults(engine: Search | null, request: SearchRequest, delay = SEARCH_DEBOUNCE_MS): SearchResults {
  const [state, setState] = useState<State>(none);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => { setAttempt((n) => n + 1); }, []);
  const { text, area, platform } = request;

  useEffect(() => {
    if (!engine || text.trim() === '') {
      setState(none);
      return;
    }
    let live = true;
    setState((s) => (s.searching ? s : { ...s, searching: true }));
    const timer = setTimeout(() => {
      const asked = { text, area, platform };
      engine.query(text, { area, platform }).then(
        (results) => { if (live) setState({ answered: asked, results, searching: false, error: null }); },
        (error: unknown) => { if (live) setState({ answered: asked, results: [], searching: false, error }); },
      );
    }, delay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [engine, text, area, platform, delay, attempt]);

  return { ...state, retry };
}
