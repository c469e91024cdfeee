// The site's colour theme. The inline script in templates/base.html sets `data-theme` on <html>
// before the first paint, by the same rule as `initialTheme` (the reader's stored choice, else
// the system's preference); this module owns the theme from then on. Keep the two in step.

export type Theme = 'light' | 'dark';

/** The localStorage key of the reader's choice (also read by the inline script of base.html). */
export const THEME_STORAGE_KEY = 'dg-theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function isTheme(v: unknown): v is Theme {
  return v === 'light' || v === 'dark';
}

function storage(): Storage | null {
  try {
    // Missing outside browsers, whatever the DOM types say.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The reader's stored choice, if any (storage may be unavailable, as in private modes). */
export function storedTheme(store: Storage | null = storage()): Theme | null {
  try {
    const v = store?.getItem(THEME_STORAGE_KEY);
    return isTheme(v) ? v : null;
  } catch {
    return null;
  }
}

function darkQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

/** The system's preference. */
export function systemTheme(): Theme {
  return darkQuery()?.matches ? 'dark' : 'light';
}

/** The theme a page opens with: the stored choice, else the system's preference. */
export function initialTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

/** The theme on screen: the attribute the inline script (or `setTheme`) wrote. */
export function currentTheme(doc: Document = document): Theme {
  const v = doc.documentElement.getAttribute('data-theme');
  return isTheme(v) ? v : initialTheme();
}

const listeners = new Set<() => void>();

function apply(theme: Theme, doc: Document = document) {
  if (doc.documentElement.getAttribute('data-theme') === theme) return;
  doc.documentElement.setAttribute('data-theme', theme);
  for (const l of listeners) l();
}

/**
 * Shows `theme` and remembers it. A choice equal to the system's preference is not stored, so
 * the site follows the system again (choosing light, then dark again on a dark system, returns
 * to "as the system").
 */
export function setTheme(theme: Theme): void {
  const store = storage();
  try {
    if (theme === systemTheme()) store?.removeItem(THEME_STORAGE_KEY);
    else store?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Without storage the choice lasts for this page.
  }
  apply(theme);
}

/**
 * Calls `onChange` whenever the theme on screen changes: by `setTheme`, by the system while no
 * choice is stored, or by a choice made in another tab. Returns the unsubscribe function.
 */
export function subscribeTheme(onChange: () => void): () => void {
  listeners.add(onChange);
  const query = darkQuery();
  const follow = () => { apply(initialTheme()); };
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === THEME_STORAGE_KEY) follow();
  };
  // Safari before 14 has no addEventListener on a MediaQueryList.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  query?.addEventListener?.('change', follow);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    query?.removeEventListener?.('change', follow);
    window.removeEventListener('storage', onStorage);
  };
}
