// Mounting content islands: finds the islands in some content and renders each component into
// its element. Used by the article and by components whose fallback holds islands of its own.

import { useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { applyGates } from '../lib/access';
import { useAccess } from '../state/AccessContext';
import { collectIslands, type MountedIsland } from './registry';

/** Mounts the islands of some content and renders them where they stand. */
export function useIslands(root: { current: HTMLElement | null }, key: unknown): MountedIsland[] {
  const [islands, setIslands] = useState<MountedIsland[]>([]);
  const access = useAccess();
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    applyGates(el, access);
    setIslands(collectIslands(el));
  }, [root, key, access]);
  return islands;
}

export function renderIslands(islands: MountedIsland[]) {
  return islands.map(({ key, host, def: { Component }, props }) => createPortal(<Component {...props} host={host} />, host, key));
}
