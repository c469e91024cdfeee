import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnchorRule } from '../src/types';
import { anchorId } from '../src/ui/Heading';

interface Vectors {
  cases: Array<{ input: string; rule: AnchorRule; expected: string }>;
}

// The vectors docgen's Rust side is tested against too (crates/docgen/src/markdown/anchors.rs).
const vectors: Vectors = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../crates/docgen-cli/tests/vectors/anchors.json'), 'utf8'),
);

describe('anchorId', () => {
  it('reads the shared vectors', () => {
    expect(vectors.cases.length).toBeGreaterThan(40);
  });

  it.each(vectors.cases.map((c) => [c.rule, c.input, c.expected] as const))('%s rule: %j → %j', (rule, input, expected) => {
    expect(anchorId(input, rule)).toBe(expected);
  });

  it('defaults to the literal rule', () => {
    expect(anchorId('format(source, options)')).toBe('format(source,-options)');
  });
});
