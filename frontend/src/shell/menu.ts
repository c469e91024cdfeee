// The left menu's behaviour, on the markup the server rendered (templates/macros.html,
// `left_menu` and `menu_item`): sections open and close (animating their height), from the
// pointer and from the keyboard. The server inlines only the branch that leads to the page; the
// list of a closed section comes from a page that shows it open, as the server rendered it
// there, so the menu has one definition of its markup.

import { MENU_CLOSE_MS, MENU_EXPAND_MAX_PX, MENU_OPEN_MS } from '../constants';
import { SHARD_INDEX, fetchShard, fetchShardIndex } from '../data/nav';
import type { PageResult } from '../data/pages';
import { stripBase, withBase } from '../lib/routes';
import type { NavNode } from '../types';

export interface MenuOptions {
  base: string;
  /** Loads a route's page (shared with navigation, so each page is fetched once). */
  load: (route: string) => Promise<PageResult>;
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Scrolls the menu's own scroll box so the current page's item shows, about centred, when it is
 * out of view (a deep page far down a long menu). Only the menu moves, never the page: nothing
 * happens when the menu is not a scroll box of its own (no scripts, a phone's static menu).
 */
export function revealCurrent(nav: HTMLElement): void {
  const item = nav.querySelector<HTMLElement>('[aria-current="page"]');
  if (!item || nav.scrollHeight <= nav.clientHeight) return;
  const overflow = getComputedStyle(nav).overflowY;
  if (overflow !== 'auto' && overflow !== 'scroll') return;
  const box = nav.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  const top = box.top + nav.clientTop;
  if (at.top >= top && at.bottom <= top + nav.clientHeight) return;
  nav.scrollTop += at.top - top - (nav.clientHeight - at.height) / 2;
}

/** The nested list of a section item, if shown. */
function listOf(li: Element): HTMLUListElement | null {
  return li.querySelector<HTMLUListElement>(':scope > ul.dg-menu-list');
}

function controlOf(li: Element): HTMLElement | null {
  return li.querySelector<HTMLElement>(':scope > .dg-menu-caret, :scope > .dg-menu-toggle');
}

/** The first page of a subtree, in menu order. */
export function firstPage(node: NavNode): NavNode | null {
  for (const child of node.children) {
    if (child.external) continue;
    if (child.isPage) return child;
    const inner = firstPage(child);
    if (inner) return inner;
  }
  return null;
}

function findNode(nodes: readonly NavNode[], id: string): NavNode | null {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = findNode(n.children, id);
    if (inner) return inner;
  }
  return null;
}

/**
 * A section's list taken from another page's menu, as a closed branch of this one: nothing in
 * it is current or active, and the sections it shows open (on the way to that page) are closed,
 * their lists kept in `stash` for when the reader opens them.
 */
export function adoptBranch(list: HTMLUListElement, stash: Map<string, HTMLUListElement>): HTMLUListElement {
  const ul = document.importNode(list, true);
  for (const el of Array.from(ul.querySelectorAll('[aria-current]'))) el.removeAttribute('aria-current');
  for (const el of Array.from(ul.querySelectorAll('.is-active'))) el.classList.remove('is-active');
  // Innermost first, so each stashed list is already closed inside.
  const open = Array.from(ul.querySelectorAll<HTMLLIElement>('li.dg-menu-section.is-open')).reverse();
  for (const li of open) {
    li.classList.remove('is-open');
    controlOf(li)?.setAttribute('aria-expanded', 'false');
    const inner = listOf(li);
    const id = li.getAttribute('data-id');
    if (inner) {
      inner.remove();
      if (id && !stash.has(id)) stash.set(id, inner);
    }
  }
  return ul;
}

/** The menu's sections: opening, closing, the lists loaded on demand. Lives across pages. */
export class Menu {
  private readonly options: MenuOptions;
  /** Lists of sections that are closed (or were loaded), by nav id. */
  private readonly stash = new Map<string, HTMLUListElement>();
  /** Sections the reader opened by hand: they stay open on the next pages. */
  private readonly opened = new Set<string>();
  private index: Promise<{ shards: { id: string; file: string }[] }> | null = null;
  private readonly running = new WeakMap<HTMLElement, () => void>();

  constructor(options: MenuOptions) {
    this.options = options;
  }

  /** Handles a click in the document; true when it was the menu's. */
  onClick(e: MouseEvent): boolean {
    const target = e.target instanceof Element ? e.target : null;
    const control = target?.closest('#dg-menu .dg-menu-caret, #dg-menu .dg-menu-toggle');
    const li = control?.parentElement;
    if (!li?.matches('li.dg-menu-section')) return false;
    this.toggle(li);
    return true;
  }

  /** ArrowRight on a section's link opens it, ArrowLeft closes it (its caret is out of the Tab order). */
  onKeyDown(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const a = e.target instanceof Element ? e.target.closest('#dg-menu li.dg-menu-section > a') : null;
    const li = a?.parentElement;
    if (!li) return;
    const open = li.classList.contains('is-open');
    if ((e.key === 'ArrowRight') === open) return;
    e.preventDefault();
    this.toggle(li);
  }

