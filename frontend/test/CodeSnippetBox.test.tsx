import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeBoxInPlace, readCodeBoxInPlace } from '../src/blocks/CodeSnippetBox';
import { HttpError } from '../src/data/api';
import { DocumentationProvider } from '../src/state/DocumentationContext';
import { CODE_TABS_STORAGE_KEY } from '../src/lib/codeTabs';
import { codeGroupHtml, singleCodeHtml } from './fixtures';
import { fakeApi, renderContent } from './render';

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const flush = () => act(async () => {});

describe('code snippet box', () => {
  it('keeps docgen’s tabs, with the first selected', async () => {
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Kotlin', 'Java', 'Groovy']);
    expect(tabs.map((t) => t.id)).toEqual(['dg-code-3-tab-0', 'dg-code-3-tab-1', 'dg-code-3-tab-2']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[0]).toHaveAttribute('tabindex', '0');
    expect(tabs[1]).toHaveAttribute('tabindex', '-1');
    const panels = screen.getAllByRole('tabpanel', { hidden: true });
    expect(panels.map((p) => p.id)).toEqual(['dg-code-3-panel-0', 'dg-code-3-panel-1', 'dg-code-3-panel-2']);
    expect(panels[0]).toBeVisible();
    expect(panels[1]).not.toBeVisible();
    expect(panels[1]).toHaveAttribute('aria-labelledby', 'dg-code-3-tab-1');
    expect(screen.getByRole('tablist')).toHaveAccessibleName('Code variants');
    expect(document.querySelector('.dg-code')).toHaveAttribute('data-dg-mounted');
  });

  it('switches tabs by click and by arrow keys, Home and End', async () => {
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    const tabs = screen.getAllByRole('tab');
    fireEvent.click(tabs[1]);
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'dg-code-3-panel-1');
    fireEvent.keyDown(tabs[1], { key: 'ArrowRight' });
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[2]).toHaveFocus();
    fireEvent.keyDown(tabs[2], { key: 'ArrowRight' });
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(tabs[0], { key: 'ArrowLeft' });
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(tabs[2], { key: 'Home' });
    expect(tabs[0]).toHaveFocus();
    fireEvent.keyDown(tabs[0], { key: 'End' });
    expect(tabs[2]).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent("implementation 'com.example:sdk:1.0'");
  });

  it('shows a single snippet without tabs', () => {
    const api = fakeApi();
    renderContent(singleCodeHtml, { api });
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(document.querySelector('.dg-code-label')).toHaveTextContent('Swift');
    expect(document.querySelector('#dg-code-0-panel-0')).toHaveTextContent('let x = 1');
    expect(document.querySelector('#dg-code-0-panel-0 .hl-k')).toHaveTextContent('let');
    // No placeholder, so no key is asked for.
    expect(api.load).not.toHaveBeenCalled();
  });

  it('copies the selected snippet and says so for a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    fireEvent.click(screen.getAllByRole('tab')[1]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await flush();
    expect(writeText).toHaveBeenCalledWith('String key = "YOUR_SDK_KEY";');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('The code was copied to the clipboard');
    act(() => void vi.advanceTimersByTime(2000));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('says when copying failed', async () => {
    writeText.mockRejectedValueOnce(new Error('denied'));
    renderContent(singleCodeHtml);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await flush();
    expect(screen.getByRole('button', { name: 'Copy failed' })).toBeInTheDocument();
  });

  it('puts the copy button in the slot before docgen’s background switch, in the box’s actions', async () => {
    renderContent(`${singleCodeHtml}\n${codeGroupHtml}`, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    for (const box of Array.from(document.querySelectorAll('.dg-code'))) {
      const actions = box.querySelectorAll(':scope > .dg-code-bar > .dg-code-actions');
      expect(actions).toHaveLength(1);
      // Copy first, in the server's slot: the switch keeps its place when Copy arrives.
      expect(Array.from(actions[0].querySelectorAll('button'), (b) => b.className.split(' ')[0])).toEqual(['dg-button', 'dg-code-bg-toggle']);
      expect(actions[0].querySelector('.dg-code-copy-slot .dg-code-copy')).not.toBeNull();
      // The app's Copy took the place of the server's stand-in.
      expect(actions[0].querySelectorAll('.dg-code-copy')).toHaveLength(1);
      expect(actions[0].querySelector('[data-dg-placeholder]')).toBeNull();
    }
    expect(screen.getAllByRole('button', { name: 'Dark code background' })).toHaveLength(2);
  });

  it('selects the same label in every box, whatever its place, and remembers it', async () => {
    const other = codeGroupHtml
      .replaceAll('dg-code-3', 'dg-code-4')
      .replace('>Kotlin</button>', '>Swift</button>')
      .replace('>Java</button>', '>JAVA</button>')
      .replace('>Groovy</button>', '>Kotlin</button>');
    renderContent(`${codeGroupHtml}\n${other}`, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    const selected = () => screen.getAllByRole('tab', { selected: true }).map((t) => t.id);
    expect(selected()).toEqual(['dg-code-3-tab-0', 'dg-code-4-tab-0']);
    fireEvent.click(screen.getAllByRole('tab', { name: 'Java' })[0]);
    expect(selected()).toEqual(['dg-code-3-tab-1', 'dg-code-4-tab-1']);
    expect(JSON.parse(localStorage.getItem(CODE_TABS_STORAGE_KEY)!)).toEqual(['Java']);
    // The second box's own order: Kotlin is its third tab.
    fireEvent.keyDown(screen.getByRole('tab', { name: 'JAVA' }), { key: 'ArrowRight' });
    expect(selected()).toEqual(['dg-code-3-tab-0', 'dg-code-4-tab-2']);
    expect(screen.getAllByRole('tabpanel').map((p) => p.id)).toEqual(['dg-code-3-panel-0', 'dg-code-4-panel-2']);
    expect(JSON.parse(localStorage.getItem(CODE_TABS_STORAGE_KEY)!)).toEqual(['Kotlin', 'Java']);
  });

  it('opens on the label chosen on an earlier page', async () => {
    localStorage.setItem(CODE_TABS_STORAGE_KEY, JSON.stringify(['Swift', 'Groovy', 'Java']));
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('Groovy');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('id', 'dg-code-3-panel-2');
  });

  it('keeps the chosen tab where it was on screen when a box above changes height', async () => {
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') }) });
    await flush();
    const tab = screen.getByRole('tab', { name: 'Java' });
    const panel = document.getElementById('dg-code-3-panel-1')!;
    // Showing the Java panel moves the tab down by 120 px, as a taller box above would.
    vi.spyOn(tab, 'getBoundingClientRect').mockImplementation(() => ({ top: panel.hidden ? 300 : 420 }) as DOMRect);
    const scrollBy = vi.fn();
    window.scrollBy = scrollBy;
    fireEvent.click(tab);
    expect(scrollBy).toHaveBeenCalledTimes(1);
    expect(scrollBy).toHaveBeenCalledWith(0, 120);
    // Choosing the tab already shown moves nothing.
    fireEvent.click(tab);
    expect(scrollBy).toHaveBeenCalledTimes(1);
  });

  it('shows the reader’s SDK key in place of the placeholder', async () => {
    const api = fakeApi({ 'docs/v1/user_keys/sdk': 'k-<123>' });
    renderContent(codeGroupHtml, { api });
    await flush();
    expect(api.load).toHaveBeenCalledTimes(1);
    const panel = screen.getByRole('tabpanel');
    expect(panel).toHaveTextContent('val key = "k-<123>"');
    expect(panel.innerHTML).not.toContain('<123>');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await flush();
    expect(writeText).toHaveBeenCalledWith('val key = "k-<123>"');
  });

  it('shows the reader’s Ad Review (safe-ad) key in place of its placeholder', async () => {
    const html = singleCodeHtml.replace('<span class="hl-n">1</span>', '<span class="hl-s">"YOUR_AD_REVIEW_KEY"</span>');
    const api = fakeApi({ 'docs/v1/user_keys/safedk': 'review-7' });
    renderContent(html, { api });
    await flush();
    expect(api.load).toHaveBeenCalledTimes(1);
    expect(api.load.mock.calls[0][0]).toMatchObject({ path: 'docs/v1/user_keys/safedk', field: 'key' });
    expect(document.querySelector('#dg-code-0-panel-0')).toHaveTextContent('let x = "review-7"');
  });

  it('keeps the placeholder, quietly, when there is no key (static site)', async () => {
    const consoleError = vi.spyOn(console, 'error');
    renderContent(codeGroupHtml, { api: fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'docs/v1/user_keys/sdk') }) });
    await flush();
    expect(within(screen.getByRole('tabpanel')).getByText('"YOUR_SDK_KEY"')).toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('works on docgen’s own elements where they are: only the copy button is added', async () => {
    const host = document.createElement('div');
    host.innerHTML = codeGroupHtml;
    document.body.appendChild(host);
    const box = host.firstElementChild as HTMLElement;
    const before = Array.from(box.querySelectorAll('button[role="tab"], .dg-code-panel, code'));
    render(
      <DocumentationProvider api={fakeApi({ 'docs/v1/user_keys/sdk': new HttpError(404, 'x') })}>
        <CodeBoxInPlace {...readCodeBoxInPlace(box)} />
      </DocumentationProvider>,
    );
    await flush();
    expect(Array.from(box.querySelectorAll('button[role="tab"], .dg-code-panel, code'))).toEqual(before);
    expect(box.querySelector('.dg-code-bar .dg-code-copy')).not.toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Groovy' }));
    expect(before.filter((e) => e.matches('.dg-code-panel') && !(e as HTMLElement).hidden).map((e) => e.id)).toEqual(['dg-code-3-panel-2']);
  });
});
