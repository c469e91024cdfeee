// The search index the engine's and the search box's tests query: written by `docgen build` of
// the fixture site crates/docgen-cli/tests/fixtures/search-engine (the binary from $DOCGEN_BIN or
// target/release/docgen), so the tests read the writer's own format, scores and excerpts.
//
// The fixture is small enough for one shard and one excerpt file; `resplit` cuts the writer's
// files at other places (the format allows any cut), to test what a query fetches when there
// are many.

import { vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SearchIndex } from '../src/search/engine';
import { buildSite } from './search/realIndex';

export const SEARCH_INDEX = '/_docgen/search/index.json';
const folder = '/_docgen/search/';
const site = path.resolve(__dirname, '../../crates/docgen-cli/tests/fixtures/search-engine');

/** The index's files by URL, as the build wrote them. */
export type IndexFiles = Map<string, string>;

let built: IndexFiles | null = null;

/** The fixture site's search files (built once per test process), a fresh copy each call. */
export function fixtureFiles(): IndexFiles {
  if (!built) {
    const out = mkdtempSync(path.join(tmpdir(), 'docgen-search-fixture-'));
    try {
      buildSite(site, out);
      built = new Map();
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const full = path.join(dir, name);
          if (statSync(full).isDirectory()) walk(full);
          else built?.set(`/${path.relative(out, full).split(path.sep).join('/')}`, readFileSync(full, 'utf8'));
        }
      };
      walk(path.join(out, '_docgen/search'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return new Map(built);
}

export function indexOf(files: IndexFiles): SearchIndex {
  return JSON.parse(files.get(SEARCH_INDEX) ?? 'null') as SearchIndex;
}

type Record = [string, string[], string, Array<[string, string, string]>];

/** Every doc's record, in doc order, from the excerpt files. */
export function records(files: IndexFiles): Record[] {
  const idx = indexOf(files);
  return idx.excerpts.sizes.flatMap((_, n) => JSON.parse(files.get(excerptUrl(idx, n)) ?? '[]') as Record[]);
}

/** The doc number of the page at `url` (its address ends so). */
export function docOf(files: IndexFiles, url: string): number {
  const doc = records(files).findIndex((r) => r[0].endsWith(url));
  if (doc < 0) throw new Error(`no doc ${url}`);
  return doc;
}

export function excerptUrl(idx: SearchIndex, n: number): string {
  return `${folder}x/${String(n)}.${idx.excerpts.digest}.json`;
}

/**
 * The same index cut into shards starting at `shardsAt` (after the first term) and excerpt
 * files of `perFile` docs: the writer's postings and records, other file boundaries.
 */
export function resplit(files: IndexFiles, shardsAt: string[], perFile: number): IndexFiles {
  const idx = indexOf(files);
  const terms = new Map<string, unknown>();
  for (const [, file] of idx.shards) {
    const { t } = JSON.parse(files.get(folder + file) ?? '{}') as { t: { [term: string]: unknown } };
    for (const [term, list] of Object.entries(t)) terms.set(term, list);
  }
  const all = records(files);
  const out: IndexFiles = new Map([...files].filter(([url]) => !url.startsWith(`${folder}s/`) && !url.startsWith(`${folder}x/`)));
  const sorted = [...terms.keys()].sort();
  const firsts = [sorted[0], ...shardsAt];
  const shards: Array<[string, string]> = firsts.map((first, i) => {
    const inShard = sorted.filter((term) => term >= first && (i + 1 === firsts.length || term < firsts[i + 1]));
    const name = `s/${String(i)}.cut${String(i)}.json`;
    out.set(folder + name, JSON.stringify({ t: Object.fromEntries(inShard.map((term) => [term, terms.get(term)])) }));
    return [first, name];
  });
  const excerpts = { digest: 'c0ffee', sizes: [] as number[] };
  for (let first = 0; first < all.length; first += perFile) {
    const part = all.slice(first, first + perFile);
    out.set(excerptUrl({ ...idx, excerpts }, excerpts.sizes.length), JSON.stringify(part));
    excerpts.sizes.push(part.length);
  }
  out.set(SEARCH_INDEX, JSON.stringify({ ...idx, shards, excerpts }));
  return out;
}

/** The URL of the shard whose first term is `first`. */
export function shardUrl(files: IndexFiles, first: string): string {
  const shard = indexOf(files).shards.find(([f]) => f === first);
  if (!shard) throw new Error(`no shard ${first}`);
  return folder + shard[1];
}

/** The URL of the excerpt file holding the page at `url`. */
export function excerptUrlOf(files: IndexFiles, url: string): string {
  const idx = indexOf(files);
  let doc = docOf(files, url);
  let n = 0;
  while (doc >= idx.excerpts.sizes[n]) doc -= idx.excerpts.sizes[n++];
  return excerptUrl(idx, n);
}

/** A fetch that serves `files` (404 for anything else), recording every URL asked for. */
export function fakeFetch(files: IndexFiles) {
  return vi.fn((url: string) => {
    const body = files.get(url);
    return Promise.resolve(body === undefined ? new Response('not found', { status: 404 }) : new Response(body, { status: 200 }));
  });
}
