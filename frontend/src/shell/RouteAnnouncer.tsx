import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { View } from '../hooks/usePageFetch';

/**
 * Tells screen readers which page a client-side navigation opened (a full load announces the
 * new document by itself). The live region sits outside the shell, visually hidden.
 */
export function RouteAnnouncer({ view }: { view: View }) {
  const [message, setMessage] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setMessage(view.kind === 'page' ? view.page.data.title : view.title);
  }, [view]);
  return createPortal(
    <div className="dg-visually-hidden" aria-live="assertive" aria-atomic="true">
      {message}
    </div>,
    document.body,
  );
}
