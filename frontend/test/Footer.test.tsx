import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Footer } from '../src/shell/Footer';
import { site } from './fixtures';

afterEach(() => {
  vi.useRealTimers();
});

describe('footer', () => {
  it('opens external links in a new tab and keeps site links in this one', () => {
    render(<Footer site={site} onConsent={() => undefined} />);
    const terms = screen.getByRole('link', { name: 'Terms' });
    expect(terms).toHaveAttribute('href', 'https://example.test/terms');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(terms).toHaveAttribute('rel', 'noopener noreferrer');
    const sitemap = screen.getByRole('link', { name: 'Sitemap' });
    expect(sitemap).not.toHaveAttribute('target');
  });

  it('shows the opt-out icon next to Your Privacy Choices', () => {
    render(<Footer site={site} onConsent={() => undefined} />);
    const link = screen.getByRole('link', { name: /Your Privacy Choices/ });
    const icon = screen.getByRole('img', { name: 'California Consumer Privacy Act (CCPA) Opt-Out Icon' });
    expect(link).toContainElement(icon);
    expect(icon).toHaveAttribute('src', '/s/privacy-options.1234.svg');
  });

  it('opens the consent dialog from Cookies Settings', async () => {
    const onConsent = vi.fn();
    render(<Footer site={site} onConsent={onConsent} />);
    const button = screen.getByRole('button', { name: 'Cookies Settings' });
    expect(button).toHaveAttribute('data-action', 'consent');
    await userEvent.click(button);
    expect(onConsent).toHaveBeenCalledWith(button);
  });

  it('shows the current year in UTC, not the year of the build', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-12-31T23:30:00-05:00'));
    render(<Footer site={site} onConsent={() => undefined} />);
    expect(document.querySelector('.dg-copyright')).toHaveTextContent('© 2032 Example Corp. All rights reserved.');
    expect(document.querySelector('.dg-year')).toHaveTextContent('2032');
  });
});
