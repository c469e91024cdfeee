// Mounting content islands: finds the islands in some content and renders each component into
// its element. Used by the article and by components whose fallback holds islands of its own.

import { useLayoutEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { applyGates } from '../lib/access';
import { useAccess } from '../state/AccessContext';
import { collectIslands, markMounted, type MountedIsland } from './registry';

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

/** Marks its island mounted once the component inside has committed (its layout effects run first). */
function Committed({ island, children }: { island: MountedIsland; children: ReactNode }) {
  useLayoutEffect(() => {
    markMounted(island);
  }, [island]);
  return children;
}

export function renderIslands(islands: MountedIsland[]) {
  return islands.map((island) => {
    const { key, host, def: { Component }, props } = island;
    return createPortal(
      <Committed island={island}>
        <Component {...props} host={host} />
      </Committed>,
      host,
      key,
    );
  });
}
