// The search engine: reads the index docgen writes under `_docgen/search/` (format version 2)
// and answers queries in the browser. It is bundled on its own (search.js) and loaded only when
// the reader first uses the search box, so it imports nothing from the app but types.
//
// index.json lists the shards of the term dictionary by their first term, the doc lists (the
// pages' addresses, 64 to a file) and the area/platform of every doc; a query loads only the
// shards holding its terms, then the doc lists and the pages of the results it shows. Every file
// is fetched at most once. A term's postings give each page holding it and its weight there;
// the title, breadcrumb and the sections that match are read from the page's own HTML, the file
// the app fetches anyway when the reader follows the result.

import type { PageView } from '../types';

/** `_docgen/search/index.json`. */
export interface SearchIndex {
  version: 2;
  docs: number;
  /** [first term, file relative to the index's folder], sorted by first term. */
  shards: Array<[string, string]>;
  /** Docs per doc list, and the names of the lists (`d/<name>.json`), in doc order. */
  chunk: number;
  chunks: string[];
  areas: string[];
  /** Run-length: [count, index into areas]. */
  area: Array<[number, number]>;
  platforms: string[];
  /** Run-length: [count, index into platforms or -1]. */
  platform: Array<[number, number]>;
}

/** A piece of an excerpt; `mark` pieces are the matched words. */
export interface Segment {
  text: string;
  mark: boolean;
}

/** A section of a page that matched: a link to its heading. */
export interface SubResult {
  url: string;
  anchor: string;
  heading: string;
  excerpt: Segment[];
}

export interface Result {
  doc: number;
  url: string;
  title: string;
  /** Labels of the pages above this one. */
  breadcrumb: string[];
  area: string | null;
  platform: string | null;
  excerpt: Segment[];
  /** The anchor of the section the excerpt comes from ("" for the text before the first heading). */
  excerptAnchor: string;
  /** The matching sections under headings, best first, at most three. */
  sections: SubResult[];
  score: number;
}

export interface QueryOptions {
  /** Only pages of this area (a name from `filters().areas`). */
  area?: string | null;
  /** Only pages of this platform (a name from `filters().platforms`). */
  platform?: string | null;
  /** How many pages to return; 8 by default. */
  limit?: number;
}

export interface Filters {
  areas: string[];
  platforms: string[];
}

export interface Search {
  query(text: string, options?: QueryOptions): Promise<Result[]>;
  /** The areas and platforms the index knows, for filters. Loads index.json. */
  filters(): Promise<Filters>;
}

export type Fetch = (url: string) => Promise<Response>;

/** A file of the index could not be loaded: `status` is the HTTP status, 0 for a network error. */
export class SearchError extends Error {
  readonly status: number;
  readonly url: string;
  constructor(url: string, status: number, detail?: string) {
    super(detail ?? `cannot load ${url}: ${status ? `HTTP ${status}` : 'network error'}`);
    this.name = 'SearchError';
    this.status = status;
    this.url = url;
  }
}

// ---------------------------------------------------------------------------------------------
// Terms. The same rules as the index writer (src/search/tokens.rs): a token is a maximal run of
// letters, digits and `_`; it is indexed whole, lower-cased, and, when it holds an upper-case
// letter, a `_` or a letter without case, by its parts too (split on `_`, then into camel-case
// runs); one character is too short unless it is a digit 0-9. Capitals then `s` (`IDs`) are one
// word only at the end of the whole token; lower-casing is of the whole word (a final `Σ` is `ς`).
// Both sides are tested against crates/docgen-cli/tests/vectors/search-tokens.json.

const TOKEN = /[\p{Alphabetic}\p{N}_]+/gu;
const TOKEN_CHAR = /[\p{Alphabetic}\p{N}_]$/u;
const DIGIT = /^[0-9]$/;
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const NUMERIC = /\p{N}/u;
/** A token that is only lower-case letters and digits has no parts. */
const NO_PARTS = /^[\p{Lowercase}\p{N}]*$/u;

