import { useCallback, useMemo, useState } from 'react';
import { activePath, type MenuNode } from '../lib/menu';

export interface MenuState {
  /** The id of the active item (longest match of the route), if any. */
  activeId: string | null;
  isOpen(id: string): boolean;
  toggle(id: string): void;
  /** Loads the nav shard of a section (by id) that is open before its children are known. */
  load?: (id: string) => void;
}

function sectionsOn(path: readonly MenuNode[]): string[] {
  return path.slice(1).filter((n) => n.isSection).map((n) => n.id);
}

/**
 * Which sections are open and which item is active. On every route the sections on the way to
 * the active item open (they are what the server pre-renders open); the reader opens and
 * closes others by hand, and those stay as they are across routes.
 */
export function useMenuState(root: MenuNode | null, route: string): MenuState {
  const path = useMemo(() => activePath(root, route), [root, route]);
  const pathKey = path.map((n) => n.id).join('\n');
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(sectionsOn(path)));
  const key = `${route}\n${pathKey}`;
  const [seenKey, setSeenKey] = useState(key);

  // Opening the path is part of rendering the new route, not an effect after it, so the first
  // paint of a route already shows its branch open.
  if (seenKey !== key) {
    setSeenKey(key);
    const wanted = sectionsOn(path);
    if (wanted.some((id) => !open.has(id))) setOpen(new Set([...open, ...wanted]));
  }

  const toggle = useCallback((id: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const isOpen = useCallback((id: string) => open.has(id), [open]);
  const active = path.length > 1 ? path[path.length - 1] : null;
  return { activeId: active ? active.id : null, isOpen, toggle };
}
