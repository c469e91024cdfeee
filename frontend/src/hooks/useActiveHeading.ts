import { useEffect, useRef, useState } from 'react';
import { IN_VIEW_POLL_MS, VISIBILITY_THRESHOLD_PX } from '../constants';
import { safeDecode } from '../lib/routes';
import type { TocEntry } from '../types';

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
 * The hash of the table-of-contents entry in view: the last heading whose top has passed the
 * visibility threshold below the top of the window, or the first heading when none has. At the
 * bottom of the page, the last heading: it is in view and can scroll no higher.
 */
export function headingInView(entries: readonly TocEntry[], threshold: number, doc: Document = document): string | null {
  const element = (entry: TocEntry) => doc.getElementById(safeDecode(entry.hashName.slice(1)));
  if (atBottom(doc)) {
    for (let i = entries.length - 1; i >= 0; i--) if (element(entries[i]!)) return entries[i]!.hashName;
    return null;
  }
  let current: string | null = null;
  for (const entry of entries) {
    const el = element(entry);
    if (!el) continue;
    if (current === null) current = entry.hashName;
    if (el.getBoundingClientRect().top <= threshold) current = entry.hashName;
    else break;
  }
  return current;
}

/** The entry of `hash`, when the table lists it. */
function entryOfHash(entries: readonly TocEntry[], hash: string): string | null {
  if (!hash) return null;
  const wanted = safeDecode(hash);
  return entries.find((e) => safeDecode(e.hashName) === wanted)?.hashName ?? null;
}

/**
 * The active entry of the table of contents. It follows the URL hash; between hash changes it
 * follows the heading in view, found by polling (every 100 ms, 120 px threshold). After a hash
 * change the poll only takes over once the heading in view changes, so a heading the page
 * cannot scroll up to the top keeps its highlight.
 */
export function useActiveHeading(entries: readonly TocEntry[], hash: string, interval = IN_VIEW_POLL_MS, threshold = VISIBILITY_THRESHOLD_PX): string | null {
  const fromHash = entryOfHash(entries, hash);
  const [active, setActive] = useState<string | null>(fromHash);
  const baseline = useRef<string | null | undefined>(undefined);
  const hashActive = useRef(fromHash !== null);

  useEffect(() => {
    hashActive.current = fromHash !== null;
    if (fromHash !== null) {
      setActive(fromHash);
      baseline.current = undefined;
    }
  }, [fromHash, entries]);

  useEffect(() => {
    if (entries.length === 0) {
      setActive(null);
      return;
    }
    baseline.current = undefined;
    const tick = () => {
      const inView = headingInView(entries, threshold);
      if (baseline.current === undefined) {
        baseline.current = inView;
        if (!hashActive.current) setActive(inView);
        return;
      }
      if (inView !== baseline.current) {
        baseline.current = inView;
        setActive(inView);
      }
    };
    tick();
    const id = window.setInterval(tick, interval);
    return () => window.clearInterval(id);
  }, [entries, interval, threshold]);

  return active;
}