function indexable(term: string): boolean {
  // Length in characters, not UTF-16 units: a letter outside the BMP is one character.
  let n = 0;
  for (const _ of term) if (++n > 1) return true;
  return n === 1 && DIGIT.test(term);
}

interface Part {
  term: string;
  start: number;
  end: number;
}

const enum Kind {
  Upper,
  Lower,
  Digit,
  Other,
}

function kindOf(c: string): Kind {
  if (UPPER.test(c)) return Kind.Upper;
  if (LOWER.test(c)) return Kind.Lower;
  if (NUMERIC.test(c)) return Kind.Digit;
  return Kind.Other;
}

/**
 * The parts of a token with their offsets in it: the `_`-separated pieces, each cut into runs
 * of an upper-case letter and lower-case ones (`Max`), of upper-case letters not followed by a
 * lower-case one (`RTB`; `IDs` at the end of the token is one word), of digits, or of other
 * letters.
 */
function partsOf(token: string): Part[] {
  const parts: Part[] = [];
  if (NO_PARTS.test(token)) return parts;
  let offset = 0;
  for (const piece of token.split('_')) {
    const chars = Array.from(piece);
    const kinds = chars.map(kindOf);
    // UTF-16 offsets of each character in the piece, and of its end.
    const at = [0];
    for (const c of chars) at.push(at[at.length - 1] + c.length);
    const n = chars.length;
    // Whether the piece ends the token (an `s` after capitals is read as a plural only there).
    const last = offset + piece.length === token.length;
    let start = 0;
    while (start < n) {
      const kind = kinds[start];
      let end = start + 1;
      if (kind === Kind.Upper && end < n && kinds[end] === Kind.Lower) {
        while (end < n && kinds[end] === Kind.Lower) end++;
      } else if (kind === Kind.Upper) {
        while (end < n && kinds[end] === Kind.Upper) end++;
        if (last && end + 1 === n && chars[end] === 's') end++;
        else if (end < n && kinds[end] === Kind.Lower && end - start > 1) end--;
      } else {
        while (end < n && kinds[end] === kind) end++;
      }
      const from = offset + at[start];
      const to = offset + at[end];
      parts.push({ term: token.slice(from, to).toLowerCase(), start: from, end: to });
      start = end;
    }
    offset += piece.length + 1;
  }
  return parts;
}

/** The terms the index holds for a text, in order: each token whole, then its parts. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const whole = m[0].toLowerCase();
    if (indexable(whole)) terms.push(whole);
    for (const p of partsOf(m[0])) if (p.term !== whole && indexable(p.term)) terms.push(p.term);
  }
  return terms;
}

/** The whole tokens of a query, lower-cased, each once, in order. */
export function queryTokens(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(TOKEN), (m) => m[0].toLowerCase()))];
}

// ---------------------------------------------------------------------------------------------
// Ranking constants.

/** BM25's term-frequency saturation. */
const K1 = 1.2;
/**
 * A term found by expanding the last token as a prefix counts for less than the word typed, and
 * less the more it adds: `interst` finds `interstitial` before `interstitialadapterdelegate`.
 */
const PREFIX_FACTOR = 0.8;
/** What a query token found in a section's heading adds to the section's rank (one in its text adds 1). */
const HEADING_MATCH = 0.5;
const MAX_PREFIX_SHARDS = 3;
const MAX_PREFIX_TERMS = 30;
const DEFAULT_LIMIT = 8;
const MAX_SUB_RESULTS = 3;
const EXCERPT_CHARS = 160;
/** Characters shown before the first matched word of an excerpt. */
const EXCERPT_LEAD = 40;

// ---------------------------------------------------------------------------------------------
// Reading the files.

/** What a result shows of its page: address, title, breadcrumb labels, sections [anchor, heading, text]. */
interface Fragment {
  u: string;
  t: string;
  b: string[];
  s: Array<[string, string, string]>;
}

interface ShardTerms {
  postings: Map<string, number[]>;
  /** The shard's terms in JS string order, for prefix lookups. */
  sorted: string[];
}

