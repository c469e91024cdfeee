import type { MouseEvent } from 'react';
import { useScrolledPast } from '../hooks/useScrolledPast';
import { t } from '../i18n';
import { cx } from '../lib/cx';

/** How far down (in window heights) the button appears. */
export const BACK_TO_TOP_SCREENS = 1.5;

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The round "Back to top" button at the bottom corner, shown once the reader has scrolled more
 * than one and a half windows down. From the keyboard it also moves focus to the page's title,
 * so Tab goes on from the top.
 */
export function BackToTop() {
  const shown = useScrolledPast(BACK_TO_TOP_SCREENS);
  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    let fromKeyboard = false;
    try {
      fromKeyboard = e.currentTarget.matches(':focus-visible');
    } catch {
      // A browser without :focus-visible: focus stays.
    }
    window.scrollTo({ top: 0, behavior: reducedMotion() ? 'auto' : 'smooth' });
    const title = document.querySelector<HTMLElement>('#dg-main h1');
    if (fromKeyboard && title) {
      title.setAttribute('tabindex', '-1');
      title.focus({ preventScroll: true });
    }
  };
  return <button type="button" className={cx('dg-to-top', shown && 'is-shown')} aria-label={t('toTop.label')} onClick={onClick} />;
}
