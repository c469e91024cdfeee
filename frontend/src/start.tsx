import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App, IslandSource, Source } from './App';
// The site's islands, registered once for the whole app.
import './blocks/islands';
import { extensionIslands } from './blocks/extensions';
import { exposeHost } from './blocks/host';
import { collectIslands } from './blocks/registry';
import { readPageData } from './data/pageData';
import { setLocaleStrings } from './i18n';
import type { Access } from './lib/access';
import { stripBase, stripOpenPrefix, withBase } from './lib/routes';
import { Shell } from './shell/attach';
import { Navigation } from './shell/navigation';
import { searchSlot } from './shell/swap';

/**
 * The server's HTML is the page: the app attaches behaviour to its elements where they are
 * (shell/attach), swaps in the next page's regions on a client-side navigation (shell/navigation)
 * and renders with React only what has no server markup: the search, the consent dialog and the
 * content islands' components.
 */
export function start(): { dispose(): void } | null {
  const data = readPageData();
  if (!data) return null;
  setLocaleStrings(data.site.strings);
  const base = document.documentElement.getAttribute('data-base') ?? data.site.base;
  // A new-tab address (`/o/<route>`) shows the page of `<route>`: the address bar says so.
  const route = stripBase(window.location.pathname, base);
  const own = stripOpenPrefix(route);
  if (own !== route) window.history.replaceState(window.history.state, '', withBase(base, own) + window.location.search + window.location.hash);

  const access: Access = { features: data.site.features, permissions: [] };
  const islands = new IslandSource();
  // The search of the page on screen: each locale has its own index.
  const search = new Source(data.site.search);
  // The islands of site extensions come with their bundle, imported on a page that holds one.
  exposeHost();
  const loadExtensions = extensionIslands(data.site.islandScripts);
  const articles = () => Array.from(document.querySelectorAll<HTMLElement>('.dg-article'));
  const findIslands = () => {
    islands.set(articles().flatMap((a) => collectIslands(a)));
    void loadExtensions(articles()).then((loaded) => {
      if (loaded) islands.set(articles().flatMap((a) => collectIslands(a)));
    });
  };
  // Pages of the shell navigate inside the app; a page with a layout of its own (a site's
  // template without #dg-root) gets the same behaviour for the markup it has.
  const navigation = document.getElementById('dg-root')
    ? new Navigation({
        base,
        site: data.site,
        onPage: () => {
          shell.page();
          findIslands();
          const next = readPageData();
          if (next) search.set(next.site.search);
        },
      })
    : null;
  const shell = new Shell(access, navigation ? { base, load: navigation.load } : null);
  findIslands();

  const container = document.createElement('div');
  container.id = 'dg-app';
  document.body.appendChild(container);
  // Synchronous: the search and the islands' components are in place before the browser paints.
  const react = createRoot(container);
  flushSync(() => { react.render(<App site={data.site} base={base} searchSlot={data.site.search ? searchSlot() : null} islands={islands} search={search} />); });
  // For scripts and tests that wait for the app.
  document.documentElement.setAttribute('data-dg-app', 'mounted');
  return {
    dispose() {
      react.unmount();
      container.remove();
      shell.dispose();
      navigation?.dispose();
    },
  };
}

