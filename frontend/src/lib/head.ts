// The parts of a page's <head> that describe the page rather than the site: its description,
// canonical address, the same page in other languages (`hreflang`), Markdown twin, OpenGraph and Twitter card meta. The server writes them into every page;
// after a client-side navigation the app puts the new page's in place of the old ones, so the
// document always describes the page on screen.

/** A `<meta>` or `<link>` of the head, by its attributes in document order. */
export interface HeadTag {
  tag: 'meta' | 'link';
  attrs: [string, string][];
}

const MANAGED =
  'meta[name="description"], link[rel="canonical"], link[rel="alternate"][hreflang], link[rel="alternate"][type="text/markdown"], meta[property^="og:"], meta[name^="twitter:"]';

/** The page-describing tags of `doc`'s head, in order. */
export function readHead(doc: Document): HeadTag[] {
  // A document without a <head> element (an XML one, say) has none.
  const head = doc.head as HTMLHeadElement | null;
  if (!head) return [];
  return Array.from(head.querySelectorAll(MANAGED)).map((el) => ({
    tag: el.tagName.toLowerCase() === 'link' ? 'link' : 'meta',
    attrs: Array.from(el.attributes).map((a): [string, string] => [a.name, a.value]),
  }));
}

function same(a: HeadTag[], b: HeadTag[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Puts `tags` in place of the page-describing tags of `doc`'s head (where the first of them
 * was, else at the end of the head). Nothing changes when they are the same already.
 */
export function applyHead(tags: HeadTag[], doc: Document = document): void {
  const head = doc.head as HTMLHeadElement | null;
  if (!head || same(readHead(doc), tags)) return;
  const old = Array.from(head.querySelectorAll(MANAGED));
  const made = tags.map(({ tag, attrs }) => {
    const el = doc.createElement(tag);
    for (const [name, value] of attrs) el.setAttribute(name, value);
    return el;
  });
  const anchor = old.at(0);
  if (anchor) anchor.before(...made);
  else head.append(...made);
  for (const el of old) el.remove();
}
