import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useCodeTab } from './useCodeTab';

/**
 * The behaviour of a list of tabs chosen by label for the whole site (useCodeTab): the
 * selected tab, selection by click and by keyboard (arrow keys wrap, Home and End) with a roving
 * tabindex, and the chosen tab kept where it was on screen while boxes above it change height.
 * `labels` may be empty for a box without tabs; `count` is its number of panels.
 */
export function useTabList(labels: readonly string[], count: number) {
  const { selected: preferred, choose } = useCodeTab(labels);
  const selected = Math.min(preferred, count - 1);
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  /** The chosen tab and where it was on screen, to keep it there when boxes above change. */
  const anchor = useRef<{ tab: HTMLElement; top: number } | null>(null);

  useLayoutEffect(() => {
    const a = anchor.current;
    anchor.current = null;
    if (!a || !a.tab.isConnected) return;
    const moved = a.tab.getBoundingClientRect().top - a.top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  }, [selected]);

  const select = (i: number, focus: boolean) => {
    const n = (i + count) % count;
    const tab = tabs.current[n];
    if (tab && n !== selected) anchor.current = { tab, top: tab.getBoundingClientRect().top };
    choose(n);
    if (focus) tab?.focus();
  };

  /** The props of the `i`-th tab button. */
  const tabProps = (i: number) => ({
    ref: (el: HTMLButtonElement | null) => {
      tabs.current[i] = el;
    },
    type: 'button' as const,
    role: 'tab',
    'aria-selected': i === selected,
    tabIndex: i === selected ? 0 : -1,
    onClick: () => select(i, false),
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => {
      const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: count - 1 };
      const to = moves[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select(to, true);
    },
  });

  return { selected, tabProps };
}
