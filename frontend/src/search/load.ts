// Loads the search engine (search.js, a bundle of its own) when the reader first uses the search
// box, so that it costs nothing on a page load. Only its types are imported here.

import type { SiteSearch } from '../types';
import type { Search, createSearch } from './engine';

interface EngineModule {
  createSearch: typeof createSearch;
}

const engines = new Map<string, Promise<Search>>();

/** The engine for a site's index, loaded once; a failed load is tried again on the next call. */
export function loadSearch({ index, script }: SiteSearch): Promise<Search> {
  const key = `${script}\n${index}`;
  let engine = engines.get(key);
  if (!engine) {
    engine = import(/* @vite-ignore */ script).then((mod: Partial<EngineModule>) => {
      if (typeof mod.createSearch !== 'function') throw new Error(`${script} is not the search engine`);
      return mod.createSearch(index);
    });
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}
