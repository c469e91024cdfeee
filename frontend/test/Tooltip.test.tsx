import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tooltip } from '../src/ui/Tooltip';

describe('Tooltip', () => {
  it('describes its trigger by aria-describedby', () => {
    render(
      <Tooltip content="Copies the code">
        <button type="button">Copy</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Copy' });
    const tip = document.getElementById(button.getAttribute('aria-describedby')!);
    expect(tip).toHaveAttribute('role', 'tooltip');
    expect(tip).toHaveTextContent('Copies the code');
    expect(button).toHaveAccessibleDescription('Copies the code');
  });

  it('shows on hover and focus, hides on leave, blur and Escape', async () => {
    render(
      <Tooltip content="More about it">
        <button type="button" aria-describedby="other">
          Term
        </button>
      </Tooltip>,
    );
    const button = screen.getByRole('button');
    expect(button.getAttribute('aria-describedby')).toMatch(/^other /);
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(tip).not.toBeVisible();
    await userEvent.hover(button);
    expect(tip).toBeVisible();
    await userEvent.unhover(button);
    expect(tip).not.toBeVisible();
    fireEvent.focus(button);
    expect(tip).toBeVisible();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(tip).not.toBeVisible();
    fireEvent.focus(button);
    fireEvent.blur(button);
    expect(tip).not.toBeVisible();
  });

  it('is at most 300 px wide', () => {
    const theme = readFileSync(path.join(__dirname, '../src/styles/theme.css'), 'utf8');
    const blocks = readFileSync(path.join(__dirname, '../src/styles/blocks.css'), 'utf8');
    expect(theme).toMatch(/--dg-tooltip-max-width:\s*300px/);
    expect(blocks).toMatch(/\.dg-tooltip \{[^}]*max-width: var\(--dg-tooltip-max-width\)/);
  });
});
