import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareVersions, matches, newestFirst, toReleases } from '../src/blocks/Changelog';
import { respond } from './fixtures';
import { routeFetch } from './islandData';
import { renderContent } from './render';

const flush = () => act(async () => {});

/** A changelog as the changelog pages write it: every release pre-rendered. */
const changelogHtml = `<p>The release notes, newest first.</p>
<div data-dg-block="changelog" data-id="android">
<h2 id="1.10.0">1.10.0<a class="dg-anchor" href="#1.10.0" aria-label="Link to this section: 1.10.0">#</a></h2>
<ul><li>Static note of 1.10.0.</li></ul>
<h2 id="1.9.0">1.9.0<a class="dg-anchor" href="#1.9.0" aria-label="Link to this section: 1.9.0">#</a></h2>
<ul><li>Static note of 1.9.0.</li></ul>
</div>`;

// Not in order: the island puts the newest first (1.10.0 is newer than 1.9.0).
const releases = [
  { version: '1.9.0', date: null, notes: ['Deprecated the APIs that take a `Context`.', 'Faster start.'] },
  { version: '1.10.0', date: '2026-06-03', notes: ['Minimum API level raised to 24.'] },
  { version: '1.2.0', date: null, notes: ['First release with `AppLovinSdk.initialize()`.'] },
];

const URL = '/docs/v1/sdk-change-logs/android';

async function mount(answer: Parameters<typeof routeFetch>[0][string]) {
  const fetch = routeFetch({ [URL]: answer });
  vi.stubGlobal('fetch', fetch);
  const result = renderContent(changelogHtml);
  await flush();
  return { ...result, fetch, host: result.article.querySelector<HTMLElement>('[data-dg-block="changelog"]')! };
}

const versions = () => screen.queryAllByRole('heading', { level: 2 }).map((h) => h.id);
const filter = () => screen.getByRole('searchbox', { name: 'Filter by version or text' });
const type = (text: string) => fireEvent.change(filter(), { target: { value: text } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('changelog', () => {
  it('loads the changelog of its id and shows the releases newest first, with their anchors', async () => {
    const { fetch, host } = await mount(respond({ sdkChangeLogs: releases }));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toBe(URL);
    expect(host).toHaveAttribute('data-dg-mounted');
    expect(versions()).toEqual(['1.10.0', '1.9.0', '1.2.0']);
    expect(screen.getByRole('heading', { name: /^1\.10\.0/ }).querySelector('a.dg-anchor')).toHaveAttribute('href', '#1.10.0');
    expect(screen.getByText('Released 2026-06-03.')).toBeInTheDocument();
    // Backticks are code.
    expect(screen.getByText('Context').tagName).toBe('CODE');
    expect(within(host).queryByText(/Static note/)).toBeNull();
    expect(filter()).toHaveAttribute('placeholder', 'Filter by version or text');
    expect(screen.getByText('3 of 3 releases')).toBeInTheDocument();
  });

  it('narrows the list as the reader types, by version or text, and says when nothing matches', async () => {
    await mount(respond({ sdkChangeLogs: releases }));
    type('1.9');
    expect(versions()).toEqual(['1.9.0']);
    type('  CONTEXT ');
    expect(versions()).toEqual(['1.9.0']);
    type('sdk.initialize()');
    expect(versions()).toEqual(['1.2.0']);
    type('raised 2026');
    expect(versions()).toEqual(['1.10.0']);
    expect(screen.getByText('1 of 3 releases')).toBeInTheDocument();
    type('1.');
    expect(versions()).toEqual(['1.10.0', '1.9.0', '1.2.0']);
    type('no such release');
    expect(versions()).toEqual([]);
    expect(screen.getByText('No Results')).toBeInTheDocument();
    expect(screen.getByText('0 of 3 releases')).toBeInTheDocument();
    type('');
    expect(versions()).toEqual(['1.10.0', '1.9.0', '1.2.0']);
    expect(screen.queryByText('No Results')).toBeNull();
  });

  it('keeps the pre-rendered notes while they load', async () => {
    let answer!: (r: Response) => void;
    const { host } = await mount(() => new Promise<Response>((resolve) => (answer = resolve)));
    expect(within(host).getByText('Static note of 1.9.0.')).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).toBeNull();
    await act(async () => { answer(respond({ sdkChangeLogs: releases })); });
    expect(within(host).queryByText('Static note of 1.9.0.')).toBeNull();
    expect(versions()).toEqual(['1.10.0', '1.9.0', '1.2.0']);
  });

  it('keeps the pre-rendered notes, and says so, when the changelog cannot be loaded', async () => {
    const { host } = await mount(respond('missing', 404, 'text/html'));
    expect(screen.getByRole('alert')).toHaveTextContent('The release notes could not be loaded');
    expect(within(host).getByText('Static note of 1.10.0.')).toBeInTheDocument();
    expect(versions()).toEqual(['1.10.0', '1.9.0']);
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('gives the releases the heading level of the pre-rendered ones', async () => {
    vi.stubGlobal('fetch', routeFetch({ [URL]: respond({ sdkChangeLogs: releases }) }));
    renderContent(`<h2 id="notes">Notes</h2>${changelogHtml.replace(/<(\/?)h2/g, '<$1h3')}`);
    await flush();
    expect(screen.queryAllByRole('heading', { level: 3 }).map((h) => h.id)).toEqual(['1.10.0', '1.9.0', '1.2.0']);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.id)).toEqual(['notes']);
  });

  it('keeps the pre-rendered text of a changelog without releases', async () => {
    const { host } = await mount(respond({ sdkChangeLogs: [] }));
    expect(within(host).getByText('Static note of 1.9.0.')).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('changelog entries', () => {
  it('compares versions part by part', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('13.0.0', '13.0.0.1')).toBeLessThan(0);
    expect(compareVersions('2.0.0-beta', '2.0.0')).toBeLessThan(0);
    expect(compareVersions('4.1.1', '4.1.1')).toBe(0);
    expect(newestFirst(toReleases(releases)).map((r) => r.version)).toEqual(['1.10.0', '1.9.0', '1.2.0']);
  });

  it('reads only well-formed releases and matches every word of a query', () => {
    const read = toReleases([null, { version: '' }, { version: 3 }, { version: '1.0.0', date: ' ', notes: ['a', 2, 'b'] }]);
    expect(read).toEqual([
      { version: '3', date: null, notes: [] },
      { version: '1.0.0', date: null, notes: ['a', 'b'] },
    ]);
    const r = { version: '12.3.1', date: null, notes: ['Fixes a crash in `MAAdView`.'] };
    expect(matches(r, 'maadview crash')).toBe(true);
    expect(matches(r, 'crash banner')).toBe(false);
    expect(matches(r, '')).toBe(true);
  });
});
