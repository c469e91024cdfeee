import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { MENU_CLOSE_MS, MENU_EXPAND_MAX_PX, MENU_OPEN_MS } from '../constants';

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The height animation of a collapsible block (menu sections). Opening grows max-height from 0
 * up to 1500 px in 0.6 s and then lets it go; closing shrinks it to 0 in 0.4 s and then
 * removes the block. The durations live in the style sheet (transition on max-height); the
 * timers here only end the phases, in case no transitionend arrives.
 *
 * Returns whether the block is to be rendered, and a ref for it.
 */
export function useCollapse<T extends HTMLElement>(open: boolean): { rendered: boolean; ref: RefObject<T> } {
  const ref = useRef<T>(null);
  const [rendered, setRendered] = useState(open);
  const first = useRef(true);
  if (open && !rendered) setRendered(true);

  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const el = ref.current;
    if (!el) return;
    if (reducedMotion()) {
      el.style.maxHeight = '';
      if (!open) setRendered(false);
      return;
    }
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      el.removeEventListener('transitionend', onEnd);
      window.clearTimeout(timer);
      if (open) el.style.maxHeight = '';
      else setRendered(false);
    };
    const onEnd = (e: TransitionEvent) => {
      if (e.target === el && e.propertyName === 'max-height') finish();
    };
    const start = open ? '0px' : `${Math.min(el.scrollHeight, MENU_EXPAND_MAX_PX)}px`;
    const end = open ? `${MENU_EXPAND_MAX_PX}px` : '0px';
    el.style.maxHeight = start;
    void el.offsetHeight; // commit the start height so the transition runs from it
    el.style.maxHeight = end;
    el.addEventListener('transitionend', onEnd);
    const timer = window.setTimeout(finish, (open ? MENU_OPEN_MS : MENU_CLOSE_MS) + 50);
    return () => {
      if (!done) {
        done = true;
        el.removeEventListener('transitionend', onEnd);
        window.clearTimeout(timer);
      }
    };
  }, [open]);

  return { rendered, ref };
}
