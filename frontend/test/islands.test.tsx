import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../src/blocks/islands';
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
});
