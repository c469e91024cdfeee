// A light-or-dark choice shown as an attribute of <html> and remembered in localStorage: the
// site's colour theme and the code boxes' background are two of them. The inline script in
// templates/base.html writes each attribute before the first paint by the rule `initial` follows;
// the setting owns it from then on.

export type LightDark = 'light' | 'dark';

export function isLightDark(v: unknown): v is LightDark {
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

export interface LightDarkOptions {
  /** The localStorage key of the reader's choice (also read by the inline script of base.html). */
  storageKey: string;
  /** The attribute of <html> the style sheets read. */
  attribute: string;
  /** The value without a stored choice; a choice equal to it is not stored, so it follows it. */
  fallback: () => LightDark;
}

export class LightDarkSetting {
  private readonly options: LightDarkOptions;
  private readonly listeners = new Set<() => void>();

  constructor(options: LightDarkOptions) {
    this.options = options;
  }

  /** The reader's stored choice, if any (storage may be unavailable, as in private modes). */
  stored(): LightDark | null {
    try {
      const v = storage()?.getItem(this.options.storageKey);
      return isLightDark(v) ? v : null;
    } catch {
      return null;
    }
  }

  /** The value a page opens with: the stored choice, else the fallback. */
  initial(): LightDark {
    return this.stored() ?? this.options.fallback();
  }

  /** The value on screen: the attribute the inline script (or `set`) wrote. */
  current(doc: Document = document): LightDark {
    const v = doc.documentElement.getAttribute(this.options.attribute);
    return isLightDark(v) ? v : this.initial();
  }

  /** Shows `value` and remembers it, unless it equals the fallback. */
  set(value: LightDark): void {
    const store = storage();
    try {
      if (value === this.options.fallback()) store?.removeItem(this.options.storageKey);
      else store?.setItem(this.options.storageKey, value);
    } catch {
      // Without storage the choice lasts for this page.
    }
    this.apply(value);
  }

  /** Shows what a page would open with now (after another tab's choice, or a system change). */
  follow(): void {
    this.apply(this.initial());
  }

  /**
   * Calls `onChange` whenever the value on screen changes: by `set`, `follow`, or a choice made
   * in another tab. Returns the unsubscribe function.
   */
  subscribe(onChange: () => void): () => void {
    this.listeners.add(onChange);
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === this.options.storageKey) this.follow();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      this.listeners.delete(onChange);
      window.removeEventListener('storage', onStorage);
    };
  }

  private apply(value: LightDark, doc: Document = document): void {
    if (doc.documentElement.getAttribute(this.options.attribute) === value) return;
    doc.documentElement.setAttribute(this.options.attribute, value);
    for (const l of this.listeners) l();
  }
}
