// Content islands: `<div data-dg-block="NAME" data-...>fallback</div>` in a page's HTML. The app
// keeps a registry NAME → component; a known island's fallback is read (read), then replaced
// by the component, rendered into the same element. Unknown names are left as they are.

import type { ComponentType } from 'react';
import { Changelog, readChangelog } from './Changelog';
import { CodeSnippetBox, readCodeBox } from './CodeSnippetBox';
import { DependencyBuilder, readDependencyBuilder } from './DependencyBuilder';
import { PagedTable, readTable } from './PagedTable';
import { Popover } from './Popover';
import { SkAdNetworkGenerator, readSkAdNetworkGenerator } from './SkAdNetworkGenerator';
import { Tooltip } from './Tooltip';

export interface IslandDef<P extends object> {
  /** Reads what the component needs from the pre-rendered element. */
  read(host: HTMLElement): P;
  Component: ComponentType<P & { host: HTMLElement }>;
}

type AnyIsland = IslandDef<any>;

const registry = new Map<string, AnyIsland>();

export function registerIsland<P extends object>(name: string, def: IslandDef<P>): void {
  registry.set(name, def as AnyIsland);
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
 * the element emptied for the component (the same element keeps its record, so asking again
 * is harmless). Islands inside another island are left to it.
 */
export function collectIslands(root: ParentNode): MountedIsland[] {
  const hosts = Array.from(root.querySelectorAll<HTMLElement>('[data-dg-block]'));
  const known = hosts.filter((h) => islandFor(h.getAttribute('data-dg-block')));
  const outer = known.filter((host) => !known.some((other) => other !== host && other.contains(host)));
  const out: MountedIsland[] = [];
  for (const host of outer) {
    let island = mounted.get(host);
    if (!island) {
      const def = islandFor(host.getAttribute('data-dg-block'))!;
      const props = def.read(host);
      host.replaceChildren();
      host.setAttribute('data-dg-mounted', '');
      island = { key: `island-${++counter}`, host, def, props };
      mounted.set(host, island);
    }
    out.push(island);
  }
  return out;
}

/** A popover island: `data-label` is the header, the fallback HTML the content. */
function PopoverIsland({ label, html, closeOnContentClick, autoHide }: { label: string; html: string; closeOnContentClick: boolean; autoHide: boolean }) {
  return (
    <Popover header={label} closeOnContentClick={closeOnContentClick} autoHide={autoHide}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Popover>
  );
}

/** A tooltip island: the fallback text is the term, `data-tip` its description. */
function TooltipIsland({ text, tip }: { text: string; tip: string }) {
  return (
    <Tooltip content={tip}>
      <span className="dg-term" tabIndex={0}>
        {text}
      </span>
    </Tooltip>
  );
}

registerIsland('code', { read: readCodeBox, Component: CodeSnippetBox });
registerIsland('table', { read: readTable, Component: PagedTable });
registerIsland('popover', {
  read: (host) => ({
    label: host.getAttribute('data-label') ?? '',
    html: host.innerHTML,
    closeOnContentClick: host.getAttribute('data-close-on-click') === 'true',
    autoHide: host.getAttribute('data-auto-hide') === 'true',
  }),
  Component: PopoverIsland,
});
registerIsland('tooltip', {
  read: (host) => ({ text: host.textContent ?? '', tip: host.getAttribute('data-tip') ?? '' }),
  Component: TooltipIsland,
});
registerIsland('dependency-builder', { read: readDependencyBuilder, Component: DependencyBuilder });
registerIsland('skadnetwork-generator', { read: readSkAdNetworkGenerator, Component: SkAdNetworkGenerator });
registerIsland('changelog', { read: readChangelog, Component: Changelog });
