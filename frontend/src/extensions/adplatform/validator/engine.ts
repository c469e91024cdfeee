// The bid-response validator's evaluator: runs the rules docgen compiled from the bidding
// specification (`_docgen/bid-rules.json`, whose types are generated from docgen's structs)
// over a pasted bid response and, when given, its bid request. It imports nothing from the app
// and is bundled alone as validator.js, loaded on first use; nothing leaves the page.
//
// Meaning of the compiled expressions (docgen's `src/bidrules/compiled.rs`): a path gives the
// values it reaches (none when a field is missing or null); a test gives true, false or
// unknown — unknown when a value it reads is missing or the request was not given. A test on a
// list holds when it holds for every item. `and`, `or` and `not` follow three-valued logic. A
// rule fails where its check is false, and applies where its `when` is true.

import type { BidRules } from '../generated/BidRules';
import type { CmpOp } from '../generated/CmpOp';
import type { CompiledRule } from '../generated/CompiledRule';
import type { Expr } from '../generated/Expr';
import type { Func } from '../generated/Func';
import type { JsonType } from '../generated/JsonType';
import type { Operand } from '../generated/Operand';
import type { Path } from '../generated/Path';
import type { Step } from '../generated/Step';
import { JsonSyntaxError, parseJson, type ParsedJson } from './json';
import { XmlElement, parseXml } from './xml';

/** The format of the compiled rules this evaluator reads. */
export const FORMAT = 2;

export type Severity = 'error' | 'warning';
export type Which = 'response' | 'request';

export interface Finding {
  severity: Severity;
  ruleId: string;
  /** A rule of the specification, or a field table's type and required flag. */
  origin: 'rule' | 'field';
  /** The requirement, as the documentation states it. */
  text: string;
  /** What is wrong with the value, as a sentence (`price must be a number`). */
  problem: string;
  /** How to put it right (`send 2.35, not "2.35"`). */
  fix: string;
  /** Where: `seatbid[0].bid[0].adomain[0]` (in the response), `request.imp[0]...` (in the request). */
  path: string;
  which: Which;
  /** What was found there. */
  detail: string;
  /** The rule's field and condition as the documentation shows them. */
  field: string;
  condition: string;
  /** The rule's row in the documentation (route and anchor). */
  href: string;
  /** Where the value is in the pasted text (the nearest enclosing value when it is inside a string). */
  line?: number;
  column?: number;
}

export type Report =
  | { status: 'empty' }
  | { status: 'invalid'; which: Which; message: string; line: number; column: number }
  | {
      status: 'checked';
      findings: Finding[];
      /** Rules applied, and rules left out because they read the request and none was given. */
      checked: number;
      skipped: number;
      /** The response's size in bytes, as pasted. */
      bytes: number;
    };

export interface Validator {
  readonly rules: BidRules;
  validate(response: string, request?: string): Report;
}

/** A validator over compiled rules; refuses a document of another format. */
export function createValidator(rules: BidRules): Validator {
  if (rules.format !== FORMAT) throw new Error(`bid rules of format ${rules.format}; this validator reads format ${FORMAT}`);
  const regexes = new Map<string, RegExp>();
  const regex = (pattern: string, flags: string) => {
    const key = `${flags}/${pattern}`;
    let re = regexes.get(key);
    if (!re) {
      re = new RegExp(pattern, flags);
      regexes.set(key, re);
    }
    return re;
  };
  return {
    rules,
    validate(responseText, requestText) {
      if (responseText.trim() === '') return { status: 'empty' };
      const response = parse(responseText, 'response');
      if ('status' in response) return response;
      let request: Message | null = null;
      if (requestText !== undefined && requestText.trim() !== '') {
        const r = parse(requestText, 'request');
        if ('status' in r) return r;
        request = r;
      }
      const run = new Run(response, request, regex);
      let checked = 0;
      let skipped = 0;
      for (const rule of rules.rules) {
        if (rule.needsRequest && !request) {
          skipped++;
          continue;
        }
        checked++;
        run.rule(rule);
      }
      // A value of the wrong type is reported by its field's check alone: the rules about the
      // value would only repeat it.
      const mistyped = new Set(run.findings.filter((f) => f.origin === 'field').map((f) => f.path));
      const findings = run.findings.filter((f) => f.origin === 'field' || !mistyped.has(f.path));
      findings.sort(byPlace);
      return { status: 'checked', findings, checked, skipped, bytes: new TextEncoder().encode(responseText.trim()).length };
    },
  };
}

