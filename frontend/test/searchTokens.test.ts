import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../src/search/engine';

interface Vectors {
  cases: Array<{ input: string; tokens: string[] }>;
}

// The vectors the index writer is tested against too (crates/docgen/src/search/tokens.rs): the
// words a query is split into must be the words the index holds.
const vectors: Vectors = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../crates/docgen-cli/tests/vectors/search-tokens.json'), 'utf8'),
);

describe('tokenize (shared vectors)', () => {
  it('reads the shared vectors', () => {
    expect(vectors.cases.length).toBeGreaterThan(30);
  });

  it.each(vectors.cases.map((c) => [c.input, c.tokens] as const))('%j → %j', (input, tokens) => {
    expect(tokenize(input)).toEqual(tokens);
  });
});
