import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Toc, headingInView } from '../src/shell/toc';
import type { TocEntry } from '../src/types';

const toc: TocEntry[] = [
  { displayName: 'Banners', hashName: '#banners', level: 1 },
  { displayName: 'Loading', hashName: '#loading', level: 2 },
  { displayName: 'Sizes (px)', hashName: '#sizes-(px)', level: 3 },
  { displayName: 'Refresh', hashName: '#refresh', level: 2 },
];

// Where each heading's top is in the window, as the test scrolls.
let tops: Record<string, number> = {};
beforeEach(() => {
  vi.useFakeTimers();
  for (const id of ['banners', 'loading', 'sizes-(px)', 'refresh']) {
    const h = document.createElement('h2');
    h.id = id;
    h.getBoundingClientRect = () => ({ top: tops[id] ?? 0 }) as DOMRect;
    document.body.appendChild(h);
  }
  tops = { banners: 130, loading: 600, 'sizes-(px)': 900, refresh: 1400 };
});
afterEach(() => {
  vi.useRealTimers();
});

/** The table as templates/macros.html renders it, with the app attached; `hash` is the address's. */
function renderToc(entries: TocEntry[], hash = '') {
  window.history.replaceState(null, '', `/page${hash}`);
  const aside = document.createElement('aside');
  aside.id = 'dg-toc';
  aside.className = 'dg-toc';
  if (entries.length > 0) {
    aside.innerHTML = `<nav aria-label="Table of Contents">
<h2 class="dg-toc-title">Table of Contents</h2>
<button type="button" class="dg-toc-toggle" aria-expanded="false" aria-controls="dg-toc-list"><span class="dg-toc-label">On this page</span> <span class="dg-toc-current">${entries[0].displayName}</span></button>
<ul id="dg-toc-list">${entries.map((e) => `<li class="dg-toc-entry" data-level="${e.level}"><a href="${e.hashName}">${e.displayName}</a></li>`).join('')}</ul>
</nav>`;
  }
  document.body.appendChild(aside);
  const toc = new Toc(aside);
  const onClick = (e: MouseEvent) => { toc.onClick(e); };
  const onKeyDown = (e: KeyboardEvent) => { toc.onKeyDown(e); };
  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  onTestFinished(() => {
    toc.dispose();
    document.removeEventListener('click', onClick);
    document.removeEventListener('keydown', onKeyDown);
    aside.remove();
  });
  return toc;
}

