// What the dependency builder and the SKAdNetwork generator compute from the site's data: the
// networks of a platform, their Gradle and Podfile lines, and SKAdNetworkItems entries.

import { escapeHtml } from '../../../lib/html';

export type Native = 'android' | 'ios';

/** A catalogue entry of `type: adapter`, in the shape the islands use. */
export interface Network {
  /** Unique in the catalogue: the slug (else the name, else the display name). */
  key: string;
  displayName: string;
  /** Ad formats (`size`), in the catalogue's spelling: BANNER, MREC, INTER, … */
  formats: string[];
  bidding: boolean;
  /** The adapter's source was removed from the public repositories (the entry has a `status`). */
  removed: boolean;
  platforms: string[];
  /** Gradle lines (headerCode.android), Maven repositories (headerCode.androidRepository), pods (headerCode.ios). */
  android: string[];
  androidRepos: string[];
  ios: string[];
  skadnetworkSpec: string | null;
  order: number;
}

export interface SkadSpec {
  slug: string;
  displayName: string;
  core: boolean;
  ids: string[];
}

const PLUGIN_NATIVES: Native[] = ['android', 'ios'];

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The non-empty lines of a multi-line field, without trailing spaces. */
function lines(v: unknown): string[] {
  return typeof v === 'string' ? v.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '') : [];
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Each value once, in the order they first appear. */
export function unique<T>(values: Iterable<T>): T[] {
  return Array.from(new Set(values));
}

/** The native platforms whose adapters a page is about: its own, or for a plugin both (or the one of `data-native`). */
export function nativesFor(platform: string, native: string | null): Native[] {
  if (native === 'android' || native === 'ios') return [native];
  if (platform === 'android' || platform === 'ios') return [platform];
  return PLUGIN_NATIVES;
}

/** The adapters of the catalogue (the networks listed on the adapter pages), in the catalogue's shape-checked form. */
export function adapterNetworks(catalogue: unknown): Network[] {
  if (!Array.isArray(catalogue)) return [];
  const out: Network[] = [];
  for (const raw of catalogue) {
    const e = record(raw);
    if (e.type !== 'adapter' || e.inAdapterList === false) continue;
    const displayName = text(e.displayName) ?? text(e.name) ?? text(e.slug);
    if (!displayName) continue;
    const header = record(e.headerCode);
    out.push({
      key: text(e.slug) ?? text(e.name) ?? displayName,
      displayName,
      formats: strings(e.size),
      bidding: e.bidding === true,
      removed: text(e.status) !== null,
      platforms: strings(e.platform),
      android: lines(header.android),
      androidRepos: lines(header.androidRepository),
      ios: lines(header.ios),
      skadnetworkSpec: text(e.skadnetworkSpec),
      order: typeof e.order === 'number' ? e.order : Number.MAX_SAFE_INTEGER,
    });
  }
  return out;
}

/** The networks with an adapter for one of `natives`, in the catalogue's order (then by name). */
export function networksFor(all: readonly Network[], natives: readonly Native[]): Network[] {
  return all
    .filter((n) => n.platforms.some((p) => (natives as readonly string[]).includes(p)))
    .sort((a, b) => a.order - b.order || a.displayName.localeCompare(b.displayName, 'en', { sensitivity: 'base' }));
}

function block(name: string, body: readonly string[]): string {
  return `${name} {\n${body.map((l) => `    ${l.trim()}\n`).join('')}}\n`;
}

/**
 * The Gradle lines of the networks: their Maven repositories in a `repositories` block, then
 * their dependencies. Empty when none of them has an Android adapter.
 */
export function gradleSnippet(nets: readonly Network[]): string {
  const deps = unique(nets.flatMap((n) => n.android.map((l) => l.trim())));
  if (deps.length === 0) return '';
  const repos = unique(nets.filter((n) => n.android.length > 0).flatMap((n) => n.androidRepos.map((l) => l.trim())));
  return (repos.length > 0 ? `${block('repositories', repos)}\n` : '') + block('dependencies', deps);
}

/** The Podfile lines of the networks; empty when none of them has an iOS adapter. */
export function podfileSnippet(nets: readonly Network[]): string {
  return unique(nets.flatMap((n) => n.ios.map((l) => l.trim())))
    .map((l) => `${l}\n`)
    .join('');
}

