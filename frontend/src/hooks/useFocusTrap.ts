import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Whether `e` is rendered (where the browser can tell: not in jsdom). */
function rendered(e: HTMLElement): boolean {
  return typeof e.checkVisibility === 'function' ? e.checkVisibility({ visibilityProperty: true }) : true;
}

/** The elements of `el` that Tab reaches, in order: not hidden, not taken out of the Tab order. */
export function focusablesIn(el: HTMLElement): HTMLElement[] {
  return Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (e) => !e.hasAttribute('hidden') && !e.closest('[hidden]') && e.getAttribute('tabindex') !== '-1' && rendered(e),
  );
}

/**
 * Keeps keyboard focus inside `el` until the returned function is called: focus moves in (to
 * `initialFocus()`, else the first focusable element), Tab and Shift+Tab cycle through the
 * focusable elements, Escape calls `onEscape`, and focus returns to `returnTo` (by default,
 * where it was) at the end.
 */
export function trapFocus(el: HTMLElement, onEscape: () => void, returnTo: HTMLElement | null = null, initialFocus?: () => HTMLElement | null): () => void {
  const opener = returnTo ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
  (initialFocus?.() ?? focusablesIn(el).at(0) ?? el).focus();

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onEscape();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = focusablesIn(el);
    if (items.length === 0) {
      e.preventDefault();
      el.focus();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !el.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !el.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  };
  const onFocusIn = (e: FocusEvent) => {
    if (e.target instanceof Node && !el.contains(e.target)) (focusablesIn(el)[0] ?? el).focus();
  };
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('focusin', onFocusIn);
  return () => {
    document.removeEventListener('keydown', onKeyDown, true);
    document.removeEventListener('focusin', onFocusIn);
    if (opener && opener.isConnected) opener.focus();
  };
}

/** trapFocus for a React component, while `active`. */
export function useFocusTrap(
  ref: RefObject<HTMLElement>,
  active: boolean,
  onEscape: () => void,
  returnTo: HTMLElement | null = null,
  initialFocus?: () => HTMLElement | null,
): void {
  const escape = useRef(onEscape);
  escape.current = onEscape;
  const initial = useRef(initialFocus);
  initial.current = initialFocus;

  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    return trapFocus(el, () => { escape.current(); }, returnTo, initial.current);
  }, [active, ref, returnTo]);
}
