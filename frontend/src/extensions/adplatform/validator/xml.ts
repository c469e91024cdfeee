// A small XML reader for the VAST documents bids carry in `adm`: elements, attributes, text and
// CDATA, comments, processing instructions and a doctype (skipped). It reads well-formed XML and
// says where XML is not; it neither validates nor resolves entities beyond the predefined ones.

export class XmlElement {
  readonly children: Array<XmlElement | string> = [];
  constructor(
    readonly name: string,
    readonly attributes: Record<string, string> = {},
  ) {}

  /** The element's own text (its text and CDATA children, not its descendants'), trimmed. */
  get text(): string {
    let s = '';
    for (const c of this.children) if (typeof c === 'string') s += c;
    return s.trim();
  }

  elements(): XmlElement[] {
    return this.children.filter((c): c is XmlElement => typeof c !== 'string');
  }

  /** Every element below this one, in document order. */
  descendants(): XmlElement[] {
    const out: XmlElement[] = [];
    const walk = (e: XmlElement) => {
      for (const c of e.elements()) {
        out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }
}

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*/;
const ENTITIES: Partial<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    const v = ENTITIES[e];
    if (v === undefined) throw new XmlSyntaxError(`the entity &${e}; is not defined`, at);
    return v;
  });
}

/** Parses an XML document; its elements are the children of the returned `#document`. */
export function parseXml(text: string): XmlElement {
  const doc = new XmlElement('#document');
  const stack: XmlElement[] = [doc];
  let i = 0;
  const n = text.length;
  const fail = (message: string, at = i): never => {
    throw new XmlSyntaxError(message, at);
  };
  const skipTo = (end: string, what: string) => {
    const j = text.indexOf(end, i);
    if (j < 0) fail(`this ${what} is not closed`);
    i = j + end.length;
  };
  while (i < n) {
    const top = stack[stack.length - 1];
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      const raw = text.slice(i, end);
      if (top === doc) {
        if (raw.trim() !== '') fail('text outside the root element');
      } else {
        top.children.push(decode(raw, i));
      }
      i = end;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      skipTo('-->', 'comment');
    } else if (text.startsWith('<![CDATA[', i)) {
      if (top === doc) fail('CDATA outside the root element');
      const j = text.indexOf(']]>', i);
      if (j < 0) fail('this CDATA section is not closed');
      top.children.push(text.slice(i + 9, j));
      i = j + 3;
    } else if (text.startsWith('<?', i)) {
      skipTo('?>', 'processing instruction');
    } else if (text.startsWith('<!', i)) {
      skipTo('>', 'declaration');
    } else if (text.startsWith('</', i)) {
      const m = NAME.exec(text.slice(i + 2)) ?? fail('expected an element name after `</`');
      const name = m[0];
      if (top === doc) fail(`\`</${name}>\` closes no element`);
      if (name !== top.name) fail(`\`</${name}>\` closes \`<${top.name}>\``);
      i += 2 + name.length;
      while (i < n && /\s/.test(text[i])) i++;
      if (text[i] !== '>') fail('expected `>`');
      i++;
      stack.pop();
    } else {
      const start = i;
      const m = NAME.exec(text.slice(i + 1)) ?? fail('expected an element name after `<` (write a literal < as &lt;)');
      const el = new XmlElement(m[0]);
      if (top === doc && doc.elements().length > 0) fail('a second root element');
      i += 1 + m[0].length;
      for (;;) {
        const before = i;
        while (i < n && /\s/.test(text[i])) i++;
        if (text.startsWith('/>', i)) {
          i += 2;
          top.children.push(el);
          break;
        }
        if (text[i] === '>') {
          i++;
          top.children.push(el);
          stack.push(el);
          break;
        }
        if (i >= n) fail(`the tag <${el.name}> is not closed`, start);
        if (i === before) fail('expected a space before the attribute');
        const a = NAME.exec(text.slice(i)) ?? fail(`unexpected \`${text[i]}\` in the tag <${el.name}>`);
        const attr = a[0];
        i += attr.length;
        while (i < n && /\s/.test(text[i])) i++;
        if (text[i] !== '=') fail(`expected \`=\` after the attribute ${attr}`);
        i++;
        while (i < n && /\s/.test(text[i])) i++;
        const q = text[i];
        if (q !== '"' && q !== "'") fail(`the value of the attribute ${attr} must be in quotes`);
        const close = text.indexOf(q, i + 1);
        if (close < 0) fail(`the value of the attribute ${attr} is not closed`);
        if (attr in el.attributes) fail(`the attribute ${attr} is repeated`);
        el.attributes[attr] = decode(text.slice(i + 1, close), i + 1);
        i = close + 1;
      }
    }
  }
  if (stack.length > 1) fail(`<${stack[stack.length - 1].name}> is not closed`, n);
  if (doc.elements().length === 0) fail('the document has no element', 0);
  return doc;
}
