import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Breadcrumbs } from '../src/shell/Breadcrumbs';
import { pageData, tight } from './fixtures';

describe('breadcrumbs', () => {
  it('links the earlier pages and marks the last as the current page', () => {
    render(<Breadcrumbs crumbs={pageData().breadcrumbs} base="" />);
    const nav = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(nav).not.toHaveClass('is-single');
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/documentation/mediation',
      '/documentation/mediation/android',
      '/documentation/mediation/android/ad-formats',
    ]);
    const last = screen.getByText('Banners');
    expect(last.tagName).toBe('SPAN');
    expect(last).toHaveAttribute('aria-current', 'page');
  });

  it('hides the trail when only one page matches', () => {
    const { container } = render(<Breadcrumbs crumbs={[{ displayName: 'Mediation', url: '/documentation/mediation' }]} base="/docs" />);
    expect(tight(container.innerHTML)).toBe(
      '<nav id="dg-breadcrumbs" class="dg-breadcrumbs is-single" aria-label="Breadcrumbs"><ol><li><span aria-current="page">Mediation</span></li></ol></nav>',
    );
  });

  it('adds the base path to links', () => {
    render(<Breadcrumbs crumbs={pageData().breadcrumbs} base="/docs" />);
    expect(screen.getByRole('link', { name: 'Android' })).toHaveAttribute('href', '/docs/documentation/mediation/android');
  });
});
