import { useEffect, useRef, type RefObject } from 'react';

/** Calls `onDismiss` on a press outside `ref` (mouse or touch) while `open`. */
export function useDismiss(ref: RefObject<HTMLElement>, open: boolean, onDismiss: () => void): void {
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  useEffect(() => {
    if (!open) return;
    const onPress = (e: Event) => {
      const el = ref.current;
      if (el && e.target instanceof Node && !el.contains(e.target)) dismiss.current();
    };
    document.addEventListener('mousedown', onPress);
    document.addEventListener('touchstart', onPress, { passive: true });
    return () => {
      document.removeEventListener('mousedown', onPress);
      document.removeEventListener('touchstart', onPress);
    };
  }, [open, ref]);
}
