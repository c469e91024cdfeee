import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { islandStrings, ts } from '../src/blocks/islandStrings';

describe('island strings', () => {
  it('fills in named values', () => {
    expect(ts('deps.selected', { count: 2, total: 27 })).toBe('2 of 27 networks selected');
    expect(ts('changelog.shown', { shown: 0 })).toBe('0 of {total} releases');
  });

  it('has no string that nothing shows', () => {
    const dir = path.join(__dirname, '../src/blocks');
    const code = readdirSync(dir)
      .filter((f) => /\.tsx?$/.test(f) && f !== 'islandStrings.ts')
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    expect(Object.keys(islandStrings).filter((id) => !code.includes(`'${id}'`))).toEqual([]);
  });
});
