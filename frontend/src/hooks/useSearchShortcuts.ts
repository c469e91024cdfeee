import { useEffect, useRef } from 'react';

/** Inputs whose keys are not text: `/` pressed there is still the shortcut. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}

/**
 * Opens the search with `/` (unless the reader is typing in a field) and with Ctrl+K or Cmd+K.
 * `open` says whether it opened; the key keeps its default action when it did not.
 */
export function useSearchShortcuts(open: () => boolean): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.altKey) return;
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !typingIn(e.target);
      const k = e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.shiftKey;
      if ((slash || k) && latest.current()) e.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => { document.removeEventListener('keydown', onKeyDown); };
  }, []);
}
