import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SHARD_INDEX, assemble, fetchShard, fetchShardIndex } from '../data/nav';
import { withBase } from '../lib/routes';
import type { NavNode, NavShard, NavShardIndex } from '../types';

export interface NavTree {
  /** The tree from the loaded shards; null until it covers every shard of `wanted`. */
  nodes: NavNode[] | null;
  /** Loads the shard of the level-1 section with this nav id (one the reader opens). */
  loadSection(id: string): void;
}

/**
 * The menu tree from the nav shards the page names (`wanted`, routes of `_docgen/nav/` files),
 * plus those of the sections the reader opens (found in the shard index, loaded only then).
 * Each file is loaded once. Until the
 * wanted ones are all there the menu keeps showing the branch the server pre-rendered, which
 * is the same as far as it goes.
 */
export function useNavTree(base: string, wanted: readonly string[]): NavTree {
  const [shards, setShards] = useState<ReadonlyMap<string, NavShard>>(() => new Map());
  const requested = useRef(new Set<string>());
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const load = useCallback(
    (shard: string) => {
      if (requested.current.has(shard)) return;
      requested.current.add(shard);
      fetchShard(withBase(base, shard)).then(
        (body) => live.current && setShards((prev) => new Map(prev).set(shard, body)),
        () => requested.current.delete(shard),
      );
    },
    [base],
  );

  const key = wanted.join('\n');
  useEffect(() => {
    for (const shard of key ? key.split('\n') : []) load(shard);
  }, [key, load]);

  const index = useRef<Promise<NavShardIndex> | null>(null);
  const loadSection = useCallback(
    (id: string) => {
      index.current ??= fetchShardIndex(withBase(base, SHARD_INDEX));
      index.current.then(
        (i) => {
          const file = i.shards.find((s) => s.id === id)?.file;
          if (file) load(file);
        },
        () => {
          index.current = null;
        },
      );
    },
    [base, load],
  );

  const nodes = useMemo(() => {
    const all = key ? key.split('\n') : [];
    return all.every((s) => shards.has(s)) ? assemble(shards) : null;
  }, [shards, key]);
  return { nodes, loadSection };
}