/** The SKAdNetwork specs of the data, shape-checked. */
export function toSpecs(data: unknown): SkadSpec[] {
  if (!Array.isArray(data)) return [];
  const out: SkadSpec[] = [];
  for (const raw of data) {
    const s = record(raw);
    const slug = text(s.slug) ?? text(s.name);
    if (!slug) continue;
    out.push({ slug, displayName: text(s.displayName) ?? slug, core: s.core === true, ids: strings(s.skAdNetworkIds) });
  }
  return out;
}

function normalId(id: string): string {
  return id.trim().toLowerCase();
}

/** The core list plus the IDs of the specs whose slug is in `slugs`: each once, sorted. */
export function skadIds(specs: readonly SkadSpec[], slugs: Iterable<string>): string[] {
  const wanted = new Set(slugs);
  const ids = new Set<string>();
  for (const spec of specs) {
    if (!spec.core && !wanted.has(spec.slug)) continue;
    for (const id of spec.ids) if (id.trim() !== '') ids.add(normalId(id));
  }
  return Array.from(ids).sort();
}

/** How many IDs a spec adds to the core list. */
export function extraCount(spec: SkadSpec, core: SkadSpec | undefined): number {
  const inCore = new Set((core?.ids ?? []).map(normalId));
  return unique(spec.ids.map(normalId)).filter((id) => id !== '' && !inCore.has(id)).length;
}

// Highlighted HTML, with the token classes docgen's highlighter uses (styles/code.css).


/** Gradle or Podfile lines as HTML, quoted strings marked. */
export function highlightQuoted(code: string): string {
  return escapeHtml(code).replace(/'[^'\n]*'/g, (s) => `<span class="hl-s">${s}</span>`);
}

function tag(name: string, close = false): string {
  return `<span class="hl-p">&lt;${close ? '/' : ''}</span><span class="hl-g">${name}</span><span class="hl-p">&gt;</span>`;
}

/**
 * Where the SKAdNetworkItems entries go on a platform: the highlighted lines before the entries
 * (up to `<array>`), those after them (from `</array>`), and the indentation of an entry.
 */
export interface PlistFrame {
  before: string[];
  after: string[];
  indent: string;
}

export const plainFrame: PlistFrame = {
  before: [`${tag('key')}SKAdNetworkItems${tag('key', true)}`, tag('array')],
  after: [tag('array', true), ''],
  indent: '    ',
};

/** The SKAdNetworkItems snippet of `ids` as highlighted HTML, inside `frame`. */
export function plistHtml(ids: readonly string[], frame: PlistFrame = plainFrame): string {
  const i = frame.indent;
  const items = ids
    .map(
      (id) =>
        `${i}${tag('dict')}\n${i}    ${tag('key')}SKAdNetworkIdentifier${tag('key', true)}\n${i}    ${tag('string')}${escapeHtml(id)}${tag('string', true)}\n${i}${tag('dict', true)}\n`,
    )
    .join('');
  return `${frame.before.join('\n')}\n${items}${frame.after.join('\n')}`;
}

/**
 * The frame of a pre-rendered SKAdNetwork snippet (its `<code>` element): the platform's own
 * wrapper around the entries (config.xml, an app descriptor, …). The plain Info.plist frame
 * when the snippet has no `<array>` … `</array>`.
 */
export function readPlistFrame(code: Element | null): PlistFrame {
  if (!code) return plainFrame;
  const textLines = code.textContent.split('\n');
  const open = textLines.findIndex((l) => l.trim() === '<array>');
  let close = -1;
  for (let i = textLines.length - 1; i > open; i--) {
    if (textLines[i].trim() === '</array>') {
      close = i;
      break;
    }
  }
  if (open < 0 || close < 0) return plainFrame;
  // The highlighted lines when each of them stands alone (no token spans a line break); else plain.
  const htmlLines = code.innerHTML.split('\n');
  const probe = code.ownerDocument.createElement('div');
  const ownLines =
    htmlLines.length === textLines.length &&
    htmlLines.every((h, i) => {
      probe.innerHTML = h;
      return probe.textContent === textLines[i] && probe.innerHTML === h;
    });
  const source = ownLines ? htmlLines : textLines.map(escapeHtml);
  return {
    before: source.slice(0, open + 1),
    after: source.slice(close),
    indent: `${/^\s*/.exec(textLines[open])?.[0] ?? ''}    `,
  };
}
