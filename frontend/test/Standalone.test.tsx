import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Standalone } from '../src/Standalone';
import { singleCodeHtml, site } from './fixtures';

describe('a page with a layout of its own', () => {
  it('brings its islands to life, shows the current year and opens the consent dialog', async () => {
    document.body.innerHTML = `<div id="dg-faq"><main><article class="dg-article">${singleCodeHtml}</article></main>
      <footer id="dg-footer"><button type="button" class="dg-footer-link" data-action="consent">Cookies Settings</button>
      <p class="dg-copyright">© <span class="dg-year">2001</span> Example</p></footer></div>`;
    const article = document.querySelector<HTMLElement>('.dg-article')!;
    const container = document.createElement('div');
    document.body.appendChild(container);
    render(<Standalone site={site} base="" article={article} />, { container });
    await act(async () => {});
    expect(article.querySelector('.dg-code')).toHaveAttribute('data-dg-mounted');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(document.querySelector('.dg-year')).toHaveTextContent(String(new Date().getUTCFullYear()));
    fireEvent.click(screen.getByRole('button', { name: 'Cookies Settings' }));
    expect(screen.getByRole('dialog', { name: 'Cookie settings' })).toBeInTheDocument();
  });
});