/**
 * The order findings are read in: the response's before the request's, each in the order of
 * the text (line, then column); a finding without a place (the whole message) first; errors
 * before warnings at the same place. The sort is stable: rules keep their order otherwise.
 */
export function byPlace(a: Finding, b: Finding): number {
  if (a.which !== b.which) return a.which === 'response' ? -1 : 1;
  const line = (a.line ?? 0) - (b.line ?? 0);
  if (line !== 0) return line;
  const column = (a.column ?? 0) - (b.column ?? 0);
  if (column !== 0) return column;
  return a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1;
}

interface Message {
  which: Which;
  text: string;
  parsed: ParsedJson;
}

function parse(text: string, which: Which): Message | Extract<Report, { status: 'invalid' }> {
  try {
    // Parsed as pasted, blanks around it included, so lines and columns are the reader's.
    return { which, text: text.trim(), parsed: parseJson(text) };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { status: 'invalid', which, message: e.message, line: e.line, column: e.column };
    throw e;
  }
}

/** A tuple of values, as `(w, h)` makes: compared as a whole, never as a list of items. */
class Tuple {
  constructor(readonly items: unknown[]) {}
}

/** A place a path reached: a value (undefined when missing), its path, and its context. */
interface Place {
  value: unknown;
  path: string;
  ctx: unknown;
  ctxPath: string;
}

/** The values an operand gives; `noRequest` when it reads a request that was not given. */
interface Bag {
  items: unknown[];
  many: boolean;
  noRequest?: boolean;
  /** The operand is the top of a message: its text as given, for bytes(). */
  raw?: string;
}

type Truth = 'T' | 'F' | 'U';

const join = (path: string, seg: string) => (seg.startsWith('[') || seg.startsWith('/') || path === '' ? path + seg : `${path}.${seg}`);

function textOf(v: unknown): unknown {
  return v instanceof XmlElement ? v.text : v;
}

class Run {
  readonly findings: Finding[] = [];
  private readonly json = new Map<string, unknown>();
  private readonly xml = new Map<string, XmlElement | null>();

  constructor(
    private readonly response: Message,
    private readonly request: Message | null,
    private readonly regex: (pattern: string, flags: string) => RegExp,
  ) {}

