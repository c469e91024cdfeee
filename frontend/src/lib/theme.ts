// The site's colour theme. The inline script in templates/base.html sets `data-theme` on <html>
// before the first paint, by the same rule as `initialTheme` (the reader's stored choice, else
// the system's preference); this module owns the theme from then on. Keep the two in step.

import { LightDarkSetting, type LightDark } from './lightDark';

export type Theme = LightDark;

/** The localStorage key of the reader's choice (also read by the inline script of base.html). */
export const THEME_STORAGE_KEY = 'dg-theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function darkQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

/** The system's preference. */
export function systemTheme(): Theme {
  return darkQuery()?.matches ? 'dark' : 'light';
}

// A choice equal to the system's preference is not stored, so the site follows the system again
// (choosing light, then dark again on a dark system, returns to "as the system").
const setting = new LightDarkSetting({ storageKey: THEME_STORAGE_KEY, attribute: 'data-theme', fallback: systemTheme });

/** The reader's stored choice, if any. */
export function storedTheme(): Theme | null {
  return setting.stored();
}

/** The theme a page opens with: the stored choice, else the system's preference. */
export function initialTheme(): Theme {
  return setting.initial();
}

/** The theme on screen: the attribute the inline script (or `setTheme`) wrote. */
export function currentTheme(doc: Document = document): Theme {
  return setting.current(doc);
}

/** Shows `theme` and remembers it, unless it is the system's preference. */
export function setTheme(theme: Theme): void {
  setting.set(theme);
}

/**
 * Calls `onChange` whenever the theme on screen changes: by `setTheme`, by the system while no
 * choice is stored, or by a choice made in another tab. Returns the unsubscribe function.
 */
export function subscribeTheme(onChange: () => void): () => void {
  const unsubscribe = setting.subscribe(onChange);
  const query = darkQuery();
  const follow = () => { setting.follow(); };
  // Safari before 14 has no addEventListener on a MediaQueryList.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  query?.addEventListener?.('change', follow);
  return () => {
    unsubscribe();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    query?.removeEventListener?.('change', follow);
  };
}