const isArray = Array.isArray;
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isRuns = (v: unknown): v is Array<[number, number]> =>
  isArray(v) && v.every((r) => isArray(r) && r.length === 2 && isCount(r[0]) && Number.isInteger(r[1]));

function readIndex(url: string, body: unknown): SearchIndex {
  const bad = (what: string) => new SearchError(url, 200, `${url}: ${what}`);
  if (typeof body !== 'object' || body === null) throw bad('not a search index');
  const b = body as Record<string, unknown>;
  if (b.version !== 2) throw bad(`unsupported version ${String(b.version)}`);
  const platforms = b.platforms ?? [];
  const platform = b.platform ?? [];
  if (
    !isCount(b.docs) ||
    !isArray(b.shards) ||
    !b.shards.every((s) => isArray(s) && s.length === 2 && isString(s[0]) && isString(s[1])) ||
    !isCount(b.chunk) ||
    b.chunk === 0 ||
    !isArray(b.chunks) ||
    !b.chunks.every(isString) ||
    !isArray(b.areas) ||
    !b.areas.every(isString) ||
    !isRuns(b.area) ||
    !isArray(platforms) ||
    !platforms.every(isString) ||
    !isRuns(platform)
  ) {
    throw bad('not a search index');
  }
  return { ...(b as unknown as SearchIndex), platforms, platform };
}

function readShard(url: string, body: unknown): ShardTerms {
  const t = typeof body === 'object' && body !== null ? (body as { t?: unknown }).t : undefined;
  if (typeof t !== 'object' || t === null) throw new SearchError(url, 200, `${url}: not a search shard`);
  // A Map, so that terms such as "constructor" never meet Object.prototype.
  const postings = new Map<string, number[]>();
  for (const [term, list] of Object.entries(t as Record<string, unknown>)) if (isArray(list)) postings.set(term, list as number[]);
  return { postings, sorted: [...postings.keys()].sort() };
}

function readDocList(url: string, body: unknown): string[] {
  if (!isArray(body) || !body.every(isString)) throw new SearchError(url, 200, `${url}: not a doc list`);
  return body;
}

/** Elements whose text is not read: as the index writer (`src/search/text.rs`) reads a page. */
const SKIPPED = new Set(['script', 'style', 'template', 'svg', 'h1']);
/** Elements that separate words: blocks, and the buttons of code tabs. */
const SEPARATES = new Set(
  'p div li ul ol br tr td th table caption pre blockquote dd dt dl h2 h3 h4 h5 h6 figure figcaption section aside details summary hr button'.split(' '),
);

/** The sections of a page's article: the text before the first h2/h3, then one per h2/h3. */
export function articleSections(article: Element): Array<[string, string, string]> {
  const sections: Array<[string, string, string]> = [['', '', '']];
  let inHeading = false;
  const push = (text: string) => {
    const s = sections[sections.length - 1];
    if (inHeading) s[1] += text;
    else s[2] += text;
  };
  const walk = (parent: Node) => {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) push(node.nodeValue ?? '');
      if (node.nodeType !== 1) continue;
      const el = node as Element;
      const name = el.localName;
      // The heading links, and the page's own footer (edit link, dates, previous and next).
      if (SKIPPED.has(name) || el.classList.contains('dg-anchor') || el.classList.contains('dg-page-footer')) continue;
      if (name === 'h2' || name === 'h3') {
        sections.push([el.id, '', '']);
        inHeading = true;
        walk(el);
        inHeading = false;
        continue;
      }
      const separates = SEPARATES.has(name);
      if (separates) push(' ');
      walk(el);
      if (separates) push(' ');
    }
  };
  walk(article);
  const collapse = (t: string) => t.replace(/\s+/g, ' ').trim();
  const out = sections.map(([a, h, t]): [string, string, string] => [a, collapse(h), collapse(t)]);
  // The text before the first heading is kept only when there is some.
  return out[0][2] === '' ? out.slice(1) : out;
}

