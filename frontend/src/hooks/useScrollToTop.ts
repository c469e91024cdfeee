import { useLayoutEffect, useRef } from 'react';
import { safeDecode } from '../lib/routes';

/**
 * Every new page starts at the top, or at its #hash target when the link had one (the
 * target's scroll-margin keeps it clear of the fixed bars). Runs before paint, after the new
 * content is in place.
 */
export function useScrollToTop(viewKey: number, hash: string): void {
  const first = useRef(true);
  const hashRef = useRef(hash);
  hashRef.current = hash;
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const id = hashRef.current ? safeDecode(hashRef.current.slice(1)) : '';
    const target = id ? document.getElementById(id) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [viewKey]);
}