function goToHash(hash: string) {
  window.history.replaceState(null, '', `/page${hash}`);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

const hashes = toc.map((e) => e.hashName);

const active = () => document.querySelector('.dg-toc a[aria-current]')?.textContent ?? null;
const scrollTo = (next: Record<string, number>) => {
  tops = next;
};
const tick = (ms: number) => void vi.advanceTimersByTime(ms);

describe('table of contents', () => {
  it('is a navigation named "Table of Contents" listing the headings by level', () => {
    renderToc(toc);
    const nav = screen.getByRole('navigation', { name: 'Table of Contents' });
    expect(nav.closest('aside')).toHaveAttribute('id', 'dg-toc');
    expect(screen.getByRole('heading', { name: 'Table of Contents' })).toHaveClass('dg-toc-title');
    expect(screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href'), a.parentElement!.dataset.level])).toEqual([
      ['Banners', '#banners', '1'],
      ['Loading', '#loading', '2'],
      ['Sizes (px)', '#sizes-(px)', '3'],
      ['Refresh', '#refresh', '2'],
    ]);
  });

  it('leaves an empty panel empty', () => {
    renderToc([]);
    tick(500);
    expect(document.getElementById('dg-toc')?.innerHTML).toBe('');
  });

  it('follows the URL hash', () => {
    renderToc(toc, '#refresh');
    expect(active()).toBe('Refresh');
    goToHash('#sizes-(px)');
    expect(active()).toBe('Sizes (px)');
    expect(screen.getByRole('link', { name: 'Sizes (px)' }).parentElement).toHaveClass('is-active');
  });

  it('finds the heading in view by polling every 100 ms with a 120 px threshold', () => {
    renderToc(toc);
    expect(active()).toBe('Banners');
    scrollTo({ banners: -400, loading: 121, 'sizes-(px)': 400, refresh: 900 });
    tick(99);
    expect(active()).toBe('Banners');
    tick(1);
    expect(active()).toBe('Banners');
    scrollTo({ banners: -401, loading: 120, 'sizes-(px)': 399, refresh: 899 });
    tick(100);
    expect(active()).toBe('Loading');
    scrollTo({ banners: -900, loading: -380, 'sizes-(px)': -100, refresh: 119 });
    tick(100);
    expect(active()).toBe('Refresh');
  });

  it('keeps a hash target that cannot reach the top until the reader scrolls on', () => {
    scrollTo({ banners: -900, loading: -300, 'sizes-(px)': 40, refresh: 500 });
    renderToc(toc, '#refresh');
    tick(500);
    expect(active()).toBe('Refresh');
    scrollTo({ banners: -600, loading: 0, 'sizes-(px)': 340, refresh: 800 });
    tick(100);
    expect(active()).toBe('Loading');
  });

  it('picks the last heading above the threshold', () => {
    tops = { banners: -10, loading: 50, 'sizes-(px)': 119, refresh: 121 };
    expect(headingInView(hashes, 120)).toBe('#sizes-(px)');
    tops = { banners: 300, loading: 600, 'sizes-(px)': 900, refresh: 1000 };
    expect(headingInView(hashes, 120)).toBe('#banners');
    expect(headingInView([], 120)).toBeNull();
  });

  it('folds behind an “On this page” button, closed after an entry is followed', () => {
    renderToc(toc);
    const button = screen.getByRole('button', { name: /^On this page/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'dg-toc-list');
    expect(document.getElementById('dg-toc-list')?.tagName).toBe('UL');
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(screen.getByRole('link', { name: 'Refresh' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('names the section being read in its button, as the reader scrolls and follows links', () => {
    renderToc(toc);
    const current = () => document.querySelector('.dg-toc-current')?.textContent;
    expect(current()).toBe('Banners');
    scrollTo({ banners: -401, loading: 120, 'sizes-(px)': 399, refresh: 899 });
    tick(100);
    expect(current()).toBe('Loading');
    expect(screen.getByRole('button', { name: 'On this page Loading' })).toBeInTheDocument();
    goToHash('#refresh');
    expect(current()).toBe('Refresh');
  });

  it('closes on Escape, giving the focus back to its button', () => {
    renderToc(toc);
    const button = screen.getByRole('button', { name: /^On this page/ });
    fireEvent.click(button);
    const link = screen.getByRole('link', { name: 'Loading' });
    link.focus();
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(button);
    // Closed, Escape is left to others.
    const other = vi.fn();
    document.addEventListener('keydown', other);
    fireEvent.keyDown(button, { key: 'Escape' });
    document.removeEventListener('keydown', other);
    expect(other).toHaveBeenCalledOnce();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when the reader clicks elsewhere, where the list lies over the page', () => {
    renderToc(toc);
    const button = screen.getByRole('button', { name: /^On this page/ });
    const outside = document.getElementById('loading')!;
    fireEvent.click(button);
    // Folded above the article (tablets), the list is part of the page: it stays open.
    fireEvent.click(outside);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    // Over the page (the phones' bar), a click elsewhere closes it.
    document.getElementById('dg-toc-list')!.style.position = 'absolute';
    fireEvent.click(outside);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('at the bottom of the page', () => {
  // The window as the test scrolls it: its height, how far down it is, the page's height.
  const scrolled = (y: number, page = 3000, height = 1000) => {
    Object.defineProperty(window, 'innerHeight', { value: height, configurable: true });
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    Object.defineProperty(document.documentElement, 'scrollHeight', { value: page, configurable: true });
  };
  afterEach(() => { scrolled(0, 0, 768); });

  it('makes the last heading active, although it never reaches the top of the window', () => {
    renderToc(toc);
    // Short last sections: at the bottom, "Sizes" is the last heading past the threshold.
    scrolled(1900);
    scrollTo({ banners: -1500, loading: -600, 'sizes-(px)': 100, refresh: 400 });
    tick(100);
    expect(active()).toBe('Sizes (px)');
    scrolled(2000);
    scrollTo({ banners: -1600, loading: -700, 'sizes-(px)': 0, refresh: 300 });
    tick(100);
    expect(active()).toBe('Refresh');
    expect(screen.getByRole('link', { name: 'Refresh' }).parentElement).toHaveClass('is-active');
    // Scrolling back up hands over to the heading in view again.
    scrolled(1500);
    scrollTo({ banners: -1100, loading: -200, 'sizes-(px)': 500, refresh: 800 });
    tick(100);
    expect(active()).toBe('Loading');
  });

  it('does not count a page that does not scroll as scrolled to its bottom', () => {
    scrolled(0, 800, 1000);
    tops = { banners: 130, loading: 300, 'sizes-(px)': 500, refresh: 700 };
    expect(headingInView(hashes, 120)).toBe('#banners');
    scrolled(2000);
    expect(headingInView(hashes, 120)).toBe('#refresh');
  });
});
