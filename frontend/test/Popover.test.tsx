import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Popover } from '../src/ui/Popover';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(props: Partial<Parameters<typeof Popover>[0]> = {}) {
  render(
    <div>
      <p>Outside</p>
      <Popover header="Formats" {...props}>
        <a href="#x">A link inside</a>
      </Popover>
    </div>,
  );
  const header = screen.getByRole('button', { name: 'Formats' });
  const content = document.getElementById(header.getAttribute('aria-controls')!)!;
  return { header, content };
}

const advance = (ms: number) => { act(() => void vi.advanceTimersByTime(ms)); };

describe('Popover', () => {
  it('opens on a click on its header and closes on a click outside', () => {
    const { header, content } = setup();
    expect(content).not.toBeVisible();
    fireEvent.click(header);
    expect(header).toHaveAttribute('aria-expanded', 'true');
    expect(content).toBeVisible();
    fireEvent.mouseDown(content);
    expect(content).toBeVisible();
    fireEvent.mouseDown(screen.getByText('Outside'));
    expect(content).not.toBeVisible();
    expect(header).toHaveAttribute('aria-expanded', 'false');
  });

  it('toggles on its header and closes on Escape', () => {
    const { header, content } = setup();
    fireEvent.click(header);
    fireEvent.click(header);
    expect(content).not.toBeVisible();
    fireEvent.click(header);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(content).not.toBeVisible();
  });

  it('closes 50 ms after a click on its content when configured', () => {
    const { header, content } = setup({ closeOnContentClick: true });
    fireEvent.click(header);
    fireEvent.click(screen.getByText('A link inside'));
    advance(49);
    expect(content).toBeVisible();
    advance(1);
    expect(content).not.toBeVisible();
  });

  it('stays open after a click on its content otherwise', () => {
    const { header, content } = setup();
    fireEvent.click(header);
    fireEvent.click(screen.getByText('A link inside'));
    advance(5000);
    expect(content).toBeVisible();
  });

  it('closes 3 s after the mouse leaves when configured, unless it comes back', () => {
    const { header, content } = setup({ autoHide: true });
    const popover = header.parentElement!;
    fireEvent.click(header);
    fireEvent.mouseLeave(popover);
    advance(2999);
    expect(content).toBeVisible();
    fireEvent.mouseEnter(popover);
    advance(5000);
    expect(content).toBeVisible();
    fireEvent.mouseLeave(popover);
    advance(3000);
    expect(content).not.toBeVisible();
  });

  it('does not close by itself after the mouse leaves otherwise', () => {
    const { header, content } = setup();
    fireEvent.click(header);
    fireEvent.mouseLeave(header.parentElement!);
    advance(10000);
    expect(content).toBeVisible();
  });
});
