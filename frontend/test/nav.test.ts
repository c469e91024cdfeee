import { describe, expect, it } from 'vitest';
import { firstPage } from '../src/shell/menu';
import { nav, navShards } from './fixtures';

const shards = navShards();

describe('nav shards', () => {
  it('hold every node of nav.json once, level-1 sections by reference', () => {
    const ids: string[] = [];
    const walk = (n: { id: string; children: { id: string; children: never[] }[]; sharded?: boolean }) => {
      if (!n.sharded) ids.push(n.id);
      n.children.forEach(walk);
    };
    for (const s of Object.values(shards)) (Array.isArray(s) ? s : [s]).forEach(walk as never);
    const all: string[] = [];
    const walkAll = (n: (typeof nav)[number]) => {
      all.push(n.id);
      n.children.forEach(walkAll);
    };
    nav.forEach(walkAll);
    // The external links are in every area's shard.
    const links = nav.filter((n) => n.external).map((n) => n.id);
    const areas = nav.filter((n) => !n.external).length;
    expect(ids.filter((id) => !links.includes(id)).sort()).toEqual(all.filter((id) => !links.includes(id)).sort());
    expect(ids.filter((id) => links.includes(id))).toHaveLength(links.length * areas);
  });

  it('name the first page inside a section without a page of its own', () => {
    const mediation = nav[0];
    const start = mediation.children.find((n) => !n.isPage && n.children.length > 0)!;
    const first = firstPage(start)!;
    expect(first.isPage).toBe(true);
    expect(first.url.startsWith(start.url)).toBe(true);
    expect(firstPage({ ...start, children: [] })).toBeNull();
  });
});