  rule(rule: CompiledRule) {
    // A rule that reads the request is marked needsRequest and only run when there is one.
    if (rule.message === 'request' && !this.request) throw new Error(`rule ${rule.id} reads the request but none was given`);
    const message = rule.message === 'request' && this.request ? this.request : this.response;
    const root = message.parsed.value;
    const places: Array<{ place: Place; member: number }> = [];
    rule.subjects.forEach((subject, member) => {
      for (const place of this.walk(root, '', subject.steps, rule.contextSteps)) places.push({ place, member });
    });
    const group = /\.\{[^}]*\}$/.exec(rule.field)?.[0] ?? '';
    const done = new Set<string>();
    for (const { place } of places) {
      let at = place.path;
      if (!rule.perSubject) {
        // Once per context element: the condition reads the members by their names.
        if (done.has(place.ctxPath)) continue;
        done.add(place.ctxPath);
        at = place.ctxPath + group;
      }
      const env: Env = { message, place };
      if (rule.when && this.test(rule.when, env) !== 'T') continue;
      if (this.test(rule.check, env) !== 'F') continue;
      const detail = rule.perSubject ? this.detail(place.value, message, place.path) : this.groupDetail(rule, places, place.ctxPath);
      this.findings.push(this.finding(rule, message, at, detail));
    }
  }

  private finding(rule: CompiledRule, message: Message, at: string, detail: string): Finding {
    const shown = message.which === 'request' ? (at === '' ? 'request' : `request.${at}`) : at === '' ? 'response' : at;
    const finding: Finding = {
      severity: rule.severity,
      ruleId: rule.id,
      origin: rule.origin,
      text: rule.text,
      problem: rule.problem,
      fix: rule.fix,
      path: shown,
      which: message.which,
      detail,
      field: rule.field,
      condition: rule.condition,
      href: rule.href,
    };
    // The nearest value the text holds: inside adm, that is adm.
    let key = at.replace(/\.\{[^}]*\}$/, '');
    for (;;) {
      const offset = message.parsed.offsets.get(key);
      if (offset !== undefined) {
        const p = message.parsed.position(offset);
        finding.line = p.line;
        finding.column = p.column;
        break;
      }
      const cut = Math.max(key.lastIndexOf('.'), key.lastIndexOf('['), key.lastIndexOf('/'));
      if (cut <= 0) break;
      key = key.slice(0, cut).replace(/\/+$/, '');
    }
    return finding;
  }

  private detail(value: unknown, message: Message, path: string): string {
    if (value === undefined) return 'missing';
    if (path === '') return `${new TextEncoder().encode(message.text).length} bytes`;
    return `found ${show(value)}`;
  }

  private groupDetail(rule: CompiledRule, places: Array<{ place: Place; member: number }>, ctxPath: string): string {
    const names = (/\.\{([^}]*)\}$/.exec(rule.field)?.[1] ?? '').split(',').map((s) => s.trim());
    const parts = places
      .filter((p) => p.place.ctxPath === ctxPath)
      .map((p) => `${names[p.member] ?? p.place.path}: ${p.place.value === undefined ? 'missing' : show(p.place.value)}`);
    return parts.length > 0 ? `found ${[...new Set(parts)].join(', ')}` : '';
  }

  // ---- paths ----

  /** The places `steps` reach from `start`; `contextSteps` steps in, the context is taken. */
  private walk(start: unknown, startPath: string, steps: Step[], contextSteps = 0): Place[] {
    let places: Place[] = [{ value: start, path: startPath, ctx: start, ctxPath: startPath }];
    steps.forEach((step, n) => {
      const next: Place[] = [];
      for (const p of places) next.push(...this.step(p, step));
      places = next;
      if (n + 1 === contextSteps) places = places.map((p) => ({ ...p, ctx: p.value, ctxPath: p.path }));
    });
    return places;
  }

  private step(p: Place, step: Step): Place[] {
    const v = p.value;
    const missing = (path: string): Place => ({ ...p, value: undefined, path });
    switch (step.step) {
      case 'field': {
        const path = join(p.path, step.name);
        if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof XmlElement) return [missing(path)];
        const f = (v as Record<string, unknown>)[step.name];
        return [{ ...p, value: f === null ? undefined : f, path }];
      }
      case 'index': {
        const path = join(p.path, `[${step.index}]`);
        if (!Array.isArray(v)) return [missing(path)];
        const e: unknown = v[step.index];
        return [{ ...p, value: e === null ? undefined : e, path }];
      }
      case 'each':
        if (!Array.isArray(v)) return [];
        return v.map((e: unknown, i) => ({ ...p, value: e === null ? undefined : e, path: join(p.path, `[${i}]`) }));
      case 'where': {
        if (Array.isArray(v)) {
          const hits = v.flatMap((e: unknown, i) =>
            e !== null && typeof e === 'object' && equal((e as Record<string, unknown>)[step.field], step.equals) ? [{ ...p, value: e, path: join(p.path, `[${i}]`) }] : [],
          );
          if (hits.length > 0) return hits;
        }
        return [missing(join(p.path, `[${step.field}=${JSON.stringify(step.equals)}]`))];
      }
      case 'json':
        return [{ ...p, value: typeof v === 'string' ? this.parseJsonText(v) : undefined }];
      case 'child':
      case 'descendant': {
        const slash = step.step === 'child' ? '/' : '//';
        const el = v instanceof XmlElement ? v : typeof v === 'string' ? this.parseXmlText(v) : null;
        if (!el) return [missing(p.path + slash + step.name)];
        const pool = step.step === 'child' ? el.elements() : el.descendants();
        const hits = pool.filter((e) => step.name === '*' || e.name === step.name);
        if (hits.length === 0) return [missing(p.path + slash + step.name)];
        const count = new Map<string, number>();
        for (const h of hits) count.set(h.name, (count.get(h.name) ?? 0) + 1);
        const seen = new Map<string, number>();
        return hits.map((h) => {
          const k = seen.get(h.name) ?? 0;
          seen.set(h.name, k + 1);
          return { ...p, value: h, path: p.path + slash + h.name + ((count.get(h.name) ?? 0) > 1 ? `[${k}]` : '') };
        });
      }
      case 'attribute': {
        const path = `${p.path}/@${step.name}`;
        if (!(v instanceof XmlElement)) return [missing(path)];
        return [{ ...p, value: v.attributes[step.name], path }];
      }
    }
  }

  private parseJsonText(s: string): unknown {
    if (!this.json.has(s)) {
      let v: unknown;
      try {
        v = JSON.parse(s);
      } catch {
        v = undefined;
      }
      this.json.set(s, v === null ? undefined : v);
    }
    return this.json.get(s);
  }

  private parseXmlText(s: string): XmlElement | null {
    const known = this.xml.get(s);
    if (known !== undefined) return known;
    let doc: XmlElement | null = null;
    if (s.trimStart().startsWith('<')) {
      try {
        doc = parseXml(s);
      } catch {
        doc = null;
      }
    }
    this.xml.set(s, doc);
    return doc;
  }

  // ---- operands ----

  private operand(o: Operand, env: Env): Bag {
    switch (o.kind) {
      case 'literal':
        return { items: [o.value], many: false };
      case 'list':
        return { items: [o.items], many: false };
      case 'tuple': {
        const parts = o.items.map((i) => this.operand(i, env));
        if (parts.some((b) => b.noRequest)) return { items: [], many: false, noRequest: true };
        if (parts.some((b) => b.items.length !== 1)) return { items: [], many: false };
        return { items: [new Tuple(parts.map((b) => textOf(b.items[0])))], many: false };
      }
      case 'path':
        return this.path(o.path, env);
      case 'call': {
        const arg = this.operand(o.arg, env);
        if (arg.noRequest) return arg;
        if (o.func === 'kind' && arg.items.length === 0) return { items: ['none'], many: false };
        if (o.func === 'bytes' && arg.raw !== undefined) return { items: [new TextEncoder().encode(arg.raw).length], many: false };
        if (o.func === 'macros') return { items: arg.items.flatMap((v) => macros(textOf(v))), many: true };
        return { items: arg.items.map((v) => call(o.func, textOf(v))), many: arg.many };
      }
    }
  }

  private path(path: Path, env: Env): Bag {
    let start: unknown;
    let raw: string | undefined;
    switch (path.root) {
      case 'request':
        if (!this.request) return { items: [], many: false, noRequest: true };
        start = this.request.parsed.value;
        if (path.steps.length === 0) raw = this.request.text;
        break;
      case 'response':
        start = this.response.parsed.value;
        if (path.steps.length === 0) raw = this.response.text;
        break;
      case 'context':
        start = env.place.ctx;
        break;
      case 'value':
        start = env.place.value;
        if (path.steps.length === 0 && env.place.path === '') raw = env.message.text;
        break;
    }
    const many = path.steps.some((s) => s.step === 'each' || s.step === 'where' || s.step === 'child' || s.step === 'descendant');
    const items = this.walk(start, '', path.steps)
      .map((p) => p.value)
      .filter((v) => v !== undefined);
    return { items, many, raw: items.length > 0 ? raw : undefined };
  }

  // ---- tests ----

  test(e: Expr, env: Env): Truth {
    switch (e.test) {
      case 'and': {
        let unknown = false;
        for (const x of e.all) {
          const t = this.test(x, env);
          if (t === 'F') return 'F';
          if (t === 'U') unknown = true;
        }
        return unknown ? 'U' : 'T';
      }
      case 'or': {
        let unknown = false;
        for (const x of e.any) {
          const t = this.test(x, env);
          if (t === 'T') return 'T';
          if (t === 'U') unknown = true;
        }
        return unknown ? 'U' : 'F';
      }
      case 'not': {
        const t = this.test(e.expr, env);
        return t === 'U' ? 'U' : t === 'T' ? 'F' : 'T';
      }
      case 'present':
      case 'absent': {
        const bag = this.operand(e.of, env);
        if (bag.noRequest) return 'U';
        const present = bag.items.length > 0;
        return present === (e.test === 'present') ? 'T' : 'F';
      }
      case 'is': {
        const bag = this.operand(e.of, env);
        if (bag.noRequest || bag.items.length === 0) return 'U';
        return bag.items.every((v) => isType(v, e.type)) ? 'T' : 'F';
      }
      case 'compare': {
        const right = this.single(e.right, env);
        if (right === undefined) return 'U';
        return this.every(e.left, env, (v) => compare(v, e.op, right));
      }
      case 'range': {
        const low = this.single(e.low, env);
        const high = this.single(e.high, env);
        if (low === undefined || high === undefined) return 'U';
        return this.every(e.of, env, (v) => compare(low, e.lowOp, v) && compare(v, e.highOp, high));
      }
      case 'in': {
        const list = this.operand(e.list, env);
        if (list.noRequest || list.items.length === 0) return 'U';
        const members = list.many ? list.items.map(textOf) : Array.isArray(list.items[0]) ? (list.items[0] as unknown[]) : [textOf(list.items[0])];
        return this.every(e.of, env, (v) => members.some((m) => equal(v, m)) !== e.negated);
      }
      case 'matches': {
        const re = this.regex(e.pattern, e.flags);
        return this.every(e.of, env, (v) => (typeof v === 'string' ? re.test(v) !== e.negated : false));
      }
      case 'contains': {
        const item = this.single(e.item, env);
        if (item === undefined) return 'U';
        const bag = this.operand(e.of, env);
        if (bag.noRequest || bag.items.length === 0) return 'U';
        return bag.items.every((raw) => {
          const v = textOf(raw);
          if (Array.isArray(v)) return v.some((x) => equal(x, item));
          if (typeof v === 'string' && typeof item === 'string') return v.includes(item);
          return false;
        })
          ? 'T'
          : 'F';
      }
    }
  }

  /** The one value of an operand (the right side of a comparison); undefined when there is none. */
  private single(o: Operand, env: Env): unknown {
    const bag = this.operand(o, env);
    if (bag.noRequest || bag.items.length === 0) return undefined;
    return textOf(bag.items[0]);
  }

  /** A test of every item of an operand (a list's elements are its items). */
  private every(o: Operand, env: Env, ok: (v: unknown) => boolean): Truth {
    const bag = this.operand(o, env);
    if (bag.noRequest) return 'U';
    const items = bag.items.flatMap((v) => {
      const t = textOf(v);
      return Array.isArray(t) ? (t as unknown[]) : [t];
    });
    if (items.length === 0) return 'U';
    return items.every(ok) ? 'T' : 'F';
  }
}

