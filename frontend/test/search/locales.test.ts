// Search per locale over the locales fixture (crates/docgen-cli/tests/fixtures/locales): each
// locale's index under its prefix holds its own pages, and a Chinese query, split into the pairs
// of characters the index holds, finds the Chinese page first.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearch } from '../../src/search/engine';
import { buildSite, fileFetch } from './realIndex';

const fixture = path.resolve(__dirname, '../../../crates/docgen-cli/tests/fixtures/locales');
let out: string;

beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'docgen-locales-'));
  buildSite(fixture, out);
}, 60_000);
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

async function urls(index: string, query: string): Promise<string[]> {
  const { results } = await createSearch(index, fileFetch(out).fetchImpl).query(query, { limit: 10 });
  return results.map((r) => r.url);
}

describe('search per locale', () => {
  it('ranks the Chinese page first for a Chinese query', async () => {
    // 初始化 is a heading and text of the Chinese setup page only.
    expect((await urls('/zh/_docgen/search/index.json', '初始化 '))[0]).toBe('/zh/docs/guide/setup');
    // Two words, no space between them, one of them in the middle of a sentence.
    expect((await urls('/zh/_docgen/search/index.json', 'SDK密钥 '))[0]).toBe('/zh/docs/guide/setup');
    // Typed, not finished: one character finds the pairs it starts.
    expect(await urls('/zh/_docgen/search/index.json', '密')).toEqual(['/zh/docs/guide/setup']);
  });

  it('keeps each locale to its own pages', async () => {
    // The default's index has no Chinese page, and the Chinese index no page of the default's.
    expect(await urls('/_docgen/search/index.json', '初始化 ')).toEqual([]);
    const zh = await urls('/zh/_docgen/search/index.json', 'banner ');
    expect(zh.length).toBeGreaterThan(0);
    expect(zh.every((u) => u.startsWith('/zh/'))).toBe(true);
    // An untranslated page is found in the locale's index, at its address in the locale.
    expect(await urls('/zh/_docgen/search/index.json', 'rewarded ')).toEqual(['/zh/docs/guide/rewarded']);
    expect(await urls('/ar/_docgen/search/index.json', 'بمكافأة ')).toEqual(['/ar/docs/guide/rewarded']);
  });
});
