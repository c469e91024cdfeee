// The search engine: reads the index docgen writes under `_docgen/search/` (format version 3)
// and answers queries in the browser. It is bundled on its own (search.js) and loaded only when
// the reader first uses the search box, so it imports nothing from the app.
//
// index.json lists the shards of the term dictionary by their first term, how many docs each
// excerpt file holds (they are named by their number and one digest), the area/platform of every
// doc and the site's synonyms. A query loads only the shards holding its words, then the excerpt
// files of the results it shows, at most NEW_EXCERPT_FILES new ones an answer (never the pages
// themselves). Every file is fetched at most once. A posting gives a doc, the term's BM25F score
// there (already normalised by field lengths; title and heading flags in its low bits) and the
// section the term counts most in; the excerpt files hold per doc its address, breadcrumb,
// title and, per section, its anchor, heading and the start of its text.

/** `_docgen/search/index.json`. */
export interface SearchIndex {
  version: 3;
  docs: number;
  /** [first term, file relative to the index's folder], sorted by first term. */
  shards: Array<[string, string]>;
  /** The excerpt files `x/<n>.<digest>.json`: file n holds the `sizes[n]` docs after those of the files before it. */
  excerpts: { digest: string; sizes: number[] };
  areas: string[];
  /** The address of each area's section. */
  areaHrefs: string[];
  /** Run-length: [count, index into areas]. */
  area: Array<[number, number]>;
  platforms: string[];
  platformHrefs: string[];
  /** Run-length: [count, index into platforms or -1]. */
  platform: Array<[number, number]>;
  /** Docs that are one page across platforms, in menu order. */
  twins: number[][];
  /** Groups of phrases a query may use for one another. */
  synonyms: string[][];
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
  /** Other matching sections under headings, best first, at most three. */
  sections: SubResult[];
  score: number;
}

export interface QueryOptions {
  /** Only pages of this area (a name from `filters().areas`). */
  area?: string | null;
  /** Only pages of this platform and pages of no platform (a name from `filters().platforms`). */
  platform?: string | null;
  /** How many results to return with their excerpts; 8 by default. */
  limit?: number;
  /** Where the reader is: pages of this platform and area rank higher. */
  context?: { area?: string | null; platform?: string | null };
}

export interface Answer {
  /** The best `limit` matches, best first (fewer when an excerpt file failed to load). */
  results: Result[];
  /** How many pages match. */
  total: number;
  /** The query as the engine read it when it corrected a word ("did you mean"); null otherwise. */
  suggestion: string | null;
}

export interface Filters {
  areas: string[];
  platforms: string[];
  /** The address of each area's and platform's section, to tell where the reader is. */
  areaHrefs: string[];
  platformHrefs: string[];
}

export interface Search {
  query(text: string, options?: QueryOptions): Promise<Answer>;
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
// Han, Hiragana, Katakana and Hangul letters end a token: each run of them gives its overlapping
// pairs of characters (a run of one, the character), since no space says where their words end.
// Both sides are tested against crates/docgen-cli/tests/vectors/search-tokens.json.

/** The ranges of `is_cjk` (crates/docgen/src/config/locales.rs), letters and digits only. */
const CJK_CHAR = String.raw`(?:(?=[\p{Alphabetic}\p{N}])[\u1100-\u11FF\u3005-\u3007\u3040-\u30FF\u3130-\u318F\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{3FFFF}])`;
/** A token, or a run of Han, kana or Hangul. */
const TOKEN = new RegExp(String.raw`(?:(?!${CJK_CHAR})[\p{Alphabetic}\p{N}_])+|${CJK_CHAR}+`, 'gu');
const CJK_RUN = new RegExp(`^${CJK_CHAR}`, 'u');
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
  return n === 1 && (DIGIT.test(term) || CJK_RUN.test(term));
}

/** The overlapping pairs of characters of a run of Han, kana or Hangul, with their offsets. */
function pairsOf(run: string): Part[] {
  const chars = Array.from(run);
  if (chars.length === 1) return [{ term: run, start: 0, end: run.length }];
  const pairs: Part[] = [];
  let at = 0;
  for (let i = 0; i + 1 < chars.length; i++) {
    const end = at + chars[i].length + chars[i + 1].length;
    pairs.push({ term: run.slice(at, end), start: at, end });
    at += chars[i].length;
  }
  return pairs;
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
    if (CJK_RUN.test(m[0])) {
      for (const p of pairsOf(m[0])) terms.push(p.term);
      continue;
    }
    const whole = m[0].toLowerCase();
    if (indexable(whole)) terms.push(whole);
    for (const p of partsOf(m[0])) if (p.term !== whole && indexable(p.term)) terms.push(p.term);
  }
  return terms;
}

