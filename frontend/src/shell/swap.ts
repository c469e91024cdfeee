// A client-side navigation puts the next page's shell in place of this one's, as the server
// rendered it (templates/page.html and the site's own overrides alike): every region of
// `#dg-root`, the body's layout class, the page data and the head that describes the page.
// Only the search keeps its element (and so its state) in the new top bar.

import { readPageData } from '../data/pageData';
import { setLocaleStrings } from '../i18n';
import { applyHead, readHead } from '../lib/head';

/** The element the search is rendered into, inside the top bar; kept across pages. */
export const SEARCH_SLOT = 'dg-search';

/**
 * The element of `root` that keeps the search: the template's slot, else one made before the
 * theme switch (a top bar of a site's own templates that has none).
 */
export function searchSlot(doc: Document = document): HTMLElement | null {
  const existing = doc.getElementById(SEARCH_SLOT);
  if (existing) return existing;
  const bar = doc.getElementById('dg-topbar');
  if (!bar) return null;
  const slot = doc.createElement('div');
  slot.id = SEARCH_SLOT;
  slot.className = 'dg-search-slot';
  placeSlot(bar, slot);
  return slot;
}

/** Puts the search into a top bar without a slot: before the theme switch, else at its end. */
function placeSlot(bar: Element, slot: HTMLElement): void {
  const toggle = bar.querySelector(':scope > .dg-theme-toggle');
  if (toggle) toggle.before(slot);
  else bar.append(slot);
}

/** The href of the focused link inside `region`, to find it again after the swap. */
function focusedLink(doc: Document): { region: string; href: string } | null {
  const at = doc.activeElement;
  if (!(at instanceof HTMLAnchorElement)) return null;
  const region = at.closest('[id]');
  const href = at.getAttribute('href');
  return region && href !== null ? { region: region.id, href } : null;
}

/**
 * Swaps `next`'s page into `doc`. Returns false, changing nothing, when `next` has no shell to
 * take (the caller loads it as a document instead).
 */
export function swapPage(doc: Document, next: Document): boolean {
  const root = doc.getElementById('dg-root');
  const nextRoot = next.getElementById('dg-root');
  if (!root || !nextRoot) return false;
  const focus = focusedLink(doc);
  const slot = doc.getElementById(SEARCH_SLOT);
  const menuScroll = doc.getElementById('dg-menu')?.scrollTop ?? 0;

  const fresh = doc.importNode(nextRoot, true);
  if (slot) {
    const place = fresh.querySelector(`#${SEARCH_SLOT}`);
    const bar = fresh.querySelector('#dg-topbar');
    if (place) place.replaceWith(slot);
    else if (bar) placeSlot(bar, slot);
  }
  root.replaceChildren(...Array.from(fresh.childNodes));
  for (const attr of Array.from(fresh.attributes)) if (attr.name !== 'id') root.setAttribute(attr.name, attr.value);
  doc.body.className = next.body.className;
  // Another locale's page: its language, its direction, its texts.
  const html = doc.documentElement;
  const nextHtml = next.documentElement;
  for (const name of ['lang', 'dir']) {
    const value = nextHtml.getAttribute(name);
    if (value === null) html.removeAttribute(name);
    else html.setAttribute(name, value);
  }

  const data = doc.getElementById('dg-page-data');
  const nextData = next.getElementById('dg-page-data');
  if (data && nextData) data.textContent = nextData.textContent;
  setLocaleStrings(readPageData(doc)?.site.strings);
  doc.title = next.title;
  applyHead(readHead(next), doc);

  const menu = doc.getElementById('dg-menu');
  if (menu) menu.scrollTop = menuScroll;
  if (focus) {
    const region = doc.getElementById(focus.region);
    const again = region ? Array.from(region.querySelectorAll('a[href]')).find((a) => a.getAttribute('href') === focus.href) : null;
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }
  return true;
}
