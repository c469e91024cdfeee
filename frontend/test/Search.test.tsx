import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { App, IslandSource, Source } from '../src/App';
import { createSearch } from '../src/search/engine';
import { loadSearch } from '../src/search/load';
import { Search } from '../src/search/Search';
import { start } from '../src/start';
import type { PageView, SiteSearch } from '../src/types';
import { navShards, pageData, respond, shardIndex, site } from './fixtures';
import { excerptUrlOf, fakeFetch, fixtureFiles, indexOf, resplit, SEARCH_INDEX, type IndexFiles } from './searchFixtures';

vi.mock('../src/search/load', () => ({ loadSearch: vi.fn() }));

const searchSite = { index: SEARCH_INDEX, script: '/s/search.0123456789.js' };
let files: IndexFiles;
let fetchMock: ReturnType<typeof fakeFetch>;

beforeEach(() => {
  files = fixtureFiles();
  fetchMock = fakeFetch(files);
  vi.mocked(loadSearch).mockImplementation(async () => createSearch(SEARCH_INDEX, fetchMock));
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const user = userEvent.setup();
  const result = render(
    <>
      <a href="#before" id="before">
        Before
      </a>
      <input aria-label="Other field" />
      <Search site={searchSite} />
    </>,
  );
  const input = () => screen.getByRole('combobox', { name: 'Search' });
  const listbox = () => document.getElementById(input().getAttribute('aria-controls')!)!;
  const options = () => within(listbox()).queryAllByRole('option');
  /** Waits for the answer to the whole query: results shown, none of them from a query typed on the way. */
  const answered = () =>
    waitFor(() => {
      expect(listbox()).not.toHaveAttribute('aria-busy');
      expect(options().length).toBeGreaterThan(0);
    });
  return { user, ...result, input, listbox, options, answered };
}

async function typeQuery(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByRole('combobox', { name: 'Search' }));
  await user.keyboard(text);
}

