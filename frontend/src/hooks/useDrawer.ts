import { useCallback, useEffect, useState, type RefObject } from 'react';
import { useFocusTrap } from './useFocusTrap';

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

export interface Drawer {
  open: boolean;
  /** Opens the drawer; focus returns to `opener` when it closes. */
  show(opener: HTMLElement): void;
  close(): void;
}

/**
 * The menu as a drawer on narrow screens: while open the rest of the page is inert and does not
 * scroll, focus moves in (to the current page's link) and stays in, Escape closes it, and focus
 * returns to the button that opened it. It closes on `closeKey` changes (a new page) and when the
 * window grows past the drawer's breakpoint.
 */
export function useDrawer(ref: RefObject<HTMLElement>, closeKey: unknown, keep?: (e: Element) => boolean): Drawer {
  const [state, setState] = useState<{ open: boolean; opener: HTMLElement | null }>({ open: false, opener: null });
  const close = useCallback(() => setState((s) => (s.open ? { ...s, open: false } : s)), []);
  const show = useCallback((opener: HTMLElement) => setState({ open: true, opener }), []);

  useEffect(close, [closeKey, close]);
  useEffect(() => {
    if (!state.open || typeof window.matchMedia !== 'function') return;
    const narrow = window.matchMedia(DRAWER_QUERY);
    const onChange = () => {
      if (!narrow.matches) close();
    };
    narrow.addEventListener?.('change', onChange);
    return () => narrow.removeEventListener?.('change', onChange);
  }, [state.open, close]);
  // Before the focus trap: the page is inert before focus moves in, and no longer when it returns.
  useEffect(() => {
    const el = ref.current;
    if (!state.open || !el) return;
    const undo = inertOutside(el, keep);
    const root = document.documentElement;
    root.classList.add('dg-drawer-open');
    return () => {
      undo();
      root.classList.remove('dg-drawer-open');
    };
  }, [state.open, ref, keep]);
  useFocusTrap(ref, state.open, close, state.opener, () => ref.current?.querySelector<HTMLElement>('[aria-current="page"]') ?? null);

  return { open: state.open, show, close };
}
