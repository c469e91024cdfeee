// The registry of content islands: NAME → how to read an island's fallback and which component
// replaces it. It imports no component, so components that mount nested islands (through
// ./mount) and the registrations (./islands) never import each other in a loop.

import type { ComponentType } from 'react';

export interface IslandDef<P extends object> {
  /** Reads what the component needs from the pre-rendered element. */
  read(host: HTMLElement): P;
  Component: ComponentType<P & { host: HTMLElement }>;
  /**
   * The component works on the server's markup where it is (and renders only what that markup
   * lacks, after it): the element is not emptied.
   */
  inPlace?: boolean;
}

/** An island of any props: what its `read` returns only ever goes to its own `Component`. */
type AnyIsland = IslandDef<object>;

const registry = new Map<string, AnyIsland>();

export function registerIsland<P extends object>(name: string, def: IslandDef<P>): void {
  registry.set(name, def as unknown as AnyIsland);
}

export function islandFor(name: string | null | undefined): AnyIsland | undefined {
  return name ? registry.get(name) : undefined;
}

export interface MountedIsland {
  key: string;
  host: HTMLElement;
  def: AnyIsland;
  props: object;
  /** The server's markup the component replaces (none for one that works in place). */
  fallback: ChildNode[];
}

const mounted = new WeakMap<HTMLElement, MountedIsland>();
let counter = 0;

/**
 * The islands inside `root`, ready to render: each known island's fallback is read once. The
 * element is left as it is until the component commits (`markMounted`), so no frame is drawn
 * between the server's markup and the component's. The same element keeps its record, so asking
 * again is harmless.
 */
export function collectIslands(root: ParentNode): MountedIsland[] {
  const hosts = Array.from(root.querySelectorAll<HTMLElement>('[data-dg-block]'));
  const known = hosts.flatMap((host) => {
    const def = islandFor(host.getAttribute('data-dg-block'));
    return def ? [{ host, def }] : [];
  });
  // An island inside one that replaces its content is left to that one; inside one that works
  // in place, it is an island of the page like any other.
  const outer = known.filter(({ host }) => !known.some((other) => other.host !== host && other.host.contains(host) && !other.def.inPlace));
  const out: MountedIsland[] = [];
  for (const { host, def } of outer) {
    let island = mounted.get(host);
    if (!island) {
      const props = def.read(host);
      const fallback = def.inPlace ? [] : Array.from(host.childNodes);
      island = { key: `island-${++counter}`, host, def, props, fallback };
      mounted.set(host, island);
    }
    out.push(island);
  }
  return out;
}

/**
 * Called when an island's component has committed, before the browser paints: the server's
 * markup it replaces goes, and the element is marked mounted (the style sheet's stand-ins for
 * the component, such as the first 50 rows of a table, stop there). Both in the same frame as
 * the component's own markup, so a slow start shows no half-mounted state.
 */
export function markMounted(island: MountedIsland): void {
  // A component may have taken some of those nodes into its own markup (`Fallback`): those stay.
  for (const node of island.fallback.splice(0)) {
    if (node.parentNode === island.host) node.remove();
  }
  island.host.setAttribute('data-dg-mounted', '');
}
