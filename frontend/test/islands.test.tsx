// @vitest-environment jsdom
// (happy-dom has no table sections, `HTMLTableElement.tBodies`, which the pre-rendered tables are read by.)
import { act, screen } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import '../src/blocks/islands';
import { renderIslands } from '../src/blocks/mount';
import { collectIslands, registerIsland } from '../src/blocks/registry';
import { renderContent } from './render';

describe('content islands', () => {
  it('leaves blocks it does not know as they are', () => {
    const { article } = renderContent('<div data-dg-block="no-such-block" data-platform="android"><p>Fallback text</p></div>');
    const host = article.querySelector('[data-dg-block]')!;
    expect(host.innerHTML).toBe('<p>Fallback text</p>');
    expect(host).not.toHaveAttribute('data-dg-mounted');
  });

  it('mounts a registered component over its block, with what it read from the fallback', () => {
    registerIsland('greeting', {
      read: (host) => ({ who: host.getAttribute('data-who') ?? '' }),
      Component: ({ who }: { who: string }) => <strong>Hello, {who}</strong>,
    });
    const { article } = renderContent('<p>Before</p><div data-dg-block="greeting" data-who="reader">Hello (static)</div>');
    const host = article.querySelector('[data-dg-block="greeting"]')!;
    expect(host).toHaveAttribute('data-dg-mounted');
    expect(host.innerHTML).toBe('<strong>Hello, reader</strong>');
    expect(screen.getByText('Before')).toBeInTheDocument();
  });

  it('reads each block once and leaves blocks inside other blocks to them', () => {
    const root = document.createElement('div');
    root.innerHTML = '<div data-dg-block="popover" data-label="Outer"><div data-dg-block="popover" data-label="Inner">x</div></div>';
    const first = collectIslands(root);
    expect(first).toHaveLength(1);
    expect(collectIslands(root)).toEqual(first);
  });

  it('makes popover and tooltip blocks work', () => {
    renderContent('<div data-dg-block="popover" data-label="Formats"><p>Banner, MREC</p></div><p>A <span data-dg-block="tooltip" data-tip="Cost per mille">CPM</span> floor.</p>');
    const header = screen.getByRole('button', { name: 'Formats' });
    expect(header).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('CPM')).toHaveAccessibleDescription('Cost per mille');
  });

  // Between finding its islands and rendering them, the app may yield to the browser, which then
  // paints: finding them must change nothing on screen, and the component's markup, the removal
  // of the server's and the `data-dg-mounted` mark must come in one commit.
  it('changes the page only when the components commit, all in one go', async () => {
    registerIsland('swap', { read: () => ({}), Component: () => <em>Live</em> });
    const root = document.createElement('div');
    const rows = Array.from({ length: 61 }, (_, i) => `<tr><td>Row ${i + 1}</td></tr>`).join('');
    root.innerHTML = `<div data-dg-block="table"><table><tbody>${rows}</tbody></table></div><div data-dg-block="swap">Static</div>`;
    document.body.appendChild(root);
    const before = root.innerHTML;
    const islands = collectIslands(root);
    expect(islands).toHaveLength(2);
    expect(root.innerHTML).toBe(before);

    const commits: string[] = [];
    const table = root.querySelector<HTMLElement>('[data-dg-block="table"]')!;
    const swap = root.querySelector<HTMLElement>('[data-dg-block="swap"]')!;
    const observer = new MutationObserver(() => {
      commits.push([table.hasAttribute('data-dg-mounted'), table.querySelectorAll('tr[hidden]').length, swap.hasAttribute('data-dg-mounted'), swap.innerHTML].join(' '));
    });
    observer.observe(root, { subtree: true, childList: true, attributes: true });
    const app = createRoot(document.createElement('div'));
    act(() => {
      app.render(<>{renderIslands(islands)}</>);
    });
    await Promise.resolve();
    // One batch of changes, seen once it is complete: 11 rows hidden, the table marked, the
    // static text gone and the component's in its place.
    expect(commits).toEqual(['true 11 true <em>Live</em>']);
    observer.disconnect();
    act(() => {
      app.unmount();
    });
    root.remove();
  });
});
