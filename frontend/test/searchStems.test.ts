import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { distance, editsAllowed, stem } from '../src/search/engine';

interface Vectors {
  cases: Array<{ word: string; stem: string }>;
}

// The vectors the index writer is tested against too (crates/docgen/src/search/stem.rs): the
// writer keeps a stem's words in one shard, the engine matches a query word to them.
const vectors: Vectors = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../crates/docgen-cli/tests/vectors/search-stems.json'), 'utf8'),
);

describe('stem (shared vectors)', () => {
  it('reads the shared vectors', () => {
    expect(vectors.cases.length).toBeGreaterThan(30);
  });

  it.each(vectors.cases.map((c) => [c.word, c.stem] as const))('%j → %j', (word, s) => {
    expect(stem(word)).toBe(s);
  });
});

describe('typos', () => {
  it('allows one edit from 5 letters and two from 9', () => {
    expect([editsAllowed('ads'), editsAllowed('crid'), editsAllowed('nurls'), editsAllowed('interstitial')]).toEqual([0, 0, 1, 2]);
  });

  it('counts a swap of neighbours as one edit and stops past the limit', () => {
    expect(distance('intersitial', 'interstitial', 2)).toBe(1);
    expect(distance('banenr', 'banner', 1)).toBe(1);
    expect(distance('rewadred', 'rewarded', 1)).toBe(1);
    expect(distance('banner', 'native', 2)).toBe(3);
  });
});