  toggle(li: HTMLElement): void {
    const id = li.getAttribute('data-id') ?? '';
    const open = !li.classList.contains('is-open');
    if (open) this.opened.add(id);
    else this.opened.delete(id);
    this.setOpen(li, open, true);
  }

  /** After a new page's menu is in place: the sections the reader opened by hand open again. */
  restore(nav: HTMLElement): void {
    for (const id of this.opened) {
      const li = nav.querySelector<HTMLElement>(`li.dg-menu-section[data-id="${CSS.escape(id)}"]`);
      if (li && !li.classList.contains('is-open')) this.setOpen(li, true, false);
    }
  }

  private setOpen(li: HTMLElement, open: boolean, animate: boolean): void {
    li.classList.toggle('is-open', open);
    controlOf(li)?.setAttribute('aria-expanded', String(open));
    const id = li.getAttribute('data-id') ?? '';
    const shown = listOf(li);
    if (!open) {
      if (shown) this.collapse(li, shown, animate);
      return;
    }
    if (shown) {
      this.expand(shown, animate);
      return;
    }
    const stashed = this.stash.get(id);
    if (stashed) {
      li.append(stashed);
      this.expand(stashed, animate);
      return;
    }
    this.fetchList(li, id).then(
      (list) => {
        // Still open, and not filled meanwhile.
        if (!list || !li.classList.contains('is-open') || listOf(li)) return;
        this.stash.set(id, list);
        li.append(list);
        this.expand(list, animate);
      },
      () => undefined,
    );
  }

  private expand(ul: HTMLElement, animate: boolean): void {
    this.transition(ul, true, animate, () => undefined);
  }

  private collapse(li: HTMLElement, ul: HTMLUListElement, animate: boolean): void {
    const id = li.getAttribute('data-id') ?? '';
    this.transition(ul, false, animate, () => {
      if (li.classList.contains('is-open')) return;
      ul.remove();
      if (id) this.stash.set(id, ul);
    });
  }

  /**
   * Opening grows max-height from 0 up to 1500 px in 0.6 s and then lets it go; closing shrinks
   * it to 0 in 0.4 s. The durations live in the style sheet; the timer only ends the phase in
   * case no transitionend arrives.
   */
  private transition(el: HTMLElement, open: boolean, animate: boolean, done: () => void): void {
    this.running.get(el)?.();
    if (!animate || reducedMotion()) {
      el.style.maxHeight = '';
      done();
      return;
    }
    let finished = false;
    const stop = () => {
      finished = true;
      el.removeEventListener('transitionend', onEnd);
      window.clearTimeout(timer);
      this.running.delete(el);
    };
    const finish = () => {
      if (finished) return;
      stop();
      if (open) el.style.maxHeight = '';
      done();
    };
    const onEnd = (e: TransitionEvent) => {
      if (e.target === el && e.propertyName === 'max-height') finish();
    };
    const start = open ? '0px' : `${Math.min(el.scrollHeight, MENU_EXPAND_MAX_PX)}px`;
    el.style.maxHeight = start;
    // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator -- the read forces a layout; void keeps minifiers from dropping it
    void el.offsetHeight; // commit the start height so the transition runs from it
    el.style.maxHeight = open ? `${MENU_EXPAND_MAX_PX}px` : '0px';
    el.addEventListener('transitionend', onEnd);
    const timer = window.setTimeout(finish, (open ? MENU_OPEN_MS : MENU_CLOSE_MS) + 50);
    this.running.set(el, stop);
  }

  /**
   * The list of a closed section, from a page whose menu shows it open: the section's own page,
   * or for a section without one the first page inside it (found in the nav shard of its
   * level-1 section).
   */
  private async fetchList(li: HTMLElement, id: string): Promise<HTMLUListElement | null> {
    const link = li.querySelector<HTMLAnchorElement>(':scope > a[href]');
    const { base, load } = this.options;
    let route: string | null = link ? stripBase(new URL(link.href).pathname, base) : null;
    if (route === null) route = await this.firstPageRoute(li, id);
    if (route === null) return null;
    const result = await load(route);
    if (result.kind !== 'page') return null;
    const list = result.page.doc.querySelector<HTMLUListElement>(`#dg-menu li[data-id="${CSS.escape(id)}"] > ul.dg-menu-list`);
    return list ? adoptBranch(list, this.stash) : null;
  }

  private async firstPageRoute(li: HTMLElement, id: string): Promise<string | null> {
    const { base } = this.options;
    // The level-1 section the item belongs to: its shard holds the whole subtree.
    let top: HTMLElement = li;
    for (let up = li.parentElement?.closest<HTMLElement>('li[data-id]'); up; up = up.parentElement?.closest<HTMLElement>('li[data-id]')) top = up;
    const topId = top.getAttribute('data-id');
    if (!topId) return null;
    this.index ??= fetchShardIndex(withBase(base, SHARD_INDEX)).catch((e: unknown) => {
      this.index = null;
      throw e;
    });
    const file = (await this.index).shards.find((s) => s.id === topId)?.file;
    if (!file) return null;
    const shard = await fetchShard(withBase(base, file));
    const subtree = Array.isArray(shard) ? findNode(shard, id) : findNode([shard], id);
    const page = subtree ? firstPage(subtree) : null;
    return page ? page.url : null;
  }
}
