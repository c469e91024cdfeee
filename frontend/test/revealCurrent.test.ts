// The menu scrolled to the current page's item: its own scroll box only, and only when needed.

import { describe, expect, it } from 'vitest';
import { revealCurrent } from '../src/shell/menu';

/** A menu 400 px high at y = 100 whose current item sits at `itemTop` (in the window) while scrolled to 0. */
function menu({ itemTop, scrollHeight = 2000, overflowY = 'auto' }: { itemTop: number; scrollHeight?: number; overflowY?: string }) {
  document.body.innerHTML = '<nav id="dg-menu"><ul><li><a href="/a">A</a></li><li><a href="/deep" aria-current="page">Deep</a></li></ul></nav>';
  const nav = document.getElementById('dg-menu')!;
  nav.style.overflowY = overflowY;
  Object.defineProperty(nav, 'clientHeight', { value: 400 });
  Object.defineProperty(nav, 'scrollHeight', { value: scrollHeight });
  nav.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 100, width: 260, height: 400 });
  const item = nav.querySelector<HTMLElement>('[aria-current]')!;
  item.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: itemTop - nav.scrollTop, width: 260, height: 30 });
  return nav;
}

describe('revealing the current menu item', () => {
  it('centres an item below the menu’s view in the menu', () => {
    const nav = menu({ itemTop: 929 });
    revealCurrent(nav);
    // 929 - 100 - (400 - 30) / 2
    expect(nav.scrollTop).toBe(644);
  });

  it('leaves a menu alone whose current item is in view, or that does not scroll itself', () => {
    const shown = menu({ itemTop: 300 });
    revealCurrent(shown);
    expect(shown.scrollTop).toBe(0);
    const fits = menu({ itemTop: 929, scrollHeight: 400 });
    revealCurrent(fits);
    expect(fits.scrollTop).toBe(0);
    const static_ = menu({ itemTop: 929, overflowY: 'visible' });
    revealCurrent(static_);
    expect(static_.scrollTop).toBe(0);
  });
});
