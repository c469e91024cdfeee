// The islands of site extensions: their components are not in app.js but in a bundle of the
// extension (e.g. adplatform.js), which registers them when imported. The site view names the
// bundle of each such island (`site.islandScripts`, name → script); on a page that holds an
// island no component is registered for, the app imports its bundle, once, and mounts again.
// An island no bundle is named for keeps its server fallback.

import { islandFor } from './registry';

export type ImportScript = (src: string) => Promise<unknown>;

const importScript: ImportScript = (src) => import(/* @vite-ignore */ src);

/**
 * A loader for the islands of `scripts` (island name → script): given the page's content, it
 * imports the scripts of the islands there that nothing registered yet and resolves to whether
 * one was imported (then the caller collects the islands again). A script that fails to load
 * is tried again the next time.
 */
export function extensionIslands(scripts: Record<string, string> = {}, load: ImportScript = importScript): (roots: Iterable<ParentNode>) => Promise<boolean> {
  const byName = new Map(Object.entries(scripts));
  const imported = new Map<string, Promise<boolean>>();
  return async (roots) => {
    const wanted = new Set<string>();
    for (const root of roots) {
      for (const host of Array.from(root.querySelectorAll<HTMLElement>('[data-dg-block]'))) {
        const name = host.getAttribute('data-dg-block');
        const script = name && !islandFor(name) ? byName.get(name) : undefined;
        if (script) wanted.add(script);
      }
    }
    const results = await Promise.all(
      Array.from(wanted, (src) => {
        let done = imported.get(src);
        if (!done) {
          done = load(src).then(
            () => true,
            (e: unknown) => {
              imported.delete(src);
              console.warn(`docgen: ${src} did not load; its islands keep their fallback`, e);
              return false;
            },
          );
          imported.set(src, done);
        }
        return done;
      }),
    );
    return results.some(Boolean);
  };
}
