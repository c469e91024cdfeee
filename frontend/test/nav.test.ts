import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assemble } from '../src/data/nav';
import { useNavTree } from '../src/hooks/useNavTree';
import { fromNav } from '../src/lib/menu';
import type { NavShard } from '../src/types';
import { androidShard, mediationShard, nav, navShards, respond, shardIndex } from './fixtures';

const M = '/documentation/mediation';
const shards = navShards();
const loaded = (...urls: string[]) => new Map<string, NavShard>(urls.map((u) => [u, shards[u]!]));

describe('nav shards', () => {
  it('hold every node of nav.json once, level-1 sections by reference', () => {
    const ids: string[] = [];
    const walk = (n: { id: string; children: { id: string; children: never[] }[]; sharded?: boolean }) => {
      if (!n.sharded) ids.push(n.id);
      n.children.forEach(walk as never);
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

  it('assemble to nav.json where loaded and to stubs elsewhere', () => {
    expect(assemble(new Map())).toBeNull();
    expect(assemble(loaded(androidShard))).toBeNull();
    const tree = assemble(loaded(mediationShard, androidShard))!;
    expect(tree.map((n) => n.id)).toEqual(['documentation-mediation', 'external-success-stories', 'external-help-center']);
    const menu = fromNav(tree, `${M}/android/ad-formats/banners`, '', []);
    const [start, android] = menu.root!.children!;
    expect(android).toEqual(fromNav(nav, M, '', []).root!.children![1]);
    expect(start).toMatchObject({ displayName: 'Getting Started', isSection: true, children: null, sharded: true });
    expect(menu.links.map((l) => l.displayName)).toEqual(['Success Stories', 'Help Center']);
  });

  it('assemble every area loaded, with the external links once', () => {
    const tree = assemble(loaded(mediationShard, '/_docgen/nav/documentation-dsp.json'))!;
    expect(tree.map((n) => n.id)).toEqual(['documentation-mediation', 'documentation-dsp', 'external-success-stories', 'external-help-center']);
  });
});

describe('useNavTree', () => {
  afterEach(() => vi.unstubAllGlobals());

  function serve() {
    const fetchMock = vi.fn(async (url: string) => {
      const route = url.replace(/^\/docs/, '');
      if (route === '/_docgen/nav/index.json') return respond(shardIndex());
      return shards[route] ? respond(shards[route]) : respond('missing', 404, 'text/plain');
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('loads the wanted shards under the base path, once each, and nothing else', async () => {
    const fetchMock = serve();
    const wanted = [mediationShard, androidShard];
    const { result, rerender } = renderHook(({ w }) => useNavTree('/docs', w), { initialProps: { w: wanted } });
    expect(result.current.nodes).toBeNull();
    await waitFor(() => expect(result.current.nodes).not.toBeNull());
    rerender({ w: [...wanted] });
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual([`/docs${mediationShard}`, `/docs${androidShard}`]);
  });

  it('loads a section’s shard on demand through the index, fetched once', async () => {
    const fetchMock = serve();
    const { result } = renderHook(() => useNavTree('', [mediationShard]));
    await waitFor(() => expect(result.current.nodes).not.toBeNull());
    result.current.loadSection('no-such-section');
    result.current.loadSection('documentation-mediation-start');
    await waitFor(() => expect(fromNav(result.current.nodes!, M, '', []).root!.children![0]!.children).toHaveLength(1));
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual([mediationShard, '/_docgen/nav/index.json', '/_docgen/nav/documentation-mediation-start.json']);
  });
});
