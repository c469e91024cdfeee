// The search engine is a bundle of its own: the app loads it by URL on first use and never
// imports it otherwise.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadSearch } from '../src/search/load';
import { fakeFetch, fixtureFiles, SEARCH_INDEX } from './searchFixtures';

const src = path.resolve(__dirname, '../src');
const engineFile = path.join(src, 'search/engine.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('loadSearch', () => {
  it('imports the engine module from its URL once and creates the search for the index', async () => {
    vi.stubGlobal('fetch', fakeFetch(fixtureFiles()));
    try {
      const site = { index: SEARCH_INDEX, script: engineFile };
      const search = await loadSearch(site);
      expect(await loadSearch(site)).toBe(search);
      expect((await search.filters()).areas).toContain('Demand Partners');
      expect(fetch).toHaveBeenCalledWith(SEARCH_INDEX);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('fails for a module that is not the engine, and tries again on the next call', async () => {
    const site = { index: SEARCH_INDEX, script: path.join(src, 'lib/cx.ts') };
    await expect(loadSearch(site)).rejects.toThrow('is not the search engine');
    await expect(loadSearch(site)).rejects.toThrow('is not the search engine');
  });
});

describe('the app bundle', () => {
  it('takes only types from the engine, so the engine stays out of app.js', () => {
    const importers = sources(src)
      .filter((f) => f !== engineFile)
      .filter((f) => /^\s*import\s+(?!type\s)[^;]*from\s+'[./]*(search\/)?engine'/m.test(readFileSync(f, 'utf8')));
    expect(importers.map((f) => path.relative(src, f))).toEqual([]);
  });
});
