import { cloneElement, useEffect, useId, useState, type FocusEvent, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { cx } from '../lib/cx';

interface TriggerProps {
  'aria-describedby'?: string;
  onMouseEnter?: (e: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (e: MouseEvent<HTMLElement>) => void;
  onFocus?: (e: FocusEvent<HTMLElement>) => void;
  onBlur?: (e: FocusEvent<HTMLElement>) => void;
}

export interface TooltipProps {
  content: ReactNode;
  /** One element, which the tooltip describes (aria-describedby). */
  children: ReactElement<TriggerProps>;
  placement?: 'top' | 'bottom';
}

/**
 * A short description shown while its trigger is hovered or focused, at most 300 px wide
 * (styles). Escape hides it. The trigger names it with aria-describedby, so screen readers
 * read it even while it is hidden.
 */
export function Tooltip({ content, children, placement = 'top' }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const own = children.props;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('keydown', onKey); };
  }, [open]);

  const trigger = cloneElement(children, {
    'aria-describedby': cx(own['aria-describedby'], id),
    onMouseEnter: (e: MouseEvent<HTMLElement>) => {
      own.onMouseEnter?.(e);
      setOpen(true);
    },
    onMouseLeave: (e: MouseEvent<HTMLElement>) => {
      own.onMouseLeave?.(e);
      setOpen(false);
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      own.onFocus?.(e);
      setOpen(true);
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      own.onBlur?.(e);
      setOpen(false);
    },
  });

  return (
    <span className="dg-tooltip-anchor">
      {trigger}
      <span role="tooltip" id={id} className={cx('dg-tooltip', `dg-tooltip-${placement}`)} hidden={!open}>
        {content}
      </span>
    </span>
  );
}
