// The background of the code boxes (spec §3 codeSnippetBackgroundStyle, §4): light or dark,
// light by default, one choice for every box, remembered like the colour theme (a strictly
// necessary setting, see the consent dialog). It is independent of the site's theme: inside a
// box, the box's choice wins. The inline script in templates/base.html sets `data-code-bg` on
// <html> before the first paint by the same rule as `initialCodeBackground`; this module owns it
// from then on. Keep the two in step.

export type CodeSnippetBackgroundStyle = 'light' | 'dark';

/** The localStorage key of the reader's choice (also read by the inline script of base.html). */
export const CODE_BACKGROUND_STORAGE_KEY = 'dg-code-bg';
/** The attribute of <html> the style sheet reads (theme.css). */
export const CODE_BACKGROUND_ATTRIBUTE = 'data-code-bg';
export const DEFAULT_CODE_BACKGROUND: CodeSnippetBackgroundStyle = 'light';

function isStyle(v: unknown): v is CodeSnippetBackgroundStyle {
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
export function storedCodeBackground(store: Storage | null = storage()): CodeSnippetBackgroundStyle | null {
  try {
    const v = store?.getItem(CODE_BACKGROUND_STORAGE_KEY);
    return isStyle(v) ? v : null;
  } catch {
    return null;
  }
}

/** The background a page opens with: the stored choice, else light. */
export function initialCodeBackground(): CodeSnippetBackgroundStyle {
  return storedCodeBackground() ?? DEFAULT_CODE_BACKGROUND;
}

/** The background on screen: the attribute the inline script (or `setCodeBackground`) wrote. */
export function currentCodeBackground(doc: Document = document): CodeSnippetBackgroundStyle {
  const v = doc.documentElement.getAttribute(CODE_BACKGROUND_ATTRIBUTE);
  return isStyle(v) ? v : initialCodeBackground();
}

const listeners = new Set<() => void>();

function apply(style: CodeSnippetBackgroundStyle, doc: Document = document) {
  if (doc.documentElement.getAttribute(CODE_BACKGROUND_ATTRIBUTE) === style) return;
  doc.documentElement.setAttribute(CODE_BACKGROUND_ATTRIBUTE, style);
  for (const l of listeners) l();
}

/** Shows `style` in every box and remembers it (the default, light, is stored as no entry). */
export function setCodeBackground(style: CodeSnippetBackgroundStyle): void {
  const store = storage();
  try {
    if (style === DEFAULT_CODE_BACKGROUND) store?.removeItem(CODE_BACKGROUND_STORAGE_KEY);
    else store?.setItem(CODE_BACKGROUND_STORAGE_KEY, style);
  } catch {
    // Without storage the choice lasts for this page.
  }
  apply(style);
}

/** Switches every box between light and dark. */
export function toggleCodeBackground(): void {
  setCodeBackground(currentCodeBackground() === 'dark' ? 'light' : 'dark');
}

/**
 * Calls `onChange` whenever the background on screen changes: by `setCodeBackground`, or by a
 * choice made in another tab. Returns the unsubscribe function.
 */
export function subscribeCodeBackground(onChange: () => void): () => void {
  listeners.add(onChange);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === CODE_BACKGROUND_STORAGE_KEY) apply(initialCodeBackground());
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}
