import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CODE_TABS_STORAGE_KEY } from '../src/lib/codeTabs';
import { renderContent } from './render';

/** A tab set of prose as docgen writes it (src/markdown/tabs.rs), its first panel holding a code box. */
function proseTabs(n: number, labels: string[]): string {
  const tabs = labels
    .map((l, i) => `<button type="button" role="tab" id="dg-tabs-${n}-tab-${i}" aria-controls="dg-tabs-${n}-panel-${i}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${l}</button>`)
    .join('');
  const panels = labels
    .map((l, i) => {
      const body = i === 0
        ? `<p>Install with <strong>${l} tools</strong>.</p>\n<div class="dg-code" data-dg-block="code" id="dg-code-${n}"><div class="dg-code-bar"><span class="dg-code-label">Shell</span></div><div class="dg-code-panel" id="dg-code-${n}-panel-0" data-lang="sh"><pre class="dg-hl"><code>install ${l}\n</code></pre></div></div>`
        : `<p>Use the ${l} way.</p>`;
      return `<div class="dg-tabs-panel" role="tabpanel" id="dg-tabs-${n}-panel-${i}" aria-labelledby="dg-tabs-${n}-tab-${i}" data-label="${l}">\n${body}\n</div>`;
    })
    .join('\n');
  return `<div class="dg-tabs" data-dg-block="tabs" id="dg-tabs-${n}">\n<div class="dg-tabs-list" role="tablist">${tabs}</div>\n${panels}\n</div>`;
}

const flush = () => act(async () => {});

describe('tab sets of prose', () => {
  it('shows one panel at a time, keeping docgen’s ids, content and the islands inside', async () => {
    const { article } = renderContent(proseTabs(0, ['macOS', 'Linux', 'Windows']));
    await flush();
    const set = article.querySelector<HTMLElement>('#dg-tabs-0')!;
    expect(set).toHaveAttribute('data-dg-mounted');
    const tabs = within(set).getAllByRole('tab');
    expect(tabs.map((t) => [t.id, t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['dg-tabs-0-tab-0', 'macOS', 'true', 0],
      ['dg-tabs-0-tab-1', 'Linux', 'false', -1],
      ['dg-tabs-0-tab-2', 'Windows', 'false', -1],
    ]);
    const panel = within(set).getByRole('tabpanel');
    expect(panel).toHaveAttribute('id', 'dg-tabs-0-panel-0');
    expect(panel).toHaveAccessibleName('macOS');
    expect(panel).toHaveTextContent('Install with macOS tools.');
    expect(set.querySelectorAll('.dg-tabs-panel[hidden]')).toHaveLength(2);
    // The code box inside the first panel is mounted: it has its copy button.
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(panel.querySelector('.dg-code')).toHaveAttribute('data-dg-mounted');
  });

  it('switches by click and by arrow keys, Home and End, with a roving tabindex', async () => {
    const { article } = renderContent(proseTabs(0, ['macOS', 'Linux', 'Windows']));
    await flush();
    const set = article.querySelector<HTMLElement>('#dg-tabs-0')!;
    const tabs = within(set).getAllByRole('tab');
    fireEvent.click(tabs[1]);
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[1]).toHaveAttribute('tabindex', '0');
    expect(tabs[0]).toHaveAttribute('tabindex', '-1');
    expect(within(set).getByRole('tabpanel')).toHaveTextContent('Use the Linux way.');
    fireEvent.keyDown(tabs[1], { key: 'ArrowRight' });
    expect(tabs[2]).toHaveFocus();
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(tabs[2], { key: 'ArrowRight' });
    expect(tabs[0]).toHaveFocus();
    fireEvent.keyDown(tabs[0], { key: 'ArrowLeft' });
    expect(tabs[2]).toHaveFocus();
    fireEvent.keyDown(tabs[2], { key: 'Home' });
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(tabs[0], { key: 'End' });
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(tabs[2], { key: 'a' });
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    expect(within(set).getAllByRole('tabpanel')).toHaveLength(1);
  });

  it('chooses by label with the other sets and code boxes of the site, and remembers it', async () => {
    localStorage.setItem(CODE_TABS_STORAGE_KEY, JSON.stringify(['Linux']));
    const { article } = renderContent(proseTabs(0, ['macOS', 'Linux']) + proseTabs(1, ['Windows', 'macOS']));
    await flush();
    const [first, second] = [article.querySelector<HTMLElement>('#dg-tabs-0')!, article.querySelector<HTMLElement>('#dg-tabs-1')!];
    expect(within(first).getByRole('tab', { selected: true })).toHaveTextContent('Linux');
    expect(within(second).getByRole('tab', { selected: true })).toHaveTextContent('Windows');
    fireEvent.click(within(second).getByRole('tab', { name: 'macOS' }));
    expect(within(first).getByRole('tab', { selected: true })).toHaveTextContent('macOS');
    expect(within(first).getByRole('tabpanel')).toHaveTextContent('Install with macOS tools.');
    expect(JSON.parse(localStorage.getItem(CODE_TABS_STORAGE_KEY)!)).toEqual(['macOS', 'Linux']);
    expect(screen.getAllByRole('tab', { selected: true })).toHaveLength(2);
  });
});