/** The whole tokens of a query, lower-cased, and the pairs of its Han, kana and Hangul, each once, in order. */
export function queryTokens(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(TOKEN), (m) => (CJK_RUN.test(m[0]) ? pairsOf(m[0]).map((p) => p.term) : [m[0].toLowerCase()])).flat())];
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Stems, by the rules of the index writer (src/search/stem.rs): a plural, then -ing or -ed,
// then a final `e` are taken off, and a final `y` is written `i`. Only lower-case ASCII words.
// Both sides are tested against crates/docgen-cli/tests/vectors/search-stems.json.

const LOWER_ASCII = /^[a-z]+$/;

export function stem(word: string): string {
  if (word.length < 3 || !LOWER_ASCII.test(word)) return word;
  let s = word;
  if (s.length > 4 && s.endsWith('ies')) s = s.slice(0, -2);
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !(s.endsWith('ss') || s.endsWith('us') || s.endsWith('is'))) s = s.slice(0, -1);
  let suffix = false;
  if (s.length >= 7 && s.endsWith('ing')) {
    s = s.slice(0, -3);
    suffix = true;
  } else if (s.length >= 5 && s.endsWith('ied')) {
    s = s.slice(0, -2);
  } else if (s.length >= 5 && s.endsWith('ed')) {
    s = s.slice(0, -2);
    suffix = true;
  }
  if (suffix) {
    const n = s.length;
    if (n >= 4 && s[n - 1] === s[n - 2] && 'bdgmnprt'.includes(s[n - 1])) s = s.slice(0, -1);
  }
  if (s.length > 4 && s.endsWith('e')) s = s.slice(0, -1);
  if (s.length > 3 && s.endsWith('y')) s = `${s.slice(0, -1)}i`;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Typos: the edits allowed for a word of its length, and the distance (Damerau: a swap of two
// neighbours is one edit).

/** One edit for words of 5 letters or more, two for 9 or more. */
export function editsAllowed(word: string): number {
  const n = Array.from(word).length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/** The edit distance of `a` and `b` if at most `max`, else max + 1. */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (i > 0 && best > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length][b.length];
}

// ---------------------------------------------------------------------------------------------

// Ranking constants. The index holds each term's BM25F weight per doc; the engine multiplies it
// by the term's idf and adds the query's own signals.

/** A stored score's steps (the writer's SCORE_STEPS) and the most a weight can be (MAX_WEIGHT). */
const SCORE_STEPS = 100;
const MAX_WEIGHT = 6.6;
const IN_TITLE = 1;
const IN_HEADING = 2;
/**
 * A term found by expanding the last token as a prefix counts for less than the word typed, and
 * less the more it adds: `interst` finds `interstitial` before `interstitialadapterdelegate`.
 */
const PREFIX_FACTOR = 0.8;
/** Another form of the word (`banners` for `banner`). */
const STEM_FACTOR = 0.9;
/** A word one or two edits away, read for a typo. */
const TYPO_FACTOR = 0.7;
/** Every query word in the title. */
const TITLE_BOOST = 1.4;
/** Every query word counting most in one section; more when that section's heading holds them. */
const SECTION_BOOST = 1.15;
const HEADING_BOOST = 1.3;
/** Pages of the reader's platform and area. */
const PLATFORM_BOOST = 1.6;
const AREA_BOOST = 1.5;
/** Scores this close (as a ratio) tie, and the menu's order decides: one page across platforms. */
const TIE = 1.03;
const MAX_PREFIX_SHARDS = 3;
/**
 * Excerpt files an answer may fetch beyond those already loaded: a result's title is in its
 * file, so the results after the first one beyond this wait for "Show more". With index.json and
 * a shard per word, a query of three words stays within ten requests.
 */
const NEW_EXCERPT_FILES = 5;
const MAX_PREFIX_TERMS = 30;
const DEFAULT_LIMIT = 8;
const MAX_SUB_RESULTS = 3;
/** Characters of an excerpt: a stored window (160 and "…") is shown whole. */
const EXCERPT_CHARS = 170;
/** Characters shown before the first matched word of a longer text. */
const EXCERPT_LEAD = 40;

// ---------------------------------------------------------------------------------------------
// Reading the files.

/** What a result shows of a doc: address, breadcrumb, title, sections [anchor, heading, window]. */
type Record = [string, string[], string, Array<[string, string, string]>];

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
  const b = body as { [key: string]: unknown };
  if (b.version !== 3) throw bad(`unsupported version ${String(b.version)}`);
  const platforms = b.platforms ?? [];
  const platform = b.platform ?? [];
  const synonyms = b.synonyms ?? [];
  const twins = b.twins ?? [];
  const areaHrefs = b.areaHrefs ?? [];
  const platformHrefs = b.platformHrefs ?? [];
  if (
    !isCount(b.docs) ||
    !isArray(b.shards) ||
    !b.shards.every((s) => isArray(s) && s.length === 2 && isString(s[0]) && isString(s[1])) ||
    typeof b.excerpts !== 'object' ||
    b.excerpts === null ||
    !/^[0-9a-f]+$/.test(String((b.excerpts as { digest?: unknown }).digest)) ||
    !isArray((b.excerpts as { sizes?: unknown }).sizes) ||
    !((b.excerpts as { sizes: unknown[] }).sizes.every(isCount)) ||
    !isArray(b.areas) ||
    !b.areas.every(isString) ||
    !isRuns(b.area) ||
    !isArray(platforms) ||
    !platforms.every(isString) ||
    !isRuns(platform) ||
    !isArray(synonyms) ||
    !synonyms.every((g) => isArray(g) && g.every(isString)) ||
    !isArray(twins) ||
    !twins.every((g) => isArray(g) && g.every(isCount)) ||
    !isArray(areaHrefs) ||
    !areaHrefs.every(isString) ||
    !isArray(platformHrefs) ||
    !platformHrefs.every(isString)
  ) {
    throw bad('not a search index');
  }
  return {
    ...(b as unknown as SearchIndex),
    platforms,
    platform,
    synonyms: synonyms,
    twins: twins,
    areaHrefs: areaHrefs,
    platformHrefs: platformHrefs,
  };
}

