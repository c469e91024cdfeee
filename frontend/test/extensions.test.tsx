// The islands of site extensions: an island no component is registered for is mounted once its
// extension's bundle (named by the site view) is imported, once; one with no bundle keeps its
// fallback. The bundle reaches the app's registry and React through what the app lends it.

import { act, render, screen, waitFor } from '@testing-library/react';
import { onTestFinished, describe, expect, it, vi } from 'vitest';
import { extensionIslands } from '../src/blocks/extensions';
import { exposeHost, hostModules, type Host } from '../src/blocks/host';
import { renderIslands } from '../src/blocks/mount';
import { collectIslands, islandFor, registerIsland } from '../src/blocks/registry';
import { HOST_GLOBAL, shared } from '../src/blocks/shared.mjs';
import { start } from '../src/start';
import { pageData, site } from './fixtures';

function article(html: string): HTMLElement {
  const el = document.createElement('article');
  el.className = 'dg-article';
  el.innerHTML = html;
  document.body.appendChild(el);
  return el;
}

describe('extension islands', () => {
  it('import the bundle of an unknown island once, then mount it', async () => {
    const root = article('<div data-dg-block="loader-demo">Fallback text</div><div data-dg-block="loader-demo">Second</div><div data-dg-block="nobody-has-it">Kept as it is</div>');
    const load = vi.fn(async (src: string) => {
      expect(src).toBe('/s/docgen/demo.abc.js');
      // A script arrives later: the second call comes while it is on its way.
      await new Promise((resolve) => setTimeout(resolve, 0));
      registerIsland('loader-demo', { read: (host) => ({ text: host.textContent }), Component: ({ text }: { text: string }) => <b>Mounted: {text}</b> });
    });
    const loadIslands = extensionIslands({ 'loader-demo': '/s/docgen/demo.abc.js' }, load);

    expect(collectIslands(root)).toEqual([]);
    // Two calls while the import runs (e.g. a quick navigation): one import.
    const [first, second] = await Promise.all([loadIslands([root]), loadIslands([root])]);
    expect([first, second]).toEqual([true, true]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(islandFor('loader-demo')).toBeDefined();

    const islands = collectIslands(root);
    expect(islands.map((i) => i.host.getAttribute('data-dg-block'))).toEqual(['loader-demo', 'loader-demo']);
    render(<>{renderIslands(islands)}</>);
    expect(screen.getByText('Mounted: Fallback text')).toBeInTheDocument();
    expect(screen.getByText('Mounted: Second')).toBeInTheDocument();
    // No bundle names it: the server's fallback stays, and nothing is imported.
    expect(root.querySelector('[data-dg-block="nobody-has-it"]')).toHaveTextContent('Kept as it is');
    expect(root.querySelector('[data-dg-block="nobody-has-it"]')).not.toHaveAttribute('data-dg-mounted');

    // Registered now: a later page imports nothing.
    expect(await loadIslands([article('<div data-dg-block="loader-demo">Again</div>')])).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('import nothing for a page without such islands, and try a failed bundle again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({});
    const loadIslands = extensionIslands({ 'flaky-demo': '/s/docgen/flaky.js' }, load);
    expect(await loadIslands([article('<div data-dg-block="code">x</div><p>text</p>')])).toBe(false);
    expect(load).not.toHaveBeenCalled();

    const root = article('<div data-dg-block="flaky-demo">Fallback</div>');
    expect(await loadIslands([root])).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('/s/docgen/flaky.js'), expect.any(Error));
    expect(root).toHaveTextContent('Fallback');
    expect(await loadIslands([root])).toBe(true);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('lend the extensions exactly the modules build.mjs resolves to the app', () => {
    expect(Object.keys(hostModules).sort()).toEqual([...shared].sort());
    for (const key of shared) expect(hostModules[key], key).toBeTruthy();
    exposeHost();
    const host = (globalThis as Record<string, unknown>)[HOST_GLOBAL] as Host;
    expect(host.registerIsland).toBe(registerIsland);
    expect(host.modules).toBe(hostModules);
  });

  it('are mounted by the app on a page that holds one, through the bundle the site view names', async () => {
    // A bundle as build.mjs makes one: it reaches the registry and React through the app.
    const bundle = `const { registerIsland, modules } = globalThis.${HOST_GLOBAL};
const { jsx } = modules['react/jsx-runtime'];
registerIsland('app-demo', { read: (host) => ({ text: host.textContent }), Component: ({ text }) => jsx('strong', { children: 'From the bundle: ' + text }) });`;
    const script = `data:text/javascript,${encodeURIComponent(bundle)}`;
    const data = pageData({ site: { ...site, islandScripts: { 'app-demo': script } } });
    document.body.innerHTML = `<div id="dg-root"><main><article class="dg-article"><div data-dg-block="app-demo">Server fallback</div></article></main></div>
<script id="dg-page-data" type="application/json">${JSON.stringify(data)}</script>`;
    let app: ReturnType<typeof start> = null;
    act(() => {
      app = start();
    });
    onTestFinished(() => app?.dispose());
    await waitFor(() => expect(screen.getByText('From the bundle: Server fallback')).toBeInTheDocument());
  });
});
