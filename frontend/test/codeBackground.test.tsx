// The code boxes' light/dark background: one choice for every box, light by default, remembered
// (as the inline script of base.html reads it), kept in the documentation state.

import { act, fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { CodeSnippetBox } from '../src/blocks/CodeSnippetBox';
import {
  CODE_BACKGROUND_STORAGE_KEY,
  currentCodeBackground,
  setCodeBackground,
  subscribeCodeBackground,
  toggleCodeBackground,
} from '../src/lib/codeBackground';
import { Shell } from '../src/shell/attach';
import { DocumentationProvider, useDocumentation } from '../src/state/DocumentationContext';
import { codeGroupHtml, singleCodeHtml } from './fixtures';
import { fakeApi } from './render';

const root = document.documentElement;

describe('the code background', () => {
  it('is light by default and without a stored choice', () => {
    expect(currentCodeBackground()).toBe('light');
    localStorage.setItem(CODE_BACKGROUND_STORAGE_KEY, 'purple');
    expect(currentCodeBackground()).toBe('light');
  });

  it('shows and remembers a choice; light, the default, is stored as no entry', () => {
    setCodeBackground('dark');
    expect(root).toHaveAttribute('data-code-bg', 'dark');
    expect(localStorage.getItem(CODE_BACKGROUND_STORAGE_KEY)).toBe('dark');
    toggleCodeBackground();
    expect(root).toHaveAttribute('data-code-bg', 'light');
    expect(localStorage.getItem(CODE_BACKGROUND_STORAGE_KEY)).toBeNull();
  });

  it('reads the stored choice when the inline script has not run', () => {
    localStorage.setItem(CODE_BACKGROUND_STORAGE_KEY, 'dark');
    expect(currentCodeBackground()).toBe('dark');
  });

  it('tells its subscribers, and follows a choice made in another tab', () => {
    const seen: string[] = [];
    const stop = subscribeCodeBackground(() => seen.push(currentCodeBackground()));
    setCodeBackground('dark');
    setCodeBackground('dark');
    localStorage.removeItem(CODE_BACKGROUND_STORAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: CODE_BACKGROUND_STORAGE_KEY }));
    stop();
    setCodeBackground('dark');
    expect(seen).toEqual(['dark', 'light']);
  });

  it('keeps the choice for the page when storage refuses it', () => {
    const refuse = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => { throw new Error('quota'); });
    onTestFinished(() => { refuse.mockRestore(); });
    setCodeBackground('dark');
    expect(currentCodeBackground()).toBe('dark');
  });

  it('is set by the inline script of base.html from the same key, light unless dark was chosen', () => {
    const base = readFileSync(path.join(__dirname, '../../templates/base.html'), 'utf8');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(base)![1];
    expect(inline).toContain(`localStorage.getItem("${CODE_BACKGROUND_STORAGE_KEY}")`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const runInline = new Function(inline);
    window.matchMedia = ((q: string) => ({ matches: false, media: q })) as unknown as typeof window.matchMedia;
    runInline();
    expect(root).toHaveAttribute('data-code-bg', 'light');
    localStorage.setItem(CODE_BACKGROUND_STORAGE_KEY, 'dark');
    runInline();
    expect(root).toHaveAttribute('data-code-bg', 'dark');
  });
});

describe('the background switches', () => {
  function StateProbe() {
    return <output data-testid="state">{useDocumentation().state.codeSnippetBackgroundStyle}</output>;
  }

  it('switch every box at once, server’s and app’s, and the documentation state follows', () => {
    document.body.innerHTML = `<article class="dg-article">${singleCodeHtml}${codeGroupHtml}</article><div id="app"></div>`;
    const shell = new Shell({ features: [], permissions: [] }, null);
    onTestFinished(() => { shell.dispose(); });
    render(
      <DocumentationProvider api={fakeApi()}>
        <StateProbe />
        <div className="dg-code">
          <CodeSnippetBox boxId="dg-code-9" labels={['Gradle']} panels={[{ id: 'dg-code-9-panel-0', lang: 'groovy', html: 'implementation' }]} />
        </div>
      </DocumentationProvider>,
      { container: document.getElementById('app')! },
    );
    const switches = screen.getAllByRole('button', { name: 'Dark code background' });
    expect(switches).toHaveLength(3);
    expect(switches.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'false']);
    expect(screen.getByTestId('state')).toHaveTextContent('light');

    act(() => { fireEvent.click(switches[1]); });
    expect(root).toHaveAttribute('data-code-bg', 'dark');
    expect(localStorage.getItem(CODE_BACKGROUND_STORAGE_KEY)).toBe('dark');
    expect(switches.map((b) => b.getAttribute('aria-pressed'))).toEqual(['true', 'true', 'true']);
    expect(screen.getByTestId('state')).toHaveTextContent('dark');

    act(() => { fireEvent.click(switches[2]); });
    expect(switches.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'false']);
    expect(screen.getByTestId('state')).toHaveTextContent('light');
  });
});

describe('the style sheet', () => {
  const css = readFileSync(path.join(__dirname, '../src/styles/theme.css'), 'utf8');
  const vars = (block: string) => new Map([...block.matchAll(/(--dg-[a-z0-9-]+): ([^;]+);/g)].map((m) => [m[1], m[2]]));
  const between = (from: string, to: string, at = 0) => css.slice(css.indexOf(from, at), css.indexOf(to, css.indexOf(from, at)));

  it('gives a box the light and the dark theme’s code colours, whatever the site’s theme', () => {
    const light = vars(css.slice(0, css.indexOf('dark:start')));
    const dark = vars(between('dark:start', 'dark:end'));
    const boxLight = vars(between('code-bg:light', 'code-bg:end'));
    const boxDark = vars(between('code-bg:dark', 'code-bg:end'));
    expect([...boxLight.keys()].filter((k) => k.startsWith('--dg-code-') || k.startsWith('--dg-hl-')).length).toBeGreaterThan(20);
    expect([...boxDark.keys()]).toEqual([...boxLight.keys()]);
    for (const [name, value] of boxLight) expect([name, value]).toEqual([name, light.get(name)]);
    for (const [name, value] of boxDark) expect([name, value]).toEqual([name, dark.get(name)]);
    // Every code colour of the theme is set for the box.
    const codeColours = [...light.keys()].filter((k) => k.startsWith('--dg-code-') || k.startsWith('--dg-hl-') || k.startsWith('--dg-line-hl-'));
    expect(codeColours.filter((k) => !boxLight.has(k))).toEqual([]);
  });
});
