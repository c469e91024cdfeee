import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MENU_CLOSE_MS, MENU_EXPAND_MAX_PX, MENU_OPEN_MS } from '../src/constants';
import { fromNav, parseMenu } from '../src/lib/menu';
import { LeftMenu } from '../src/shell/LeftMenu';
import { bannersMenuHtml, nav, site, tight } from './fixtures';

const M = '/documentation/mediation';
const banners = `${M}/android/ad-formats/banners`;

afterEach(() => {
  vi.useRealTimers();
});

function item(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'a, button' }).closest('li')!;
}

describe('left menu', () => {
  it('renders exactly the markup docgen pre-renders, so mounting changes nothing', () => {
    const host = document.createElement('div');
    host.innerHTML = bannersMenuHtml;
    const menu = parseMenu(host.firstElementChild, '');
    const { container } = render(<LeftMenu menu={menu} route={banners} site={site} base="" />);
    expect(tight(container.innerHTML)).toBe(tight(bannersMenuHtml));
  });

  it('renders the same open branch from nav.json', () => {
    const { container } = render(<LeftMenu menu={fromNav(nav, banners, '', ['beta-tools'])} route={banners} site={site} base="" />);
    expect(tight(container.innerHTML)).toBe(tight(bannersMenuHtml));
  });

  it('shows the area root, icons on level 1, and marks the page of the route', () => {
    render(<LeftMenu menu={fromNav(nav, banners, '', ['beta-tools'])} route={banners} site={site} base="" />);
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Mediation' }).map((a) => a.className)).toEqual(['', 'dg-menu-root']);
    expect(screen.getByRole('img', { name: 'Android' })).toHaveAttribute('width', '20');
    const current = screen.getByRole('link', { name: 'Banners' });
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(current.closest('li')).toHaveClass('is-active');
    expect(item('Android')).toHaveClass('is-open');
    expect(item('Ad Formats')).toHaveClass('is-open');
    expect(screen.getByRole('button', { name: 'Android pages' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Native Ads pages' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('activates the longest match without marking it current', () => {
    render(<LeftMenu menu={fromNav(nav, `${banners}/extra`, '', [])} route={`${banners}/extra`} site={site} base="" />);
    const link = screen.getByRole('link', { name: 'Banners' });
    expect(link.closest('li')).toHaveClass('is-active');
    expect(link).not.toHaveAttribute('aria-current');
  });

  it('activates Reporting API, not Reporting, on its route', () => {
    render(<LeftMenu menu={fromNav(nav, `${M}/reporting-api`, '', [])} route={`${M}/reporting-api`} site={site} base="" />);
    expect(item('Reporting API')).toHaveClass('is-active');
    expect(item('Reporting')).not.toHaveClass('is-active');
  });

  it('shows levels 0 to 4 and opens the ancestors of a deep page', () => {
    const route = `${M}/android/ad-formats/native/manual`;
    const { container } = render(<LeftMenu menu={fromNav(nav, route, '', [])} route={route} site={site} base="" />);
    const leaf = screen.getByRole('link', { name: 'Manual Native Ads' });
    expect(leaf).toHaveAttribute('aria-current', 'page');
    let depth = 0;
    for (let el: Element | null = leaf; el && el !== container; el = el.parentElement) if (el.matches('ul.dg-menu-list')) depth++;
    expect(depth).toBe(4);
  });

  it('keeps sections the reader opened when the route changes, and opens the new branch', () => {
    const menu = fromNav(nav, banners, '', []);
    const { rerender } = render(<LeftMenu menu={menu} route={banners} site={site} base="" />);
    fireEvent.click(screen.getByRole('button', { name: /Getting Started/ }));
    const route = `${M}/android/ad-formats/native/manual`;
    rerender(<LeftMenu menu={menu} route={route} site={site} base="" />);
    expect(screen.getByRole('button', { name: /Getting Started/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Native Ads pages' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Manual Native Ads' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens a section with an animated height up to 1500 px in 0.6 s, and closes it in 0.4 s', () => {
    vi.useFakeTimers();
    render(<LeftMenu menu={fromNav(nav, banners, '', [])} route={banners} site={site} base="" />);
    const caret = screen.getByRole('button', { name: 'Mediation Setup pages' });
    const li = caret.closest('li')!;
    expect(li.querySelector('ul')).toBeNull();

    fireEvent.click(caret);
    expect(caret).toHaveAttribute('aria-expanded', 'true');
    expect(li).toHaveClass('is-open');
    const list = li.querySelector<HTMLElement>(':scope > ul.dg-menu-list')!;
    expect(within(list).getByRole('button', { name: 'Bidders' })).toBeInTheDocument();
    expect(list.style.maxHeight).toBe(`${MENU_EXPAND_MAX_PX}px`);
    act(() => void vi.advanceTimersByTime(MENU_OPEN_MS + 50));
    expect(list.style.maxHeight).toBe('');

    fireEvent.click(caret);
    expect(caret).toHaveAttribute('aria-expanded', 'false');
    expect(li).not.toHaveClass('is-open');
    expect(list.style.maxHeight).toBe('0px');
    expect(list.isConnected).toBe(true);
    act(() => void vi.advanceTimersByTime(MENU_CLOSE_MS + 50));
    expect(li.querySelector('ul')).toBeNull();
  });

  it('ends the animation on transitionend', () => {
    render(<LeftMenu menu={fromNav(nav, banners, '', [])} route={banners} site={site} base="" />);
    fireEvent.click(screen.getByRole('button', { name: /Getting Started/ }));
    const list = item('Getting Started').querySelector<HTMLElement>(':scope > ul')!;
    expect(list.style.maxHeight).toBe('1500px');
    fireEvent.transitionEnd(list, { propertyName: 'max-height' });
    expect(list.style.maxHeight).toBe('');
    expect(screen.getByRole('link', { name: 'Quick Start' })).toBeInTheDocument();
  });

  it('takes one Tab stop per section: the caret is out of the Tab order, the link’s arrow keys open and close', () => {
    render(<LeftMenu menu={fromNav(nav, banners, '', [])} route={banners} site={site} base="" />);
    const caret = screen.getByRole('button', { name: 'Mediation Setup pages' });
    expect(caret).toHaveAttribute('tabindex', '-1');
    const link = screen.getByRole('link', { name: 'Mediation Setup' });
    fireEvent.keyDown(link, { key: 'ArrowRight' });
    expect(caret).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(link, { key: 'ArrowRight' });
    expect(caret).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(link, { key: 'ArrowLeft' });
    expect(caret).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(link, { key: 'ArrowRight', shiftKey: true });
    expect(caret).toHaveAttribute('aria-expanded', 'false');
    // Sections without a page of their own stay one button, in the Tab order.
    expect(screen.getByRole('button', { name: /Getting Started/ })).not.toHaveAttribute('tabindex');
  });

  it('has the animation timings of the specification in its styles', () => {
    const css = (f: string) => readFileSync(path.join(__dirname, '../src/styles', f), 'utf8');
    expect(css('theme.css')).toMatch(/--dg-menu-open-duration: 0\.6s/);
    expect(css('theme.css')).toMatch(/--dg-menu-close-duration: 0\.4s/);
    expect(css('theme.css')).toMatch(/--dg-menu-width: 260px/);
    expect(css('shell.css')).toMatch(/transition: max-height var\(--dg-menu-close-duration\)/);
    expect(css('shell.css')).toMatch(/\.dg-menu-section\.is-open > \.dg-menu-list \{ transition-duration: var\(--dg-menu-open-duration\)/);
    expect([MENU_OPEN_MS, MENU_CLOSE_MS, MENU_EXPAND_MAX_PX]).toEqual([600, 400, 1500]);
  });

  it('hides items whose feature is not enabled and opens external links in a new tab', () => {
    render(<LeftMenu menu={fromNav(nav, M, '', ['beta-tools'])} route={M} site={site} base="" />);
    expect(screen.queryByRole('link', { name: 'Labs' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Beta Tools' })).toBeInTheDocument();
    const stories = screen.getByRole('link', { name: 'Success Stories' });
    expect(stories).toHaveAttribute('target', '_blank');
    expect(stories).toHaveAttribute('rel', 'noopener noreferrer');
    expect(document.querySelector('.dg-menu-root')).toHaveAttribute('aria-current', 'page');
  });
});
