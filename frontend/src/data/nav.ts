// The menu tree in shards (`_docgen/nav/`): per area a list in the shape of nav.json whose
// level-1 sections are marked `sharded` instead of holding their children, and per level-1
// section its subtree; index.json says which file holds which section. The app loads a shard
// only to find a page inside a section without a page of its own that the reader opens.

import type { NavShard, NavShardIndex } from '../types';
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