interface Env {
  message: Message;
  place: Place;
}

function equal(a: unknown, b: unknown): boolean {
  if (a instanceof Tuple) a = a.items;
  if (b instanceof Tuple) b = b.items;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  return a === b || (a === undefined && b === null);
}

function compare(a: unknown, op: CmpOp, b: unknown): boolean {
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
  }
  if (typeof a !== 'number' || typeof b !== 'number' || Number.isNaN(a) || Number.isNaN(b)) return false;
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function isType(v: unknown, t: JsonType): boolean {
  switch (t.base) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'float':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array': {
      const items = t.items;
      return Array.isArray(v) && (!items || v.every((x) => x !== null && isType(x, items)));
    }
  }
}

/** The markup kinds of `kind()`: VAST XML (also when URL-encoded), native JSON, or HTML. */
export function markupKind(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') return 'none';
  const raw = v.trim();
  const decoded = urldecode(raw).trim();
  const vast = /^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<VAST[\s>]/i;
  if (vast.test(raw) || vast.test(decoded)) return 'vast';
  if (raw.startsWith('{') || decoded.startsWith('{')) return 'native';
  return 'html';
}

function urldecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Seconds of a VAST duration, HH:MM:SS or HH:MM:SS.mmm; NaN when it is not one. */
export function seconds(s: string): number {
  const m = /^\s*(\d+):([0-5]\d):([0-5]\d(?:\.\d{1,3})?)\s*$/.exec(s);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
}

