import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { strings, t } from '../src/i18n';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) && e.name !== 'i18n.ts' ? [readFileSync(path.join(dir, e.name), 'utf8')] : [],
  );
}

// The page templates read the same table (templates/strings.json) as `t["id"]`.
const templatesDir = path.join(__dirname, '../../templates');
const templates = readdirSync(templatesDir)
  .filter((name) => name.endsWith('.html'))
  .map((name) => readFileSync(path.join(templatesDir, name), 'utf8'))
  .join('\n');

describe('UI strings', () => {
  it('fills in named values', () => {
    expect(t('table.range', { from: 1, to: 50, total: 120 })).toBe('1–50 of 120');
    expect(t('anchor.label', { text: 'Setup' })).toBe('Link to this section: Setup');
    expect(t('deps.selected', { count: 2, total: 27 })).toBe('2 of 27 networks selected');
    expect(t('changelog.shown', { shown: 0 })).toBe('0 of {total} releases');
  });

  it('has no string that nothing shows', () => {
    const code = sources(path.join(__dirname, '../src')).join('\n');
    const unused = Object.keys(strings).filter((id) => !code.includes(`'${id}'`) && !templates.includes(`t["${id}"]`));
    expect(unused).toEqual([]);
  });

  it('has every string the app and the templates ask for', () => {
    const code = sources(path.join(__dirname, '../src')).join('\n');
    const used = [
      ...Array.from(code.matchAll(/\bt\(\s*'([^']+)'/g), (m) => m[1]),
      ...Array.from(templates.matchAll(/\bt\["([^"]+)"\]/g), (m) => m[1]),
    ];
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((id) => !(id in strings))).toEqual([]);
  });
});