function readShard(url: string, body: unknown): ShardTerms {
  const t = typeof body === 'object' && body !== null ? (body as { t?: unknown }).t : undefined;
  if (typeof t !== 'object' || t === null) throw new SearchError(url, 200, `${url}: not a search shard`);
  // A Map, so that terms such as "constructor" never meet Object.prototype.
  const postings = new Map<string, number[]>();
  for (const [term, list] of Object.entries(t as { [term: string]: unknown })) if (isArray(list)) postings.set(term, list as number[]);
  return { postings, sorted: [...postings.keys()].sort() };
}

function readExcerpts(url: string, body: unknown): Record[] {
  const ok =
    isArray(body) &&
    body.every(
      (r) =>
        isArray(r) &&
        r.length === 4 &&
        isString(r[0]) &&
        isArray(r[1]) &&
        isString(r[2]) &&
        isArray(r[3]) &&
        (r[3] as unknown[]).every((s) => isArray(s) && s.length === 3 && s.every(isString)),
    );
  if (!ok) throw new SearchError(url, 200, `${url}: not an excerpt file`);
  return body as Record[];
}

/** The last entry of a sorted list that is not after `key`; -1 if none. */
function lastNotAfter(sorted: readonly number[], key: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
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

/** Where a query word stands in a doc: its best term's score, flags and section. */
interface Hit {
  score: number;
  flags: number;
  section: number;
}

/** One query word's hits, by doc. */
type WordHits = Map<number, Hit>;

interface TermPlan {
  term: string;
  /** `[df, doc delta, score, section, doc delta, score, section, ...]`. */
  postings: number[];
  factor: number;
}

function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * Adds the postings of the terms a query word matched to its hits, keeping its best term per
 * doc. The idf is the most common term's: the forms and completions of a word stand for one
 * word, and a rare one must not outrank the common one.
 */
function hitsOf(terms: readonly TermPlan[], docs: number): { hits: WordHits; idf: number } {
  const hits: WordHits = new Map();
  const weight = idf(Math.max(0, ...terms.map((t) => t.postings[0] ?? 0)), docs);
  for (const { postings, factor } of terms) {
    let doc = 0;
    for (let i = 1; i + 2 < postings.length; i += 3) {
      doc += postings[i];
      const stored = postings[i + 1];
      const score = (factor * weight * (stored >> 2) * MAX_WEIGHT) / SCORE_STEPS;
      const was = hits.get(doc);
      if (!was || score > was.score) hits.set(doc, { score, flags: stored & 3, section: postings[i + 2] });
    }
  }
  return { hits, idf: weight };
}

/** A query word: as typed (or a prefix being typed), with the terms it matched. */
interface Word {
  token: string;
  prefix: boolean;
  hits: WordHits;
  idf: number;
}

/** A part of the query: one word, or a phrase of a synonym group with its other phrases. */
interface Slot {
  /** Each a list of words that must all match. */
  alternatives: Word[][];
  /**
   * The rarity every alternative counts with: that of the words typed. A group's phrases are
   * one meaning, so "rewarded" does not rank the pages saying "rewarded video" by the rarity
   * of "video".
   */
  idf: number;
}

/** How a doc matches a slot: its best alternative's hits, or null. */
function slotMatch(slot: Slot, doc: number): { score: number; hits: Hit[] } | null {
  let best: { score: number; hits: Hit[] } | null = null;
  for (const words of slot.alternatives) {
    const hits: Hit[] = [];
    for (const w of words) {
      const h = w.hits.get(doc);
      if (!h) break;
      hits.push(h);
    }
    if (hits.length !== words.length) continue;
    // The mean: a phrase of several words stands for one word of the query.
    const score = (hits.reduce((n, h, i) => n + (words[i].idf > 0 ? h.score / words[i].idf : h.score), 0) / hits.length) * slot.idf;
    if (!best || score > best.score) best = { score, hits };
  }
  return best;
}

interface Ranked {
  doc: number;
  score: number;
  /** The sections the query's words count most in, best first. */
  sections: number[];
}

/** The sections holding the most of `hits`, those with the words in their heading first. */
function sectionsOf(hits: readonly Hit[]): number[] {
  const count = new Map<number, number>();
  for (const h of hits) if (h.section >= 0) count.set(h.section, (count.get(h.section) ?? 0) + 1 + (h.flags & IN_HEADING ? 0.5 : 0));
  return [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([s]) => s);
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
    if (CJK_RUN.test(m[0])) {
      // The matched pairs of a run of Han, kana or Hangul; overlapping ones read as one mark.
      for (const p of pairsOf(m[0])) {
        if (!matches(p.term)) continue;
        const last = marks.at(-1);
        if (last && last.end >= at + p.start) last.end = at + p.end;
        else marks.push({ start: at + p.start, end: at + p.end, term: p.term });
      }
      continue;
    }
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

// ---------------------------------------------------------------------------------------------

/** The tokens of each phrase of each synonym group. */
function synonymGroups(idx: SearchIndex): string[][][] {
  return idx.synonyms.map((group) => group.map((phrase) => queryTokens(phrase)).filter((t) => t.length > 0));
}

/** Whether `tokens` holds `phrase` at `at`. */
function holdsAt(tokens: readonly string[], at: number, phrase: readonly string[]): boolean {
  return phrase.every((t, i) => tokens[at + i] === t);
}

export function createSearch(indexUrl: string, fetchImpl: Fetch = fetch): Search {
  const folder = indexUrl.slice(0, indexUrl.lastIndexOf('/') + 1);
  const files = new Map<string, Promise<unknown>>();

  /** Each file once; a failed load is forgotten so that the next query tries again. */
  function load<T>(url: string, read: (url: string, body: unknown) => T): Promise<T> {
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

  let tables: { area: Runs; platform: Runs; synonyms: string[][][]; twins: Map<number, number[]>; excerptStarts: number[] } | null = null;
  const index = () =>
    load(indexUrl, readIndex).then((idx) => {
      if (!tables) {
        const excerptStarts: number[] = [];
        let first = 0;
        for (const size of idx.excerpts.sizes) {
          excerptStarts.push(first);
          first += size;
        }
        tables = { area: new Runs(idx.area), platform: new Runs(idx.platform), synonyms: synonymGroups(idx), twins: new Map(idx.twins.flatMap((g) => g.map((d) => [d, g]))), excerptStarts };
      }
      return { idx, tables };
    });
  const shard = (idx: SearchIndex, i: number) => load(folder + idx.shards[i][1], readShard);
  /** The excerpt file that holds a doc, and the doc's place in it. */
  function excerptFile(idx: SearchIndex, starts: number[], doc: number): { url: string; at: number } {
    const n = Math.max(0, lastNotAfter(starts, doc));
    return { url: `${folder}x/${String(n)}.${idx.excerpts.digest}.json`, at: doc - (starts[n] ?? 0) };
  }
  /** A doc's record, from the excerpt file that holds it. */
  async function record(idx: SearchIndex, starts: number[], doc: number): Promise<Record> {
    const { url, at } = excerptFile(idx, starts, doc);
    const list = await load(url, readExcerpts);
    const r = list.at(at);
    if (!r) throw new SearchError(url, 200, `${url}: no doc ${String(doc)}`);
    return r;
  }

  /**
   * The terms a query token matches, with their postings: the word and its other forms in its
   * shard, and by prefix if asked; failing all, the words of the shards looked at that are one
   * or two edits away (the nearest, then the most common). A shard that fails to load gives no
   * terms: the other words still answer.
   */
  async function termsOf(idx: SearchIndex, token: string, prefix: boolean): Promise<{ terms: TermPlan[]; typo: string | null; failed: unknown }> {
    let failed: unknown = null;
    const shards = prefix ? shardsOfPrefix(idx.shards, token) : [shardOf(idx.shards, token)].filter((i) => i >= 0);
    const loaded = (
      await Promise.all(
        shards.map((i) =>
          shard(idx, i).catch((e: unknown) => {
            failed = e;
            return null;
          }),
        ),
      )
    ).filter((s): s is ShardTerms => s !== null);
    const found = new Map<string, TermPlan>();
    const add = (s: ShardTerms, term: string, factor: number) => {
      const postings = s.postings.get(term);
      const was = found.get(term);
      if (postings && (!was || was.factor < factor)) found.set(term, { term, postings, factor });
    };
    const root = stem(token);
    for (const s of loaded) {
      add(s, token, 1);
      if (root !== token || LOWER_ASCII.test(token)) {
        const from = root.endsWith('i') ? root.slice(0, -1) : root;
        for (const term of termsWithPrefix(s, from.slice(0, Math.max(2, from.length)))) if (term !== token && stem(term) === root) add(s, term, STEM_FACTOR);
      }
      if (prefix) for (const term of termsWithPrefix(s, token)) add(s, term, term === token ? 1 : (PREFIX_FACTOR * token.length) / term.length);
    }
    let typo: string | null = null;
    const max = editsAllowed(token);
    if (found.size === 0 && max > 0) {
      let best: { term: string; d: number; df: number; s: ShardTerms } | null = null;
      for (const s of loaded) {
        for (const term of s.sorted) {
          const d = distance(token, term, max);
          const df = s.postings.get(term)?.[0] ?? 0;
          if (d <= max && (!best || d < best.d || (d === best.d && df > best.df))) best = { term, d, df, s };
        }
      }
      if (best) {
        typo = best.term;
        add(best.s, best.term, TYPO_FACTOR);
      }
    }
    // The word itself first, then the most frequent.
    const terms = [...found.values()].sort((a, b) => b.factor - a.factor || (b.postings[0] ?? 0) - (a.postings[0] ?? 0) || (a.term < b.term ? -1 : 1));
    return { terms: terms.slice(0, MAX_PREFIX_TERMS), typo, failed };
  }

  async function query(text: string, options: QueryOptions = {}): Promise<Answer> {
    const { idx, tables: t } = await index();
    const limit = options.limit ?? DEFAULT_LIMIT;
    const none: Answer = { results: [], total: 0, suggestion: null };
    // The last word is still being typed unless the query ends after it.
    const typing = TOKEN_CHAR.test(text);
    let all = queryTokens(text);
    // A platform's name among other words says which platform, more than it is a word to find.
    let named = -1;
    if (all.length > 1) {
      const names = idx.platforms.map((p) => queryTokens(p).join(' '));
      const at = all.findIndex((token) => names.includes(token));
      if (at >= 0) {
        named = names.indexOf(all[at]);
        all = all.filter((_, i) => i !== at);
      }
    }
    const kept = all.filter((token, i) => (typing && i === all.length - 1) || indexable(token));
    if (kept.length === 0) return none;

    // The slots: each synonym phrase found in the query (the longest first), else each word.
    const wanted: Array<{ token: string; prefix: boolean }> = [];
    const slotsOf: Array<{ alternatives: Array<Array<{ token: string; prefix: boolean }>>; typed: number }> = [];
    const word = (token: string, prefix: boolean) => {
      const w = { token, prefix };
      wanted.push(w);
      return w;
    };
    for (let i = 0; i < kept.length; ) {
      let matched: { group: string[][]; length: number } | null = null;
      for (const group of t.synonyms) for (const phrase of group) if (holdsAt(kept, i, phrase) && (!matched || phrase.length > matched.length)) matched = { group, length: phrase.length };
      if (matched) {
        const last = i + matched.length === kept.length;
        const typed = matched.group.findIndex((phrase) => phrase.length === matched.length && holdsAt(kept, i, phrase));
        slotsOf.push({ alternatives: matched.group.map((phrase, k) => phrase.map((token, j) => word(token, typing && last && j === phrase.length - 1 && k === typed))), typed: Math.max(0, typed) });
        i += matched.length;
      } else {
        slotsOf.push({ alternatives: [[word(kept[i], typing && i === kept.length - 1)]], typed: 0 });
        i += 1;
      }
    }
    const looked = await Promise.all(wanted.map((w) => termsOf(idx, w.token, w.prefix)));
    const failures = looked.filter((l) => l.failed !== null);
    if (failures.length === looked.length) throw failures[0].failed;
    const words = new Map<{ token: string; prefix: boolean }, Word>();
    wanted.forEach((w, i) => words.set(w, { ...w, ...hitsOf(looked[i].terms, idx.docs) }));
    const slots: Slot[] = slotsOf.map(({ alternatives, typed }) => {
      const ws = alternatives.map((a) => a.map((w) => words.get(w) as Word));
      const mine = ws[typed] ?? [];
      return { alternatives: ws, idf: mine.reduce((n, w) => n + w.idf, 0) / Math.max(1, mine.length) };
    });
    // "Did you mean": the query with each word read as another written as that word.
    const corrected = new Map<string, string>();
    wanted.forEach((w, i) => {
      const typo = looked[i].typo;
      if (typo) corrected.set(w.token, typo);
    });
    const suggestion = corrected.size > 0 ? kept.map((k) => corrected.get(k) ?? k).join(' ') : null;

    const area = options.area != null ? idx.areas.indexOf(options.area) : null;
    const platform = options.platform != null ? idx.platforms.indexOf(options.platform) : null;
    const contextArea = options.context?.area != null ? idx.areas.indexOf(options.context.area) : -1;
    const contextPlatform = named >= 0 ? named : options.context?.platform != null ? idx.platforms.indexOf(options.context.platform) : -1;
    const allowed = (doc: number) => {
      if (area !== null && t.area.at(doc) !== area) return false;
      if (platform === null) return true;
      const p = t.platform.at(doc);
      return p === platform || p < 0;
    };

    // The docs every slot matches; failing that, those matching the most slots.
    const docsOf = (slot: Slot) => {
      const docs = new Set<number>();
      for (const ws of slot.alternatives) for (const w of ws) for (const doc of w.hits.keys()) docs.add(doc);
      return docs;
    };
    const counts = new Map<number, number>();
    for (const slot of slots) for (const doc of docsOf(slot)) if (allowed(doc)) counts.set(doc, (counts.get(doc) ?? 0) + 1);
    const ranked: Ranked[] = [];
    let most = 0;
    for (const [doc] of counts) {
      const matches = slots.map((s) => slotMatch(s, doc));
      const n = matches.filter((m) => m !== null).length;
      if (n < most) continue;
      if (n > most) {
        most = n;
        ranked.length = 0;
      }
      const hits = matches.flatMap((m) => m?.hits ?? []);
      let score = matches.reduce((sum, m) => sum + (m?.score ?? 0), 0);
      if (hits.length > 0 && hits.every((h) => h.flags & IN_TITLE)) score *= TITLE_BOOST;
      const sections = sectionsOf(hits);
      if (hits.length > 1 && sections.length === 1) score *= hits.every((h) => h.flags & IN_HEADING) ? HEADING_BOOST : SECTION_BOOST;
      if (contextArea >= 0 && t.area.at(doc) === contextArea) score *= AREA_BOOST;
      ranked.push({ doc, score, sections });
    }
    if (most < slots.length && slots.length === 1) ranked.length = 0;
    // One page across platforms ranks as its best copy, the reader's platform first.
    const best = new Map<number[], number>();
    for (const r of ranked) {
      const group = t.twins.get(r.doc);
      if (group) best.set(group, Math.max(best.get(group) ?? 0, r.score));
    }
    for (const r of ranked) {
      const group = t.twins.get(r.doc);
      if (group) r.score = best.get(group) ?? r.score;
      if (contextPlatform >= 0 && t.platform.at(r.doc) === contextPlatform) r.score *= named >= 0 ? PLATFORM_BOOST * PLATFORM_BOOST : PLATFORM_BOOST;
    }
    // Near-equal scores tie (one page across platforms), and ties go by the menu's order.
    const bucket = (s: number) => Math.round(Math.log(s) / Math.log(TIE));
    ranked.sort((a, b) => bucket(b.score) - bucket(a.score) || a.doc - b.doc);

    const used = new Set<string>();
    looked.forEach((l) => { for (const term of l.terms) used.add(term.term); });
    const prefixes = wanted.filter((w) => w.prefix).map((w) => w.token);
    const matches: Matcher = (term) => used.has(term) || prefixes.some((p) => term.startsWith(p));

    // The best `limit`, up to the first whose excerpt file is beyond this answer's new files.
    const top: Ranked[] = [];
    const fresh = new Set<string>();
    for (const r of ranked) {
      if (top.length >= limit) break;
      const { url } = excerptFile(idx, t.excerptStarts, r.doc);
      if (!files.has(url) && !fresh.has(url)) {
        if (fresh.size >= NEW_EXCERPT_FILES && top.length > 0) break;
        fresh.add(url);
      }
      top.push(r);
    }
    const records = await Promise.all(top.map((r) => record(idx, t.excerptStarts, r.doc).catch(() => null)));
    const results: Result[] = [];
    top.forEach((r, i) => {
      const rec = records[i];
      if (rec) results.push(resultOf(idx, t, r, rec, matches));
    });
    if (results.length === 0 && top.length > 0) throw new SearchError(folder, 0, 'no excerpt file of the results could be loaded');
    return { results, total: ranked.length, suggestion };
  }

  return {
    query,
    filters: () =>
      index().then(({ idx }) => ({ areas: [...idx.areas], platforms: [...idx.platforms], areaHrefs: [...idx.areaHrefs], platformHrefs: [...idx.platformHrefs] })),
  };
}

/** A result as shown: its record, with the section the query counts most in as its excerpt. */
function resultOf(idx: SearchIndex, t: { area: Runs; platform: Runs }, r: Ranked, [url, crumbs, title, sections]: Record, matches: Matcher): Result {
  const withText = (s: number) => (sections[s]?.[2] ?? '') !== '';
  // The best section with text; failing that, the first with text.
  const from = r.sections.find(withText) ?? Math.max(0, sections.findIndex((_, s) => withText(s)));
  const shown = sections.at(from);
  const subs: SubResult[] = [];
  for (const s of r.sections) {
    const [anchor, heading, text] = sections[s] ?? ['', '', ''];
    // The text before the first heading is the page itself, not a section to link to.
    if (anchor === '' || subs.length >= MAX_SUB_RESULTS) continue;
    subs.push({ url: `${url}#${anchor}`, anchor, heading, excerpt: excerpt(text, matches) });
  }
  return {
    doc: r.doc,
    url,
    title,
    breadcrumb: crumbs.filter(isString),
    area: idx.areas[t.area.at(r.doc)] ?? null,
    platform: idx.platforms[t.platform.at(r.doc)] ?? null,
    excerpt: excerpt(shown?.[2] ?? '', matches),
    excerptAnchor: shown?.[0] ?? '',
    sections: subs,
    score: r.score,
  };
}
