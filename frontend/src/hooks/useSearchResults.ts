import { useCallback, useEffect, useState } from 'react';
import type { Result, Search } from '../search/engine';

export interface SearchRequest {
  text: string;
  area: string | null;
  platform: string | null;
  /** How many results to show with their excerpts. */
  limit: number;
  /** The platform and area of the page the reader is on, which rank first. */
  context: { area: string | null; platform: string | null };
}

export interface SearchResults {
  /** The request the results answer; null before the first answer (or with no query). */
  answered: SearchRequest | null;
  results: Result[];
  /** How many pages match in all. */
  total: number;
  /** The query as the engine read it when it corrected a word. */
  suggestion: string | null;
  /** A query is waiting for its debounce or its files. */
  searching: boolean;
  error: unknown;
  /** Asks the same query again (after an error). */
  retry: () => void;
}

export const SEARCH_DEBOUNCE_MS = 120;

type State = Omit<SearchResults, 'retry'>;

const none: State = { answered: null, results: [], total: 0, suggestion: null, searching: false, error: null };

/**
 * The results of `request`, asked `delay` ms after it last changed (typing does not send a
 * query per key). An answer to an older request is dropped. An empty query has no results.
 */
export function useSearchResults(engine: Search | null, request: SearchRequest, delay = SEARCH_DEBOUNCE_MS): SearchResults {
  const [state, setState] = useState<State>(none);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => { setAttempt((n) => n + 1); }, []);
  const { text, area, platform, limit, context } = request;

  useEffect(() => {
    if (!engine || text.trim() === '') {
      setState(none);
      return;
    }
    let live = true;
    setState((s) => (s.searching ? s : { ...s, searching: true }));
    const timer = setTimeout(() => {
      const asked = { text, area, platform, limit, context };
      engine.query(text, { area, platform, limit, context }).then(
        ({ results, total, suggestion }) => { if (live) setState({ answered: asked, results, total, suggestion, searching: false, error: null }); },
        (error: unknown) => { if (live) setState({ answered: asked, results: [], total: 0, suggestion: null, searching: false, error }); },
      );
    }, delay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [engine, text, area, platform, limit, context, delay, attempt]);

  return { ...state, retry };
}
