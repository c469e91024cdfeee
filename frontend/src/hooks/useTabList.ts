import { useLayoutEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { useCodeTab } from './useCodeTab';

/** The tab a key moves to from tab `i` of `count` (arrow keys wrap, Home and End), if any. */
function moveFor(key: string, i: number, count: number): number | undefined {
  const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: count - 1 };
  return moves[key];
}

/**
 * The behaviour of a list of tabs chosen by label for the whole site (useCodeTab): the
 * selected tab, selection by click and by keyboard (arrow keys wrap, Home and End) with a roving
 * tabindex, and the chosen tab kept where it was on screen while boxes above it change height.
 * `labels` may be empty for a box without tabs; `count` is its number of panels. `apply` shows
 * a selection in markup the component does not render.
 */
export function useTabList(labels: readonly string[], count: number, apply?: (selected: number) => void) {
  const { selected: preferred, choose } = useCodeTab(labels);
  const selected = Math.min(preferred, count - 1);
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  /** The chosen tab and where it was on screen, to keep it there when boxes above change. */
  const anchor = useRef<{ tab: HTMLElement; top: number } | null>(null);

  const applied = useRef(apply);
  applied.current = apply;
  useLayoutEffect(() => {
    // Tabs the server rendered show the change first, then the chosen one is measured again.
    applied.current?.(selected);
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

  /** Handles a key on the `i`-th tab; true when it moved. */
  const onKey = (i: number, e: { key: string; preventDefault(): void }) => {
    const to = moveFor(e.key, i, count);
    if (to === undefined) return false;
    e.preventDefault();
    select(to, true);
    return true;
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
    onClick: () => { select(i, false); },
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void onKey(i, e),
  });

  return { selected, tabProps, select, onKey, tabs };
}

/**
 * useTabList for tab buttons and panels the server rendered: their state is set in place on
 * every change (before paint), and their events handled where they are.
 */
export function useTabsInPlace(buttons: readonly HTMLButtonElement[], panels: readonly HTMLElement[]): number {
  const labels = useMemo(() => buttons.map((b) => b.textContent).slice(0, panels.length), [buttons, panels]);
  const show = (selected: number) => {
    buttons.forEach((b, i) => {
      b.setAttribute('aria-selected', String(i === selected));
      b.tabIndex = i === selected ? 0 : -1;
    });
    panels.forEach((p, i) => {
      p.hidden = i !== selected;
    });
  };
  const { selected, select, onKey, tabs } = useTabList(labels, panels.length, buttons.length > 0 ? show : undefined);
  const latest = useRef({ select, onKey });
  latest.current = { select, onKey };
  useLayoutEffect(() => {
    tabs.current = [...buttons];
    const off = buttons.map((b, i) => {
      const onClick = () => { latest.current.select(i, false); };
      const onKeyDown = (e: globalThis.KeyboardEvent) => void latest.current.onKey(i, e);
      b.addEventListener('click', onClick);
      b.addEventListener('keydown', onKeyDown);
      return () => {
        b.removeEventListener('click', onClick);
        b.removeEventListener('keydown', onKeyDown);
      };
    });
    return () => { off.forEach((f) => { f(); }); };
  }, [buttons, tabs]);
  return selected;
}
