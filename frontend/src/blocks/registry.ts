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
}

const mounted = new WeakMap<HTMLElement, MountedIsland>();
let counter = 0;

/**
 * The islands inside `root`, ready to render: each known island's fallback is read once and
 * (unless the component works in place) the element emptied for the component. The same
 * element keeps its record, so asking again is harmless.
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
      if (!def.inPlace) host.replaceChildren();
      host.setAttribute('data-dg-mounted', '');
      island = { key: `island-${++counter}`, host, def, props };
      mounted.set(host, island);
    }
    out.push(island);
  }
  return out;
}
