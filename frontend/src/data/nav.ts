// The menu tree in shards (`_docgen/nav/`): per area a list in the shape of nav.json whose
// level-1 sections are marked `sharded` instead of holding their children, and per level-1
// section its subtree; index.json says which file holds which section. The app loads only the
// shards of the menu it shows.

import type { NavNode, NavShard, NavShardIndex } from '../types';
import type { Fetch } from './api';

/** The route of the shard index (a fixed name; the shards' names carry digests). */
export const SHARD_INDEX = '/_docgen/nav/index.json';

export async function fetchShardIndex(url: string, fetchImpl?: Fetch): Promise<NavShardIndex> {
  const body = (await fetchShard(url, fetchImpl)) as unknown as Partial<NavShardIndex>;
  if (!Array.isArray(body.shards)) throw new Error(`${url} is not a shard index`);
  return body as NavShardIndex;
}

export async function fetchShard(url: string, fetchImpl: Fetch = (i, init) => fetch(i, init)): Promise<NavShard> {
  const response = await fetchImpl(url, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    await response.text().catch(() => undefined);
    throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  }
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null) throw new Error(`${url} is not a navigation shard`);
  return body as NavShard;
}


/**
 * The tree as far as the loaded shards go, in the shape of nav.json: the areas, each with the
 * subtrees of its loaded sections in place, then the external links (once). Null before any
 * area shard is there.
 */
export function assemble(shards: ReadonlyMap<string, NavShard>): NavNode[] | null {
  const sections = new Map<string, NavNode>();
  for (const shard of shards.values()) if (!Array.isArray(shard)) sections.set(shard.id, shard);
  // A sharded section's subtree when its shard is loaded, else the section without children.
  const fillIn = (n: NavNode) => (n.sharded ? (sections.get(n.id) ?? n) : n);
  const areas: NavNode[] = [];
  let links: NavNode[] = [];
  for (const shard of shards.values()) {
    if (!Array.isArray(shard)) continue;
    for (const n of shard) {
      if (n.external) continue;
      areas.push({ ...n, children: n.children.map(fillIn) });
    }
    links = shard.filter((n) => n.external);
  }
  return areas.length > 0 ? [...areas, ...links] : null;
}
