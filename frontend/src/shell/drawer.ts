// The menu as a drawer on narrow screens, on the server's markup: the top bar's menu button
// opens it, its close button, a backdrop, Escape and any link in it close it. While open the
// rest of the page is inert and does not scroll, focus moves in (to the current page's link)
// and stays in, and returns to the button that opened it.

import { trapFocus } from '../hooks/useFocusTrap';
import { revealCurrent } from './menu';

/** Where the menu stops being a drawer (styles/shell.css: the desktop layout). */
export const DRAWER_QUERY = '(max-width: 1023.98px)';

/**
 * Makes everything but `el` (and the elements `keep` accepts) inert, level by level up to the
 * body; returns the undo. Elements already inert are left as they are.
 */
export function inertOutside(el: HTMLElement, keep: (e: Element) => boolean = () => false): () => void {
  const made: Element[] = [];
  for (let node: HTMLElement | null = el; node && node !== document.body; node = node.parentElement) {
    const parent: HTMLElement | null = node.parentElement;
    if (!parent) break;
    for (const sibling of Array.from<Element>(parent.children)) {
      if (sibling === node || keep(sibling) || sibling.hasAttribute('inert') || sibling.tagName === 'SCRIPT') continue;
      sibling.setAttribute('inert', '');
      made.push(sibling);
    }
  }
  return () => {
    for (const e of made) e.removeAttribute('inert');
  };
}

const keepBackdrop = (e: Element) => e.classList.contains('dg-menu-backdrop');

export class Drawer {
  private undo: (() => void) | null = null;
  private readonly narrow = typeof window.matchMedia === 'function' ? window.matchMedia(DRAWER_QUERY) : null;

  constructor() {
    // Safari before 14 has no addEventListener on a MediaQueryList.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    this.narrow?.addEventListener?.('change', () => {
      if (!this.narrow?.matches) this.close();
    });
  }

  get isOpen(): boolean {
    return this.undo !== null;
  }

  /** Handles a click in the document; true when it was the drawer's. */
  onClick(e: MouseEvent): boolean {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return false;
    const button = target.closest<HTMLElement>('.dg-menu-button');
    if (button) {
      this.open(button);
      return true;
    }
    if (this.isOpen && (target.closest('.dg-menu-close, .dg-menu-backdrop') || target.closest('#dg-menu a[href]'))) {
      this.close();
      return !target.closest('a[href]');
    }
    return false;
  }

  open(opener: HTMLElement): void {
    const nav = document.getElementById('dg-menu');
    if (this.isOpen || !nav) return;
    nav.classList.add('is-open');
    const backdrop = document.createElement('div');
    backdrop.className = 'dg-menu-backdrop';
    backdrop.setAttribute('aria-hidden', 'true');
    nav.after(backdrop);
    for (const b of Array.from(document.querySelectorAll('.dg-menu-button'))) b.setAttribute('aria-expanded', 'true');
    // The page is inert before focus moves in, and no longer when it returns.
    const inert = inertOutside(nav, keepBackdrop);
    const root = document.documentElement;
    root.classList.add('dg-drawer-open');
    let release: () => void = () => undefined;
    this.undo = () => {
      inert();
      root.classList.remove('dg-drawer-open');
      nav.classList.remove('is-open');
      backdrop.remove();
      for (const b of Array.from(document.querySelectorAll('.dg-menu-button'))) b.setAttribute('aria-expanded', 'false');
      release();
    };
    // The current page's item in view first (centred), so focusing it moves nothing more.
    revealCurrent(nav);
    release = trapFocus(nav, () => { this.close(); }, opener, () => nav.querySelector<HTMLElement>('[aria-current="page"]'));
  }

  close(): void {
    const undo = this.undo;
    this.undo = null;
    undo?.();
  }
}
