import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusablesIn } from '../src/hooks/useFocusTrap';
import type { View } from '../src/hooks/usePageFetch';
import { fromNav } from '../src/lib/menu';
import { BackToTop } from '../src/shell/BackToTop';
import { Layout } from '../src/shell/Layout';
import { TopBar } from '../src/shell/TopBar';
import { nav, pageData, site } from './fixtures';

const M = '/documentation/mediation';
const banners = `${M}/android/ad-formats/banners`;

function pageView(key: number, route = banners): View {
  const data = pageData({ route });
  return { kind: 'page', key, route, page: { route, data, title: 'Banners | Fixture Docs', html: '<h1 id="banners">Banners</h1>', head: [], menu: fromNav(nav, route, '', []) } };
}

function renderLayout(view: View = pageView(1)) {
  const menu = fromNav(nav, view.route, '', ['beta-tools']);
  const result = render(<Layout site={site} base="" view={view} hash="" menu={menu} busy={false} />);
  return {
    ...result,
    rerenderView: (v: View) => result.rerender(<Layout site={site} base="" view={v} hash="" menu={menu} busy={false} />),
    button: screen.getByRole('button', { name: 'Menu' }),
    drawer: document.getElementById('dg-menu')!,
  };
}

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

describe('the menu drawer of narrow screens', () => {
  it('opens from the top bar’s button: focus moves in, the rest of the page is inert and does not scroll', () => {
    const { button, drawer } = renderLayout();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'dg-menu');
    expect(drawer).not.toHaveClass('is-open');
    button.focus();
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(drawer).toHaveClass('is-open');
    expect(within(drawer).getByRole('link', { name: 'Banners' })).toHaveFocus();
    expect(document.activeElement).toHaveAttribute('aria-current', 'page');
    for (const id of ['dg-topbar', 'dg-breadcrumbs', 'dg-main', 'dg-toc', 'dg-footer']) expect(document.getElementById(id)).toHaveAttribute('inert');
    expect(drawer).not.toHaveAttribute('inert');
    expect(document.querySelector('.dg-menu-backdrop')).not.toHaveAttribute('inert');
    expect(document.documentElement).toHaveClass('dg-drawer-open');
  });

  it('keeps Tab inside and closes on Escape, giving focus back to the button', () => {
    const { button, drawer } = renderLayout();
    button.focus();
    fireEvent.click(button);
    const close = within(drawer).getByRole('button', { name: 'Close menu' });
    const last = within(drawer).getByRole('link', { name: 'Help Center' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(within(drawer).getByRole('link', { name: 'Fixture Docs' })).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(last).toHaveFocus();
    // The carets are out of the Tab order: one stop per section.
    expect(close).toBeInTheDocument();
    expect(focusablesIn(drawer).filter((e) => e.classList.contains('dg-menu-caret'))).toEqual([]);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(drawer).not.toHaveClass('is-open');
    expect(button).toHaveFocus();
    expect(document.getElementById('dg-main')).not.toHaveAttribute('inert');
    expect(document.documentElement).not.toHaveClass('dg-drawer-open');
  });

  it('closes with its close button and its backdrop', () => {
    const { button, drawer } = renderLayout();
    fireEvent.click(button);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close menu' }));
    expect(drawer).not.toHaveClass('is-open');
    fireEvent.click(button);
    fireEvent.click(document.querySelector('.dg-menu-backdrop')!);
    expect(drawer).not.toHaveClass('is-open');
    expect(document.querySelector('.dg-menu-backdrop')).toBeNull();
  });

  it('closes when one of its links is followed, and on every new page', () => {
    const { button, drawer, rerenderView } = renderLayout();
    fireEvent.click(button);
    const link = within(drawer).getByRole('link', { name: 'Changelog' });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    expect(drawer).not.toHaveClass('is-open');
    fireEvent.click(button);
    rerenderView(pageView(2));
    expect(drawer).not.toHaveClass('is-open');
  });

  it('lists the areas, the current one marked, and the site’s home', () => {
    const { drawer } = renderLayout();
    const areas = within(drawer).getByRole('list', { name: 'Documentation areas' });
    expect(within(areas).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('aria-current')])).toEqual([
      ['Mediation', 'true'],
      ['Demand Partners', null],
    ]);
    expect(within(drawer).getByRole('link', { name: 'Fixture Docs' })).toHaveAttribute('href', M);
  });
});

describe('the top bar', () => {
  it('has the menu button, the link to the menu for pages without scripts, and the theme switch', () => {
    render(<TopBar site={site} base="" area={M} />);
    const bar = screen.getByRole('banner');
    expect(within(bar).getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(bar).getByRole('link', { name: 'Menu' })).toHaveAttribute('href', '#dg-menu');
    expect(within(bar).getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(bar).getByRole('link', { name: 'Mediation' })).toHaveAttribute('aria-current', 'true');
  });
});

describe('back to top', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });

  const scrollTo_ = (y: number) =>
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      window.dispatchEvent(new Event('scroll'));
      vi.advanceTimersByTime(50);
    });

  it('appears past one and a half windows down and scrolls to the top', () => {
    render(<BackToTop />);
    const button = screen.getByRole('button', { name: 'Back to top' });
    expect(button).not.toHaveClass('is-shown');
    scrollTo_(1000);
    expect(button).not.toHaveClass('is-shown');
    scrollTo_(1300);
    expect(button).toHaveClass('is-shown');
    fireEvent.click(button);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    scrollTo_(0);
    expect(button).not.toHaveClass('is-shown');
  });
});
