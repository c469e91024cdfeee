// A JSON reader that says where things are: the line and column of a syntax error, and of
// every value by its path (`seatbid[0].bid[0].price`), so a finding can point into the text the
// reader pasted. JSON.parse gives neither the same way in every browser.

export interface JsonPosition {
  line: number;
  column: number;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface ParsedJson {
  value: unknown;
  /** The offset of each value in the text, by path (`` for the top). */
  offsets: Map<string, number>;
  /** The line and column (1-based) of an offset. */
  position(offset: number): JsonPosition;
}

const MAX_DEPTH = 200;

/** Parses JSON text; throws `JsonSyntaxError` with the line and column of the first mistake. */
export function parseJson(text: string): ParsedJson {
  const offsets = new Map<string, number>();
  let i = 0;

  const position = (offset: number): JsonPosition => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < offset && k < text.length; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  };
  const fail = (message: string, at = i): never => {
    const { line, column } = position(at);
    throw new JsonSyntaxError(message, line, column);
  };
  const describe = (at: number) => (at >= text.length ? 'the end of the text' : `\`${text[at]}\``);
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };

  const string = (): string => {
    const start = i;
    i++; // the opening quote
    let out = '';
    let run = i;
    for (;;) {
      if (i >= text.length) fail('this string is not closed', start);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(run, i);
        i++;
        return out;
      }
      if (c < 32) fail('a string cannot hold a line break or a control character; write \\n or \\t');
      if (c === 92) {
        out += text.slice(run, i);
        const e = text.at(i + 1);
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('`\\u` must be followed by four hexadecimal digits');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          fail(`\`\\${e ?? ''}\` is not an escape JSON knows`);
        }
        run = i;
        continue;
      }
      i++;
    }
  };

  const number = (): number => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail(`unexpected ${describe(i)}`);
    i += m[0].length;
    return Number(m[0]);
  };

  const value = (path: string, depth: number): unknown => {
    ws();
    if (depth > MAX_DEPTH) fail('the JSON is nested too deeply');
    offsets.set(path, i);
    const c = text.at(i);
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'a comma before `}` (JSON allows no trailing comma)' : `expected a field name in double quotes, found ${describe(i)}`);
        const key = string();
        ws();
        if (text[i] !== ':') fail(`expected \`:\` after the field name "${key}", found ${describe(i)}`);
        i++;
        obj[key] = value(path === '' ? key : `${path}.${key}`, depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail(`expected \`,\` or \`}\` after the value of "${key}", found ${describe(i)}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('a comma before `]` (JSON allows no trailing comma)');
        arr.push(value(`${path}[${arr.length}]`, depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail(`expected \`,\` or \`]\` in the list, found ${describe(i)}`);
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    if (c === "'") return fail('strings are written in double quotes in JSON');
    return fail(i >= text.length ? 'the text ends where a value was expected' : `unexpected ${describe(i)}`);
  };

  // A byte order mark is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const result = value('', 0);
  ws();
  if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON`);
  return { value: result, offsets, position };
}
