// The table of contents' behaviour, on the server's markup (templates/macros.html, #dg-toc): the
// active entry follows the URL hash and, while scrolling, the heading in view; where the window is
// too narrow for a third column the "On this page" button folds it open and shut. On phones the
// button is a bar under the top bar that names the active entry (.dg-toc-current) and opens the
// list over the page: an entry, Escape or a click elsewhere closes it.

import { IN_VIEW_POLL_MS, VISIBILITY_THRESHOLD_PX } from '../constants';
import { safeDecode } from '../lib/routes';

/**
 * Whether the window is scrolled as far down as the page goes (and the page scrolls at all):
 * the last sections may be too short to ever reach the top of the window.
 */
export function atBottom(doc: Document = document): boolean {
  const win = doc.defaultView;
  const page = doc.scrollingElement ?? doc.documentElement;
  if (!win || win.scrollY <= 0) return false;
  return win.innerHeight + win.scrollY >= page.scrollHeight - 2;
}

/**
 * The hash of the entry in view: the last heading whose top has passed the visibility threshold
 * below the top of the window, or the first heading when none has. At the bottom of the page,
 * the last heading: it is in view and can scroll no higher.
 */
export function headingInView(hashes: readonly string[], threshold: number, doc: Document = document): string | null {
  const element = (hash: string) => doc.getElementById(safeDecode(hash.slice(1)));
  if (atBottom(doc)) {
    for (let i = hashes.length - 1; i >= 0; i--) if (element(hashes[i])) return hashes[i];
    return null;
  }
  let current: string | null = null;
  for (const hash of hashes) {
    const el = element(hash);
    if (!el) continue;
    if (current === null) current = hash;
    if (el.getBoundingClientRect().top <= threshold) current = hash;
    else break;
  }
  return current;
}

/**
 * Follows one page's table (a new one is made for every page shown). After a hash change the
 * poll (every 100 ms, 120 px threshold) takes over only once the heading in view changes, so a
 * heading the page cannot scroll up to the top keeps its highlight.
 */
export class Toc {
  private readonly links: HTMLAnchorElement[];
  private readonly hashes: string[];
  private baseline: string | null | undefined = undefined;
  private hashActive = false;
  private readonly timer: number;
  private readonly onHash = () => { this.followHash(); };
  private readonly toggle: HTMLElement | null;
  private readonly current: HTMLElement | null;

  constructor(
    private readonly root: HTMLElement,
    interval = IN_VIEW_POLL_MS,
    private readonly threshold = VISIBILITY_THRESHOLD_PX,
  ) {
    this.toggle = root.querySelector<HTMLElement>('.dg-toc-toggle');
    this.current = root.querySelector<HTMLElement>('.dg-toc-current');
    this.links = Array.from(root.querySelectorAll<HTMLAnchorElement>('#dg-toc-list a[href^="#"]'));
    this.hashes = this.links.map((a) => a.getAttribute('href') ?? '');
    this.followHash();
    this.tick();
    this.timer = this.hashes.length > 0 ? window.setInterval(() => { this.tick(); }, interval) : 0;
    window.addEventListener('hashchange', this.onHash);
  }

  dispose(): void {
    window.clearInterval(this.timer);
    window.removeEventListener('hashchange', this.onHash);
  }

  /** Whether the fold is open. */
  get open(): boolean {
    return this.toggle?.getAttribute('aria-expanded') === 'true';
  }

  /**
   * Handles a click in the document: the fold's button, entries (which close the fold) and, where
   * the list lies over the page (phones), any click outside the table.
   */
  onClick(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    if (!target || !this.toggle) return;
    if (!this.root.contains(target)) {
      if (this.open && this.overlays()) this.setOpen(false);
      return;
    }
    if (target.closest('.dg-toc-toggle')) this.setOpen(!this.open);
    else if (target.closest('a[href]')) this.setOpen(false);
  }

  /** Escape closes an open fold and gives the focus back to its button. Returns whether it did. */
  onKeyDown(e: KeyboardEvent): boolean {
    if (e.key !== 'Escape' || !this.open || !this.toggle) return false;
    const focusInside = this.root.contains(document.activeElement);
    this.setOpen(false);
    if (focusInside || this.overlays()) this.toggle.focus();
    return true;
  }

  private setOpen(open: boolean): void {
    this.toggle?.setAttribute('aria-expanded', String(open));
  }

  /** Whether the open list lies over the page rather than in it (the phones' bar). */
  private overlays(): boolean {
    const list = this.root.querySelector('#dg-toc-list');
    return list !== null && getComputedStyle(list).position === 'absolute';
  }

  private followHash(): void {
    const wanted = safeDecode(window.location.hash);
    const hash = wanted ? (this.hashes.find((h) => safeDecode(h) === wanted) ?? null) : null;
    this.hashActive = hash !== null;
    if (hash !== null) {
      this.show(hash);
      this.baseline = undefined;
    }
  }

  private tick(): void {
    const inView = headingInView(this.hashes, this.threshold);
    if (this.baseline === undefined) {
      this.baseline = inView;
      if (!this.hashActive) this.show(inView);
      return;
    }
    if (inView !== this.baseline) {
      this.baseline = inView;
      this.show(inView);
    }
  }

  private show(hash: string | null): void {
    this.links.forEach((a, i) => {
      const on = this.hashes[i] === hash;
      a.parentElement?.classList.toggle('is-active', on);
      if (on) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    });
    // The bar names the active entry; with none (no heading on the page), it keeps the server's.
    const active = this.links[this.hashes.indexOf(hash ?? '')] as HTMLAnchorElement | undefined;
    if (this.current && active && this.current.textContent !== active.textContent) this.current.textContent = active.textContent;
  }
}
