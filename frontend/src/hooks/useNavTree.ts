import { useEffect, useState } from 'react';
import { fetchNav } from '../data/nav';
import type { NavNode } from '../types';

/**
 * The whole menu tree from nav.json, loaded once; null until it is there. Without it the menu
 * keeps showing the branch the server pre-rendered, which is the same as far as it goes.
 */
export function useNavTree(url: string): NavNode[] | null {
  const [nodes, setNodes] = useState<NavNode[] | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    fetchNav(url).then(
      (n) => live && setNodes(n),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [url]);
  return nodes;
}
