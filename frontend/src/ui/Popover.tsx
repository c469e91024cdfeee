import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { POPOVER_AUTO_HIDE_MS, POPOVER_DELAYED_HIDE_MS } from '../constants';
import { useDismiss } from '../hooks/useDismiss';
import { cx } from '../lib/cx';

export interface PopoverProps {
  /** What the reader clicks to open the popover. */
  header: ReactNode;
  children: ReactNode;
  /** Close 50 ms after a click on the content (e.g. when it holds links or actions). */
  closeOnContentClick?: boolean;
  /** Close 3 s after the mouse leaves the popover. */
  autoHide?: boolean;
  className?: string;
}

/**
 * A panel that opens on a click on its header and closes on a click outside, on Escape, and
 * optionally shortly after a click on its content or a while after the mouse leaves.
 */
export function Popover({ header, children, closeOnContentClick = false, autoHide = false, className }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const id = useId();

  const clearTimer = useCallback(() => {
    if (timer.current !== undefined) window.clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  const closeAfter = useCallback(
    (ms: number) => {
      clearTimer();
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        setOpen(false);
      }, ms);
    },
    [clearTimer],
  );
  const close = useCallback(() => {
    clearTimer();
    setOpen(false);
  }, [clearTimer]);

  useDismiss(root, open, close);
  useEffect(() => clearTimer, [clearTimer]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('keydown', onKey); };
  }, [open, close]);

  return (
    <div
      ref={root}
      className={cx('dg-popover', open && 'is-open', className)}
      onMouseLeave={autoHide && open ? () => { closeAfter(POPOVER_AUTO_HIDE_MS); } : undefined}
      onMouseEnter={autoHide ? clearTimer : undefined}
    >
      <button
        type="button"
        className="dg-popover-header"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          clearTimer();
          setOpen((o) => !o);
        }}
      >
        {header}
      </button>
      <div id={id} className="dg-popover-content" hidden={!open} onClick={closeOnContentClick ? () => { closeAfter(POPOVER_DELAYED_HIDE_MS); } : undefined}>
        {children}
      </div>
    </div>
  );
}
