import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { strings, type StringId } from '../src/i18n';
import { currentTheme, initialTheme, setTheme, subscribeTheme, THEME_STORAGE_KEY } from '../src/lib/theme';
import { Shell } from '../src/shell/attach';

/** A system preference the test controls, with change events. */
function systemPrefers(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  window.matchMedia = vi.fn(() => query) as unknown as typeof window.matchMedia;
  return {
    change(next: boolean) {
      query.matches = next;
      for (const l of listeners) l();
    },
  };
}

// Kept only to put back as it was, never called through this reference.
// eslint-disable-next-line @typescript-eslint/unbound-method
const original = window.matchMedia;
afterEach(() => {
  window.matchMedia = original;
});

describe('the colour theme', () => {
  beforeEach(() => systemPrefers(false));

  it('follows the system without a stored choice, and the stored choice over the system', () => {
    expect(initialTheme()).toBe('light');
    systemPrefers(true);
    expect(initialTheme()).toBe('dark');
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    expect(initialTheme()).toBe('light');
    localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    expect(initialTheme()).toBe('dark');
  });

  it('shows a choice on <html> and stores only what differs from the system', () => {
    setTheme('dark');
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    setTheme('light');
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('reads the theme the inline script set before the app ran', () => {
    document.documentElement.setAttribute('data-theme', 'dark');
    expect(currentTheme()).toBe('dark');
  });

  it('follows the system while no choice is stored, and not after one is', () => {
    const system = systemPrefers(false);
    document.documentElement.setAttribute('data-theme', 'light');
    const seen = vi.fn();
    const stop = subscribeTheme(seen);
    system.change(true);
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(seen).toHaveBeenCalledTimes(1);
    setTheme('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    system.change(false);
    system.change(true);
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    stop();
  });

  it('takes a choice made in another tab', () => {
    document.documentElement.setAttribute('data-theme', 'light');
    const stop = subscribeTheme(() => undefined);
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY }));
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    stop();
  });
});

describe('the theme switch', () => {
  beforeEach(() => systemPrefers(false));

  /** The theme switch of the top bar, as templates/macros.html writes it, with the app attached. */
  function serverToggle() {
    const macros = readFileSync(path.join(__dirname, '../../templates/macros.html'), 'utf8');
    // The template's texts come from the strings table (`{{ t["id"] }}`).
    const button = /<button type="button" class="dg-theme-toggle"[^>]*><\/button>/
      .exec(macros)![0]
      .replace(/\{\{ t\["([^"]+)"\] \}\}/g, (_, id: string) => strings[id as StringId]);
    document.body.innerHTML = `<header id="dg-topbar">${button}</header>`;
    const shell = new Shell({ features: [], permissions: [] }, null);
    onTestFinished(() => { shell.dispose(); });
  }

  it('is a toggle button, pressed in the dark theme, that switches and remembers', () => {
    document.documentElement.setAttribute('data-theme', 'light');
    serverToggle();
    const button = screen.getByRole('button', { name: 'Dark theme' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('shows a change of the system’s preference at once', () => {
    const system = systemPrefers(false);
    document.documentElement.setAttribute('data-theme', 'light');
    serverToggle();
    act(() => { system.change(true); });
    expect(screen.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('the style sheets and the inline script', () => {
  const css = readFileSync(path.join(__dirname, '../src/styles/theme.css'), 'utf8');
  const base = readFileSync(path.join(__dirname, '../../templates/base.html'), 'utf8');

  it('define the dark colours once for scripts and once for the system, the same', () => {
    const blocks = [...css.matchAll(/\/\* dark:start[^*]*\*\/([\s\S]*?)\/\* dark:end \*\//g)].map((m) =>
      m[1].slice(m[1].indexOf('{', m[1].indexOf('{') + 1)).replace(/\s+/g, ' '),
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('--dg-bg: #0d1117');
    expect(blocks[1]).toBe(blocks[0]);
  });

  it('give every colour of the light theme a dark one', () => {
    const light = css.slice(0, css.indexOf('dark:start'));
    const dark = new Set([...css.slice(css.indexOf('dark:start'), css.indexOf('dark:end')).matchAll(/(--dg-[a-z0-9-]+):/g)].map((m) => m[1]));
    const colours = [...light.matchAll(/(--dg-[a-z0-9-]+): ([^;]+);/g)].filter((m) => /#|rgb|transparent|filter/.test(m[0])).map((m) => m[1]);
    expect(colours.length).toBeGreaterThan(50);
    expect(colours.filter((n) => !dark.has(n))).toEqual([]);
  });

  it('set the theme before the first paint with the same storage key and rule as the app', () => {
    const scripts = [...base.matchAll(/<script(?![^>]*src)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    const inline = scripts[0];
    expect(inline).toContain(`localStorage.getItem("${THEME_STORAGE_KEY}")`);
    expect(inline).toContain('prefers-color-scheme: dark');
    expect(inline).toContain('data-theme');
    expect(base.indexOf(inline)).toBeLessThan(base.indexOf('type="module"'));
    // Run it as the browser would: a stored choice wins over the system.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const runInline = new Function(inline);
    systemPrefers(true);
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    runInline();
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    expect(document.documentElement).toHaveClass('dg-js');
    localStorage.clear();
    runInline();
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
  });
});