describe('the search box', () => {
  it('is a search landmark with a combobox named “Search” over a listbox', () => {
    const { input, listbox } = setup();
    const landmark = screen.getByRole('search');
    expect(within(landmark).getByRole('combobox', { name: 'Search' })).toBe(input());
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(listbox()).toHaveAttribute('role', 'listbox');
    expect(listbox()).toHaveAttribute('aria-label', 'Search results');
    expect(input()).not.toHaveAttribute('aria-activedescendant');
    expect(listbox()).not.toBeVisible();
  });

  it('is in the top bar’s slot only when the site has a search', () => {
    document.body.innerHTML = '<header id="dg-topbar" class="dg-topbar"><div id="dg-search" class="dg-search-slot"></div></header>';
    const slot = document.getElementById('dg-search')!;
    const islands = new IslandSource();
    const { rerender } = render(<App site={{ ...site, search: searchSite }} base="" searchSlot={slot} islands={islands} />);
    expect(within(slot).getByRole('search')).toBeInTheDocument();
    rerender(<App site={{ ...site, search: null }} base="" searchSlot={slot} islands={islands} />);
    expect(screen.queryByRole('search')).toBeNull();
    rerender(<App site={site} base="" searchSlot={slot} islands={islands} />);
    expect(screen.queryByRole('search')).toBeNull();
  });

  it('reads the index of the page on screen: another language’s after a move there', async () => {
    document.body.innerHTML = '<header id="dg-topbar" class="dg-topbar"><div id="dg-search" class="dg-search-slot"></div></header>';
    const slot = document.getElementById('dg-search')!;
    const source = new Source<SiteSearch | null>(searchSite);
    render(<App site={{ ...site, search: searchSite }} base="" searchSlot={slot} islands={new IslandSource()} search={source} />);
    const user = userEvent.setup();
    const zh = { ...searchSite, index: '/zh/_docgen/search/index.json' };
    act(() => { source.set(zh); });
    await user.click(within(slot).getByRole('combobox', { name: 'Search' }));
    expect(loadSearch).toHaveBeenLastCalledWith(zh);
    // A page without a search (none in its page data) takes the box away.
    act(() => { source.set(null); });
    expect(within(slot).queryByRole('search')).toBeNull();
  });

  it('loads the engine on the first focus, not before', async () => {
    const { user, input } = setup();
    expect(loadSearch).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(input());
    expect(loadSearch).toHaveBeenCalledWith(searchSite);
    await waitFor(() => { expect(fetchMock).toHaveBeenCalledWith(SEARCH_INDEX); });
    await user.tab();
    await user.click(input());
    expect(loadSearch).toHaveBeenCalledTimes(1);
  });

  it('opens with / unless another field is being typed in', async () => {
    const { user, input } = setup();
    screen.getByRole('link', { name: 'Before' }).focus();
    await user.keyboard('/');
    expect(input()).toHaveFocus();
    expect(input()).toHaveValue('');

    const other = screen.getByRole('textbox', { name: 'Other field' });
    await user.click(other);
    await user.keyboard('a/b');
    expect(other).toHaveFocus();
    expect(other).toHaveValue('a/b');
  });

  it('opens with Ctrl+K and Cmd+K, from anywhere', async () => {
    const { user, input } = setup();
    await user.click(screen.getByRole('textbox', { name: 'Other field' }));
    await user.keyboard('{Control>}k{/Control}');
    expect(input()).toHaveFocus();
    screen.getByRole('link', { name: 'Before' }).focus();
    await user.keyboard('{Meta>}K{/Meta}');
    expect(input()).toHaveFocus();
  });

  it('shows results as the reader types: title, breadcrumb, excerpt with marks, sections', async () => {
    const { user, input, listbox, options, answered } = setup();
    await typeQuery(user, 'MaxInterstitialAd');
    await answered();
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    expect(listbox()).toBeVisible();
    const [page, ...sections] = options();
    expect(page).toHaveAttribute('href', '/documentation/mediation/android/ad-formats/interstitials');
    expect(page).toHaveTextContent('Interstitial Ads');
    expect(page).toHaveTextContent('MAX Mediation › Android › Ad Formats');
    expect(Array.from(page.querySelectorAll('mark'), (m) => m.textContent)).toEqual(['MaxInterstitialAd']);
    expect(sections.map((s) => s.getAttribute('href'))).toEqual(['/documentation/mediation/android/ad-formats/interstitials#loading-an-interstitial-ad']);
    expect(sections[0]).toHaveTextContent('Loading an Interstitial Ad');
    expect(screen.getByRole('status')).toHaveTextContent('1 result');
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('waits for a pause in typing before it queries', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<Search site={searchSite} />);
    await user.click(screen.getByRole('combobox', { name: 'Search' }));
    await waitFor(() => { expect(fetchMock).toHaveBeenCalledWith(SEARCH_INDEX); });
    const query = vi.spyOn(await vi.mocked(loadSearch).mock.results[0].value, 'query');
    await user.keyboard('liftoff');
    expect(query).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(130));
    expect(query).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith('liftoff', { area: null, platform: null, limit: 8, context: { area: null, platform: null } });
  });

  it('moves through the options with the arrow keys and opens the active one with Enter', async () => {
    const { user, input, options, answered } = setup();
    const clicked: string[] = [];
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element).closest('a');
      if (a) {
        e.preventDefault();
        clicked.push(a.getAttribute('href')!);
      }
    };
    document.addEventListener('click', onClick);
    onTestFinished(() => { document.removeEventListener('click', onClick); });
    await typeQuery(user, 'liftoff');
    await answered();
    expect(options().length).toBeGreaterThan(2);
    const all = options();
    await user.keyboard('{ArrowDown}');
    expect(input()).toHaveAttribute('aria-activedescendant', all[0].id);
    expect(all[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input()).toHaveAttribute('aria-activedescendant', all[2].id);
    expect(all[0]).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{ArrowUp}');
    expect(input()).toHaveAttribute('aria-activedescendant', all[1].id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(input()).toHaveAttribute('aria-activedescendant', all[all.length - 1].id);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(clicked).toEqual([all[1].getAttribute('href')]);
    // Choosing closes the list.
    expect(input()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes with Escape and gives focus back to where it was', async () => {
    const { user, input, listbox, answered } = setup();
    const before = screen.getByRole('link', { name: 'Before' });
    before.focus();
    await user.keyboard('/');
    await user.keyboard('gdpr');
    await answered();
    await user.keyboard('{Escape}');
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(listbox()).not.toBeVisible();
    expect(before).toHaveFocus();
    // The query stays, and the results come back with the box.
    expect(input()).toHaveValue('gdpr');
    await user.click(input());
    expect(input()).toHaveAttribute('aria-expanded', 'true');
  });

  it('says so when nothing matches', async () => {
    const { user, input } = setup();
    await typeQuery(user, 'zebra quagga');
    expect(await screen.findByText('No results for “zebra quagga”', { selector: 'p' })).toBeVisible();
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('status')).toHaveTextContent('No results for “zebra quagga”');
  });

  it('filters by area and by platform', async () => {
    const { user, options, answered } = setup();
    await typeQuery(user, 'gdpr');
    await answered();
    expect(options().filter((o) => o.classList.contains('dg-search-page'))).toHaveLength(3);
    const area = screen.getByRole('combobox', { name: 'Area' });
    expect(within(area).getAllByRole('option').map((o) => o.textContent)).toEqual(['All areas', 'MAX Mediation', 'Demand Partners', 'SKAdNetwork FAQ']);
    expect(area).toHaveValue('');
    await user.selectOptions(area, 'SKAdNetwork FAQ');
    await waitFor(() => { expect(options().map((o) => o.getAttribute('href'))).toEqual(['/documentation/skafaq']); });

    await user.selectOptions(area, '');
    await user.clear(screen.getByRole('combobox', { name: 'Search' }));
    await user.keyboard('liftoff');
    const platform = screen.getByRole('combobox', { name: 'Platform' });
    expect(within(platform).getAllByRole('option').map((o) => o.textContent)).toEqual(['All platforms', 'Android', 'iOS']);
    await user.selectOptions(platform, 'iOS');
    await waitFor(() => { expect(options().filter((o) => o.classList.contains('dg-search-page')).map((o) => o.getAttribute('href'))).toEqual([
        '/documentation/mediation/ios/mediation-setup/liftoff',
        '/documentation/mediation/networks',
      ]); },
    );
  });

  it('has no filter without areas to choose between or platforms', async () => {
    const index = indexOf(files);
    files.set(SEARCH_INDEX, JSON.stringify({ ...index, areas: ['Docs'], areaHrefs: ['/documentation'], area: [[index.docs, 0]], platforms: [], platformHrefs: [], platform: [[index.docs, -1]], twins: [] }));
    const { user, answered } = setup();
    await typeQuery(user, 'liftoff');
    await answered();
    expect(screen.queryByRole('combobox', { name: 'Area' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Platform' })).toBeNull();
  });

  it('offers to drop the filters when they leave nothing', async () => {
    const { user, answered } = setup();
    await typeQuery(user, 'liftoff');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Area' }), 'Demand Partners');
    expect(await screen.findByText('No results for “liftoff”', { selector: 'p' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Search all areas and platforms' }));
    await answered();
    expect(screen.getByRole('combobox', { name: 'Area' })).toHaveValue('');
  });

  it('shows that it is loading, and what failed', async () => {
    let fail!: (e: unknown) => void;
    vi.mocked(loadSearch).mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)));
    const { user, answered } = setup();
    await typeQuery(user, 'liftoff');
    expect(screen.getByText('Loading search…', { selector: 'p' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Loading search…');
    await act(async () => { fail(new TypeError('Failed to fetch dynamically imported module')); });
    expect(await screen.findByText('Search could not be loaded: its code did not load.', { selector: 'p' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await answered();
  });

  it('says which file failed to load, and tries again', async () => {
    const shard = `/_docgen/search/${indexOf(files).shards[0][1]}`;
    const body = files.get(shard)!;
    files.delete(shard);
    const { user, answered } = setup();
    await typeQuery(user, 'liftoff');
    expect(await screen.findByText('Search failed: the server answered 404.', { selector: 'p' })).toBeVisible();
    files.set(shard, body);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveFocus();
    await answered();
  });

  it('shows the first eight results and more on demand, with the count of the rest', async () => {
    const { user, options, answered } = setup();
    const pages = () => options().filter((o) => o.classList.contains('dg-search-page'));
    await typeQuery(user, 'ad');
    await answered();
    expect(pages()).toHaveLength(8);
    const total = (await createSearch(SEARCH_INDEX, fakeFetch(files)).query('ad')).total;
    expect(total).toBeGreaterThan(8);
    expect(screen.getByRole('status')).toHaveTextContent(`${String(total)} results`);
    await user.click(screen.getByRole('button', { name: `Show more (${String(total - 8)})` }));
    await waitFor(() => { expect(pages()).toHaveLength(total); });
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveFocus();
  });

  it('says how it read a query with a typo', async () => {
    const { user, answered } = setup();
    await typeQuery(user, 'interstitail ');
    await answered();
    expect(screen.getByText('Showing results for “interstitial”')).toBeVisible();
    await user.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}ial ');
    await waitFor(() => { expect(screen.queryByText(/Showing results for/)).toBeNull(); });
  });

  it('preselects the platform of the page the reader is on and ranks its pages first', async () => {
    window.history.replaceState(null, '', '/documentation/mediation/ios/ad-formats/interstitials');
    onTestFinished(() => { window.history.replaceState(null, '', '/'); });
    const { user, options, answered } = setup();
    await typeQuery(user, 'liftoff');
    await answered();
    expect(screen.getByRole('combobox', { name: 'Platform' })).toHaveValue('iOS');
    expect(options()[0]).toHaveAttribute('href', '/documentation/mediation/ios/mediation-setup/liftoff');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Platform' }), '');
    await waitFor(() => { expect(options().filter((o) => o.classList.contains('dg-search-page'))).toHaveLength(3); });
    // Still the reader's platform first.
    expect(options()[0]).toHaveAttribute('href', '/documentation/mediation/ios/mediation-setup/liftoff');
  });

  it('shows the other results when the excerpt file of one failed to load', async () => {
    files = resplit(fixtureFiles(), [], 1);
    files.delete(excerptUrlOf(files, '/documentation/mediation/ios/mediation-setup/liftoff'));
    fetchMock = fakeFetch(files);
    const { user, options } = setup();
    await typeQuery(user, 'liftoff');
    await waitFor(() => { expect(options().filter((o) => o.classList.contains('dg-search-page')).map((o) => o.getAttribute('href'))).toEqual([
        '/documentation/mediation/android/mediation-setup/liftoff',
        '/documentation/mediation/networks',
      ]); },
    );
    expect(screen.queryByText(/Search failed/)).toBeNull();
  });

  it('on narrow screens opens from its button and closes back to it', async () => {
    const { user, input } = setup();
    const toggle = screen.getByRole('button', { name: 'Search' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('search')).toHaveClass('is-open');
    expect(input()).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Close search' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('search')).not.toHaveClass('is-open');
    expect(toggle).toHaveFocus();
  });

  it('marks the results it shows busy while the answer to a newer query is on its way', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    vi.mocked(loadSearch).mockImplementation(async () => {
      const search = createSearch(SEARCH_INDEX, fetchMock);
      return { ...search, query: async (text, options) => { if (text !== 'liftoff') await held; return search.query(text, options); } };
    });
    const { user, listbox, options, answered } = setup();
    await typeQuery(user, 'liftoff');
    await answered();
    const before = options().map((o) => o.getAttribute('href'));
    await user.keyboard(' ios');
    await waitFor(() => { expect(listbox()).toHaveAttribute('aria-busy', 'true'); });
    // The older results stay on screen until the new ones come.
    expect(options().map((o) => o.getAttribute('href'))).toEqual(before);
    release();
    await answered();
    expect(options()[0]).toHaveAttribute('href', '/documentation/mediation/ios/mediation-setup/liftoff');
  });

  it('closes when focus leaves it', async () => {
    const { user, input, answered } = setup();
    await typeQuery(user, 'gdpr');
    await answered();
    await user.click(screen.getByRole('textbox', { name: 'Other field' }));
    expect(input()).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('the search in the app', () => {
  const M = '/documentation/mediation';
  const target = `${M}/ios/mediation-setup/liftoff`;

  function page(data: PageView, article: string) {
    return `<div id="dg-root" class="dg-shell"><header id="dg-topbar" class="dg-topbar"></header>
<div class="dg-columns"><main id="dg-main" class="dg-main"><article class="dg-article">${article}</article></main></div></div>
<script id="dg-page-data" type="application/json">${JSON.stringify(data)}</script>`;
  }

  const withSearch = { ...site, search: searchSite };
  const liftoff = pageData({ route: target, canonical: target, title: 'Liftoff Monetize', site: withSearch, breadcrumbs: [{ displayName: 'Liftoff Monetize', url: target }] });

  beforeEach(() => {
    const pages: Partial<Record<string, () => Response>> = {
      ...Object.fromEntries(Object.entries(navShards()).map(([url, body]) => [url, () => respond(body)])),
      '/_docgen/nav/index.json': () => respond(shardIndex()),
      [`${target}/index.html`]: () =>
        respond(`<!DOCTYPE html><html><head><title>Liftoff Monetize | Fixture Docs</title></head><body>${page(liftoff, '<h1 id="liftoff">Liftoff Monetize</h1><h2 id="step-1">Step 1</h2>')}</body></html>`, 200, 'text/html'),
    };
    vi.stubGlobal('fetch', vi.fn(async (url: string) => pages[url]?.() ?? respond('not found', 404, 'text/plain')));
    window.scrollTo = vi.fn();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens a result with Enter through the app’s router, without a reload', async () => {
    const data = pageData({ site: withSearch });
    window.history.replaceState(null, '', data.route);
    document.body.innerHTML = page(data, '<h1 id="banners">Banners</h1>');
    const app = start()!;
    onTestFinished(() => { app.dispose(); });
    (window as unknown as { marker: string }).marker = 'same document';

    const user = userEvent.setup();
    await user.keyboard('/');
    await user.keyboard('liftoff step');
    const listbox = await screen.findByRole('listbox', { name: 'Search results' });
    await waitFor(() => { expect(within(listbox).getAllByRole('option').length).toBeGreaterThan(1); });
    // The iOS page, then its section "Step 1".
    await user.selectOptions(screen.getByRole('combobox', { name: 'Platform' }), 'iOS');
    await waitFor(() => expect(within(listbox).getAllByRole('option')[0]).toHaveAttribute('href', target));
    await user.click(screen.getByRole('combobox', { name: 'Search' }));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    await waitFor(() => expect(document.querySelector('.dg-article h1')).toHaveTextContent('Liftoff Monetize'));
    expect(window.location.pathname).toBe(target);
    expect(window.location.hash).toBe('#step-1');
    expect(fetch).toHaveBeenCalledWith(`${target}/index.html`, expect.anything());
    expect((window as unknown as { marker: string }).marker).toBe('same document');
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveAttribute('aria-expanded', 'false');
    // The reader goes on reading the section chosen: focus is there, not in the search box.
    expect(document.activeElement).toBe(document.getElementById('step-1'));
  });
});
