import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { strings as extensionStrings } from '../src/extensions/adplatform/i18n';
import { strings, t } from '../src/i18n';

// The app's code; a site extension's islands (src/extensions/NAME) use their own table.
const src = path.join(__dirname, '../src');
const extensionsDir = path.join(src, 'extensions');
function sources(dir: string, skip = extensionsDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (path.join(dir, e.name) === skip ? [] : sources(path.join(dir, e.name), skip)) : /\.tsx?$/.test(e.name) && e.name !== 'i18n.ts' ? [readFileSync(path.join(dir, e.name), 'utf8')] : [],
  );
}

// The page templates read the same table (templates/strings.json) as `t["id"]`.
const templatesDir = path.join(__dirname, '../../templates');
const templates = readdirSync(templatesDir)
  .filter((name) => name.endsWith('.html'))
  .map((name) => readFileSync(path.join(templatesDir, name), 'utf8'))
  .join('\n');

// The notices a page shows of its language are filled in by the view (`t("id")` in Rust).
const viewDir = path.join(__dirname, '../../crates/docgen/src/view');
const view = readdirSync(viewDir)
  .filter((name) => name.endsWith('.rs'))
  .map((name) => readFileSync(path.join(viewDir, name), 'utf8'))
  .join('\n');

describe('UI strings', () => {
  it('fills in named values', () => {
    expect(t('table.range', { from: 1, to: 50, total: 120 })).toBe('1–50 of 120');
    expect(t('anchor.label', { text: 'Setup' })).toBe('Link to this section: Setup');
    expect(t('deps.selected', { count: 2, total: 27 })).toBe('2 of 27 networks selected');
    expect(t('changelog.shown', { shown: 0 })).toBe('0 of {total} releases');
  });

  it('has no string that nothing shows', () => {
    const code = sources(src).join('\n');
    const unused = Object.keys(strings).filter((id) => !code.includes(`'${id}'`) && !templates.includes(`t["${id}"]`) && !view.includes(`t("${id}")`));
    expect(unused).toEqual([]);
  });

  it('has every string the app and the templates ask for', () => {
    const code = sources(src).join('\n');
    const used = [
      ...Array.from(code.matchAll(/\bt\(\s*'([^']+)'/g), (m) => m[1]),
      ...Array.from(templates.matchAll(/\bt\["([^"]+)"\]/g), (m) => m[1]),
    ];
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((id) => !(id in strings))).toEqual([]);
  });

  it('keeps the extension islands\' strings in their own table, each used', () => {
    const code = sources(path.join(extensionsDir, 'adplatform'), '').join('\n');
    const used = Array.from(code.matchAll(/\bt\(\s*'([^']+)'/g), (m) => m[1]);
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((id) => !(id in extensionStrings))).toEqual([]);
    expect(Object.keys(extensionStrings).filter((id) => !code.includes(`'${id}'`))).toEqual([]);
    expect(Object.keys(extensionStrings).filter((id) => id in strings)).toEqual([]);
  });
});
