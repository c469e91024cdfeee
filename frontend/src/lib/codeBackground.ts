// The background of the code boxes (spec §3 codeSnippetBackgroundStyle, §4): light or dark,
// light by default, one choice for every box, remembered like the colour theme (a strictly
// necessary setting, see the consent dialog). It is independent of the site's theme: inside a
// box, the box's choice wins. The inline script in templates/base.html sets `data-code-bg` on
// <html> before the first paint by the same rule as `initialCodeBackground`; keep the two in step.

import { LightDarkSetting, type LightDark } from './lightDark';

export type CodeSnippetBackgroundStyle = LightDark;

/** The localStorage key of the reader's choice (also read by the inline script of base.html). */
export const CODE_BACKGROUND_STORAGE_KEY = 'dg-code-bg';
/** The attribute of <html> the style sheet reads (theme.css). */
export const CODE_BACKGROUND_ATTRIBUTE = 'data-code-bg';
export const DEFAULT_CODE_BACKGROUND: CodeSnippetBackgroundStyle = 'light';

const setting = new LightDarkSetting({
  storageKey: CODE_BACKGROUND_STORAGE_KEY,
  attribute: CODE_BACKGROUND_ATTRIBUTE,
  fallback: () => DEFAULT_CODE_BACKGROUND,
});

/** The reader's stored choice, if any. */
export function storedCodeBackground(): CodeSnippetBackgroundStyle | null {
  return setting.stored();
}

/** The background a page opens with: the stored choice, else light. */
export function initialCodeBackground(): CodeSnippetBackgroundStyle {
  return setting.initial();
}

/** The background on screen. */
export function currentCodeBackground(doc: Document = document): CodeSnippetBackgroundStyle {
  return setting.current(doc);
}

/** Shows `style` in every box and remembers it (the default, light, is stored as no entry). */
export function setCodeBackground(style: CodeSnippetBackgroundStyle): void {
  setting.set(style);
}

/** Switches every box between light and dark. */
export function toggleCodeBackground(): void {
  setting.set(setting.current() === 'dark' ? 'light' : 'dark');
}

/** Calls `onChange` whenever the background on screen changes (here or in another tab). */
export function subscribeCodeBackground(onChange: () => void): () => void {
  return setting.subscribe(onChange);
}