/** A result's page, read from its HTML: the page data and the article (`u` is set by the caller). */
function readPage(url: string, html: string): Fragment {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let data: Partial<PageView> | null = null;
  try {
    data = JSON.parse(doc.getElementById('dg-page-data')?.textContent ?? 'null') as Partial<PageView> | null;
  } catch {
    data = null;
  }
  const article = doc.querySelector('.dg-article') ?? doc.querySelector('main');
  if (!data || !isString(data.title) || !article) throw new SearchError(url, 200, `${url}: not a page`);
  const route = data.route;
  return {
    u: '',
    t: data.title,
    b: (data.breadcrumbs ?? []).filter((c) => c.url !== route).map((c) => c.displayName),
    s: articleSections(article),
  };
}

/** Per doc, the value of a run-length table: ends[i] is one past the last doc of run i. */
class Runs {
  private readonly ends: number[] = [];
  private readonly values: number[] = [];
  constructor(runs: Array<[number, number]>) {
    let end = 0;
    for (const [count, value] of runs) {
      end += count;
      this.ends.push(end);
      this.values.push(value);
    }
  }
  at(doc: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid] > doc) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.values.length ? this.values[lo] : -1;
  }
}

/** The shard that holds `term`: the last one whose first term is not after it; -1 if none. */
function shardOf(shards: ReadonlyArray<[string, string]>, term: string): number {
  let lo = 0;
  let hi = shards.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (shards[mid][0] <= term) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The shards that may hold terms starting with `prefix`, at most MAX_PREFIX_SHARDS. */
function shardsOfPrefix(shards: ReadonlyArray<[string, string]>, prefix: string): number[] {
  if (shards.length === 0) return [];
  // A prefix before the first shard's first term can still begin terms of the first shard.
  const first = Math.max(0, shardOf(shards, prefix));
  const out = [first];
  for (let i = first + 1; i < shards.length && out.length < MAX_PREFIX_SHARDS && shards[i][0].startsWith(prefix); i++) out.push(i);
  return out;
}

/** The terms of a shard that start with `prefix`, by binary search in its sorted terms. */
function termsWithPrefix(shard: ShardTerms, prefix: string): string[] {
  const { sorted } = shard;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) out.push(sorted[i]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scoring.

/** What one query token contributes to each doc that holds it. */
type TokenHits = Map<number, number>;

interface TermPlan {
  term: string;
  /** `[df, doc delta, weight, doc delta, weight, ...]`. */
  postings: number[];
  factor: number;
}

/** BM25's saturation of a term's (boosted) weight in a doc; there is no length normalisation. */
function saturate(tf: number): number {
  return (tf * (K1 + 1)) / (tf + K1);
}

function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * The idf of a query token. For a prefix, that of its most common term: the completions of a
 * prefix stand for one word being typed, and a rare completion must not outrank the common one.
 */
function tokenIdf(terms: readonly TermPlan[], docs: number): number {
  return idf(Math.max(0, ...terms.map((t) => t.postings[0] ?? 0)), docs);
}

/** Adds one term's postings (doc, weight pairs) to a token's hits, keeping its best term per doc. */
function addTerm(hits: TokenHits, { postings, factor }: TermPlan, idfWeight: number): void {
  let doc = 0;
  for (let i = 1; i + 1 < postings.length; i += 2) {
    doc += postings[i];
    const score = factor * idfWeight * saturate(postings[i + 1]);
    if (score > (hits.get(doc) ?? 0)) hits.set(doc, score);
  }
}

interface Ranked {
  doc: number;
  score: number;
}

/** Scores the docs matched by `tokens` (the hits of each query token) among `candidates`. */
function rank(tokens: readonly TokenHits[], candidates: Iterable<number>): Ranked[] {
  const out: Ranked[] = [];
  for (const doc of candidates) {
    let score = 0;
    for (const hits of tokens) score += hits.get(doc) ?? 0;
    out.push({ doc, score });
  }
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

// ---------------------------------------------------------------------------------------------
// Matching sections. The postings say which pages hold a word, not where: the sections of a
// result that match are found in its fragment, by the same rules as the index.

/** The query tokens (by their index in `tokens`) that occur among the terms of `text`. */
function tokensIn(text: string, tokens: readonly string[], prefixAt: number): Set<number> {
  const found = new Set<number>();
  if (!text) return found;
  const terms = new Set(tokenize(text));
  tokens.forEach((token, i) => {
    if (terms.has(token) || (i === prefixAt && [...terms].some((term) => term.startsWith(token)))) found.add(i);
  });
  return found;
}

interface SectionMatch {
  /** Index in the fragment's sections. */
  at: number;
  score: number;
  /** Whether a query token occurs in the section's text (not only in its heading). */
  inText: boolean;
}

/**
 * The sections of a fragment that hold query tokens, best first: by the distinct query tokens
 * they hold, one in the heading counting HEADING_MATCH more; ties in page order. The text
 * before the first heading (anchor "") has the page's title for its heading.
 */
function matchingSections(f: Fragment, tokens: readonly string[], prefixAt: number): SectionMatch[] {
  const out: SectionMatch[] = [];
  f.s.forEach(([anchor, heading, text], at) => {
    const inHeading = tokensIn(heading || (anchor === '' ? f.t : ''), tokens, prefixAt);
    const inText = tokensIn(text, tokens, prefixAt);
    const all = new Set([...inHeading, ...inText]);
    if (all.size > 0) out.push({ at, score: all.size + HEADING_MATCH * inHeading.size, inText: inText.size > 0 });
  });
  return out.sort((a, b) => b.score - a.score || a.at - b.at);
}

// ---------------------------------------------------------------------------------------------
// Excerpts.

type Matcher = (term: string) => boolean;

interface Mark {
  start: number;
  end: number;
  term: string;
}

/** The matched words of a text: whole tokens, or the parts of a token that match. */
function marksIn(text: string, matches: Matcher): Mark[] {
  const marks: Mark[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index;
    const whole = m[0].toLowerCase();
    if (matches(whole)) {
      marks.push({ start: at, end: at + m[0].length, term: whole });
      continue;
    }
    const parts = partsOf(m[0]).filter((p) => indexable(p.term));
    const hits = parts.filter((p) => matches(p.term));
    if (hits.length === 0) continue;
    // Every part matched (`auction price` in AUCTION_PRICE): the token reads as one mark.
    if (hits.length === parts.length) {
      marks.push({ start: at, end: at + m[0].length, term: whole });
      continue;
    }
    for (const p of hits) {
      const last = marks.at(-1);
      // Neighbouring parts (`Max` and `Interstitial`) read as one mark.
      if (last && last.end === at + p.start) last.end = at + p.end;
      else marks.push({ start: at + p.start, end: at + p.end, term: p.term });
    }
  }
  return marks;
}

/**
 * A window of about EXCERPT_CHARS characters of `text` around its matched words: the window
 * with the most different matched words, cut at spaces, with "…" where text was left out.
 */
export function excerpt(text: string, matches: Matcher, size = EXCERPT_CHARS): Segment[] {
  const marks = marksIn(text, matches);
  let start = 0;
  if (marks.length > 0 && text.length > size) {
    let best = -1;
    let bestKey: [number, number] = [-1, -1];
    for (const m of marks) {
      const from = Math.max(0, Math.min(m.start - EXCERPT_LEAD, text.length - size));
      const inside = marks.filter((x) => x.start >= from && x.end <= from + size);
      const key: [number, number] = [new Set(inside.map((x) => x.term)).size, inside.length];
      if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = from;
        bestKey = key;
      }
    }
    start = best;
  }
  let end = Math.min(text.length, start + size);
  // Cut at spaces, so that no word is shown in part.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    const firstMark = marks.find((m) => m.start >= start);
    if (space >= 0 && space < start + 20 && (!firstMark || space < firstMark.start)) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    const lastMark = [...marks].reverse().find((m) => m.end <= end);
    if (space > start && (!lastMark || space >= lastMark.end)) end = space;
  }

  const segments: Segment[] = [];
  const push = (s: string, mark: boolean) => {
    if (!s) return;
    const last = segments.at(-1);
    if (last && last.mark === mark) last.text += s;
    else segments.push({ text: s, mark });
  };
  if (start > 0) push('…', false);
  let at = start;
  for (const m of marks) {
    if (m.start < start || m.end > end) continue;
    push(text.slice(at, m.start), false);
    push(text.slice(m.start, m.end), true);
    at = m.end;
  }
  push(text.slice(at, end), false);
  if (end < text.length) push('…', false);
  return segments;
}

// ---------------------------------------------------------------------------------------------

export function createSearch(indexUrl: string, fetchImpl: Fetch = fetch): Search {
  const folder = indexUrl.slice(0, indexUrl.lastIndexOf('/') + 1);
  const files = new Map<string, Promise<unknown>>();

  /** Each file once; a failed load is forgotten so that the next query tries again. */
  function load<T>(url: string, read: (url: string, body: unknown) => T, as: 'json' | 'text' = 'json'): Promise<T> {
    let file = files.get(url) as Promise<T> | undefined;
    if (!file) {
      file = (async () => {
        let response: Response;
        try {
          response = await fetchImpl(url);
        } catch {
          throw new SearchError(url, 0);
        }
        if (!response.ok) {
          await response.text().catch(() => undefined);
          throw new SearchError(url, response.status);
        }
        if (as === 'text') return read(url, await response.text());
        let body: unknown;
        try {
          body = await response.json();
        } catch {
          throw new SearchError(url, response.status, `${url}: not JSON`);
        }
        return read(url, body);
      })();
      files.set(url, file);
      file.catch(() => files.delete(url));
    }
    return file;
  }

  let tables: { area: Runs; platform: Runs } | null = null;
  const index = () =>
    load(indexUrl, readIndex).then((idx) => {
      tables ??= { area: new Runs(idx.area), platform: new Runs(idx.platform) };
      return { idx, tables };
    });
  const shard = (idx: SearchIndex, i: number) => load(folder + idx.shards[i][1], readShard);
  /** The page of a doc: its address from the doc list, the rest from its HTML. */
  async function fragment(idx: SearchIndex, doc: number): Promise<Fragment> {
    const listUrl = `${folder}d/${idx.chunks[Math.floor(doc / idx.chunk)] ?? ''}.json`;
    const href = (await load(listUrl, readDocList))[doc % idx.chunk] as string | undefined;
    if (href === undefined) throw new SearchError(listUrl, 200, `${listUrl}: no doc ${doc}`);
    const file = `${href.replace(/\/$/, '')}/index.html`;
    const page = await load(file, (url, body) => readPage(url, body as string), 'text');
    return { ...page, u: href };
  }

  /** The terms a query token matches, with their postings: the word, and by prefix if asked. */
  async function termsOf(idx: SearchIndex, token: string, prefix: boolean): Promise<TermPlan[]> {
    if (!prefix) {
      const i = shardOf(idx.shards, token);
      if (i < 0) return [];
      const postings = (await shard(idx, i)).postings.get(token);
      return postings ? [{ term: token, postings, factor: 1 }] : [];
    }
    const loaded = await Promise.all(shardsOfPrefix(idx.shards, token).map((i) => shard(idx, i)));
    const found: TermPlan[] = [];
    for (const s of loaded) {
      for (const term of termsWithPrefix(s, token)) {
        const postings = s.postings.get(term);
        if (postings) found.push({ term, postings, factor: term === token ? 1 : (PREFIX_FACTOR * token.length) / term.length });
      }
    }
    // The word itself first, then the most frequent completions.
    found.sort((a, b) => Number(b.term === token) - Number(a.term === token) || (b.postings[0] ?? 0) - (a.postings[0] ?? 0) || (a.term < b.term ? -1 : 1));
    return found.slice(0, MAX_PREFIX_TERMS);
  }

  async function query(text: string, options: QueryOptions = {}): Promise<Result[]> {
    const { idx, tables: t } = await index();
    const limit = options.limit ?? DEFAULT_LIMIT;
    // The last word is still being typed unless the query ends after it.
    const typing = TOKEN_CHAR.test(text);
    const all = queryTokens(text);
    const tokens = all
      .map((token, i) => ({ token, prefix: typing && i === all.length - 1 }))
      .filter(({ token, prefix }) => prefix || indexable(token));
    if (tokens.length === 0 || limit <= 0) return [];

    const plans = await Promise.all(tokens.map(({ token, prefix }) => termsOf(idx, token, prefix)));
    const hits = plans.map((terms) => {
      const h: TokenHits = new Map();
      const weight = tokenIdf(terms, idx.docs);
      for (const term of terms) addTerm(h, term, weight);
      return h;
    });

    const area = options.area != null ? idx.areas.indexOf(options.area) : null;
    const platform = options.platform != null ? idx.platforms.indexOf(options.platform) : null;
    const kept = (doc: number) => (area === null || t.area.at(doc) === area) && (platform === null || t.platform.at(doc) === platform);

    // Every token must match; failing that, the pages matching the most tokens.
    const smallest = hits.reduce((a, b) => (b.size < a.size ? b : a));
    let candidates = [...smallest.keys()].filter((doc) => kept(doc) && hits.every((h) => h.has(doc)));
    if (candidates.length === 0 && hits.length > 1) {
      const counts = new Map<number, number>();
      for (const h of hits) for (const doc of h.keys()) if (kept(doc)) counts.set(doc, (counts.get(doc) ?? 0) + 1);
      const most = Math.max(0, ...counts.values());
      candidates = [...counts].filter(([, n]) => n === most).map(([doc]) => doc);
    }
    const top = rank(hits, candidates).slice(0, limit);

    const exact = new Set(tokens.filter((x) => !x.prefix).map((x) => x.token));
    const prefix = tokens.find((x) => x.prefix)?.token;
    const matches: Matcher = (term) => exact.has(term) || (prefix !== undefined && term.startsWith(prefix));

    const words = tokens.map((x) => x.token);
    const prefixAt = tokens.findIndex((x) => x.prefix);
    const fragments = await Promise.all(top.map((r) => fragment(idx, r.doc)));
    return top.map((r, i) => {
      const f = fragments[i];
      const matched = matchingSections(f, words, prefixAt);
      // The excerpt comes from the best section whose text holds a query word; failing that,
      // the best matching section with text, or the first section with text.
      const from =
        matched.find((m) => m.inText)?.at ?? matched.find((m) => f.s[m.at][2] !== '')?.at ?? Math.max(0, f.s.findIndex((s) => s[2] !== ''));
      const section = f.s.at(from);
      const sections: SubResult[] = [];
      for (const { at } of matched) {
        const [anchor, heading, text] = f.s[at];
        // The text before the first heading is the page itself, not a section to link to.
        if (anchor === '') continue;
        if (sections.length >= MAX_SUB_RESULTS) break;
        sections.push({ url: `${f.u}#${anchor}`, anchor, heading, excerpt: excerpt(text, matches) });
      }
      const areaIndex = t.area.at(r.doc);
      const platformIndex = t.platform.at(r.doc);
      return {
        doc: r.doc,
        url: f.u,
        title: f.t,
        breadcrumb: f.b.filter(isString),
        area: idx.areas[areaIndex] ?? null,
        platform: idx.platforms[platformIndex] ?? null,
        excerpt: excerpt(section?.[2] ?? '', matches),
        excerptAnchor: section?.[0] ?? '',
        sections,
        score: r.score,
      };
    });
  }

  return {
    query,
    filters: () => index().then(({ idx }) => ({ areas: [...idx.areas], platforms: [...idx.platforms] })),
  };
}
