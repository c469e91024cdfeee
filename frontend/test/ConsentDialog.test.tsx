import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONSENT_STORAGE_KEY, readConsent } from '../src/shell/ConsentDialog';
import { App, IslandSource } from '../src/App';
import { site } from './fixtures';

/** The footer as the server renders it, and the app beside it. */
function renderShell() {
  document.body.innerHTML = '<div id="dg-root"><footer id="dg-footer"><button type="button" class="dg-footer-link" data-action="consent">Cookies Settings</button></footer></div>';
  const container = document.getElementById('dg-root')!;
  const result = { ...render(<App site={site} base="" searchSlot={null} islands={new IslandSource()} />), container };
  const opener = screen.getByRole('button', { name: 'Cookies Settings' });
  opener.focus();
  fireEvent.click(opener);
  return { ...result, opener, dialog: screen.getByRole('dialog', { name: 'Cookie settings' }) };
}

describe('consent dialog', () => {
  it('opens as a modal dialog and makes the rest of the page inert', () => {
    const { dialog, container } = renderShell();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription(/We use cookies/);
    expect(container).toHaveAttribute('inert');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('keeps focus inside: Tab from the last control goes to the first, Shift+Tab back', () => {
    const { dialog } = renderShell();
    const close = screen.getByRole('button', { name: 'Close' });
    const allow = screen.getByRole('button', { name: 'Allow all' });
    expect(close).toHaveFocus();
    allow.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(allow).toHaveFocus();
    const outside = document.createElement('button');
    document.body.appendChild(outside);
    outside.focus();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape and gives focus back to Cookies Settings', () => {
    const { opener, container } = renderShell();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(container).not.toHaveAttribute('inert');
    expect(opener).toHaveFocus();
  });

  it('saves the reader’s choices', () => {
    renderShell();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Performance' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm my choices' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY)!)).toEqual({ performance: true, functional: false, targeting: false });
    fireEvent.click(screen.getByRole('button', { name: 'Cookies Settings' }));
    expect(screen.getByRole('checkbox', { name: 'Performance' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Strictly necessary' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Allow all' }));
    expect(readConsent()).toEqual({ performance: true, functional: true, targeting: true });
    fireEvent.click(screen.getByRole('button', { name: 'Cookies Settings' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject all' }));
    expect(readConsent()).toEqual({ performance: false, functional: false, targeting: false });
  });
});
