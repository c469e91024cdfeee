import { forwardRef, type ButtonHTMLAttributes, type MouseEvent } from 'react';
import { t } from '../i18n';
import { cx } from '../lib/cx';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Shows a spinner; the button ignores clicks but keeps its place in the tab order. */
  loading?: boolean;
  variant?: 'primary' | 'secondary' | 'quiet';
}

/**
 * A button. While `loading` it shows a spinner and is inert (aria-busy, clicks ignored); when
 * `disabled` it is dimmed and ignores clicks.
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { loading = false, disabled = false, variant = 'secondary', className, onClick, children, type = 'button', ...rest },
  ref,
) {
  const handle = (e: MouseEvent<HTMLButtonElement>) => {
    if (loading || disabled) {
      e.preventDefault();
      return;
    }
    onClick?.(e);
  };
  return (
    <button
      ref={ref}
      type={type}
      className={cx('dg-button', `dg-button-${variant}`, loading && 'is-loading', className)}
      disabled={disabled}
      aria-busy={loading || undefined}
      aria-disabled={loading || undefined}
      onClick={handle}
      {...rest}
    >
      {loading && (
        <span className="dg-spinner" role="presentation">
          <span className="dg-visually-hidden">{t('button.loading')}</span>
        </span>
      )}
      <span className="dg-button-label">{children}</span>
    </button>
  );
});