/**
 * Every macro-like token of a URL: each `${...}`, and each AUCTION_... in any case and wrapping.
 * `$`, `{` and `}` may be URL-encoded (`%24%7BAUCTION_PRICE%7D`): such a token is not written
 * inside `${...}`, so it is reported rather than passed over.
 */
export function macros(v: unknown): string[] {
  if (typeof v !== 'string') return [];
  return v.match(/(?:\$|%24)(?:\{|%7B)(?:(?!%7D)[^}])*(?:\}|%7D)?|(?:\$|%24)?(?:\{|%7B)?(?<=^|[^a-z0-9_]|%[0-9a-f]{2})auction_[a-z0-9_]*(?:\}|%7D)?/gi) ?? [];
}

/** The tier-1 IAB category of a category (`IAB7` for `IAB7-1`); other values as they are. */
export function tier1(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^(IAB\d+)-\d+$/.exec(v.trim());
  return m ? m[1] : v;
}

function call(func: Func, v: unknown): unknown {
  switch (func) {
    case 'len':
      // len() counts characters as code points, which is what the rules' limits mean.
      // eslint-disable-next-line @typescript-eslint/no-misused-spread
      if (typeof v === 'string') return [...v].length;
      if (Array.isArray(v)) return v.length;
      return NaN;
    case 'bytes':
      if (typeof v === 'string') return new TextEncoder().encode(v).length;
      // JSON.stringify(undefined) is undefined, which encode() takes as the empty string.
      return new TextEncoder().encode(JSON.stringify(v)).length;
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
      return NaN;
    case 'seconds':
      return typeof v === 'string' ? seconds(v) : NaN;
    case 'urldecode':
      return typeof v === 'string' ? urldecode(v) : v;
    case 'kind':
      return markupKind(v);
    case 'macros':
      return macros(v);
    case 'tier1':
      return tier1(v);
  }
}

/** A value for a message: strings quoted, long ones cut. */
function show(v: unknown): string {
  if (v instanceof XmlElement) return v.text === '' ? `<${v.name}>` : JSON.stringify(cut(v.text));
  if (typeof v === 'string') return JSON.stringify(cut(v));
  if (v instanceof Tuple) return `(${v.items.map(show).join(', ')})`;
  // JSON.stringify gives undefined for undefined itself.
  const s = (JSON.stringify(v) as string | undefined) ?? String(v);
  return cut(s);
}

function cut(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

