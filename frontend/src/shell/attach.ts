// The behaviour of the server's markup, attached in place: the theme switch, the code boxes'
// background switch, the footer's year, back to top, copying a heading's link, the left menu and
// its drawer, the table of contents and the content's gated elements. Clicks are handled once for
// the document, so a page swapped in by a client-side navigation needs only `page()` again.

import { BACK_TO_TOP_SCREENS } from '../constants';
import { applyGates, type Access } from '../lib/access';
import { currentCodeBackground, subscribeCodeBackground, toggleCodeBackground } from '../lib/codeBackground';
import { currentTheme, setTheme, subscribeTheme } from '../lib/theme';
import { anchorUrl } from '../ui/Heading';
import { Drawer } from './drawer';
import { Menu, revealCurrent, type MenuOptions } from './menu';
import { Toc } from './toc';

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The theme switches say whether the dark theme is on. */
function showTheme(): void {
  const dark = String(currentTheme() === 'dark');
  for (const el of Array.from(document.querySelectorAll('.dg-theme-toggle'))) el.setAttribute('aria-pressed', dark);
}

/** The code boxes' background switches say whether the dark background is on (all boxes share it). */
function showCodeBackground(): void {
  const dark = String(currentCodeBackground() === 'dark');
  for (const el of Array.from(document.querySelectorAll('.dg-code-bg-toggle'))) el.setAttribute('aria-pressed', dark);
}

/** The round "Back to top" button appears once the reader is more than 1.5 windows down. */
function showToTop(): void {
  const past = window.scrollY > window.innerHeight * BACK_TO_TOP_SCREENS;
  for (const el of Array.from(document.querySelectorAll('.dg-to-top'))) el.classList.toggle('is-shown', past);
}

/** Back to top; from the keyboard it also moves focus to the page's title, so Tab goes on from the top. */
function toTop(button: HTMLElement): void {
  let fromKeyboard = false;
  try {
    fromKeyboard = button.matches(':focus-visible');
  } catch {
    // A browser without :focus-visible: focus stays.
  }
  window.scrollTo({ top: 0, behavior: reducedMotion() ? 'auto' : 'smooth' });
  const title = document.querySelector<HTMLElement>('#dg-main h1, .dg-article h1');
  if (fromKeyboard && title) {
    title.setAttribute('tabindex', '-1');
    title.focus({ preventScroll: true });
  }
}

export class Shell {
  readonly drawer = new Drawer();
  readonly menu: Menu | null;
  private toc: Toc | null = null;
  private readonly listening = new AbortController();
  private readonly unsubscribeTheme: () => void;
  private readonly unsubscribeCodeBackground: () => void;

  constructor(
    private readonly access: Access,
    menu: MenuOptions | null,
  ) {
    this.menu = menu ? new Menu(menu) : null;
    const signal = this.listening.signal;
    document.addEventListener('click', (e) => { this.onClick(e); }, { signal });
    document.addEventListener('keydown', (e) => {
      if (this.toc?.onKeyDown(e)) return;
      this.menu?.onKeyDown(e);
    }, { signal });
    this.unsubscribeTheme = subscribeTheme(showTheme);
    this.unsubscribeCodeBackground = subscribeCodeBackground(showCodeBackground);
    let frame = 0;
    const onScroll = () => {
      frame ||= window.requestAnimationFrame(() => {
        frame = 0;
        showToTop();
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true, signal });
    window.addEventListener('resize', onScroll, { signal });
    this.page();
  }

  /** Stops listening (the document is done with). */
  dispose(): void {
    this.listening.abort();
    this.unsubscribeTheme();
    this.unsubscribeCodeBackground();
    this.toc?.dispose();
    this.drawer.close();
  }

  /** Attaches to the page on screen (the first, or one a navigation swapped in). */
  page(): void {
    this.drawer.close();
    showTheme();
    showCodeBackground();
    showToTop();
    // The server wrote the year of the build; the reader sees today's (in UTC).
    const year = String(new Date().getUTCFullYear());
    for (const el of Array.from(document.querySelectorAll('.dg-year'))) el.textContent = year;
    for (const article of Array.from(document.querySelectorAll('.dg-article'))) applyGates(article, this.access);
    const nav = document.getElementById('dg-menu');
    if (nav) this.menu?.restore(nav);
    // The sticky menu column shows the current page's item; a drawer does so when it opens (its
    // closed, hidden menu is left as the server rendered it).
    if (nav && getComputedStyle(nav).position !== 'fixed') revealCurrent(nav);
    this.toc?.dispose();
    const toc = document.getElementById('dg-toc');
    this.toc = toc ? new Toc(toc) : null;
  }

  private onClick(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    if (this.drawer.onClick(e)) return;
    if (this.menu?.onClick(e)) return;
    this.toc?.onClick(e);
    if (target.closest('.dg-theme-toggle')) setTheme(currentTheme() === 'dark' ? 'light' : 'dark');
    // Every code box's switch, the server's and the app's (generated code) alike.
    if (target.closest('.dg-code-bg-toggle')) toggleCodeBackground();
    const toTopButton = target.closest<HTMLElement>('.dg-to-top');
    if (toTopButton) toTop(toTopButton);
    // A heading's link still goes to its section; its address is also put on the clipboard to share.
    const anchor = target.closest('.dg-article a.dg-anchor');
    // Pages served over plain http have no Clipboard API.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (anchor instanceof HTMLAnchorElement && clipboard?.writeText) clipboard.writeText(anchorUrl(anchor)).catch(() => undefined);
  }
}
