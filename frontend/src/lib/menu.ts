// The left menu's model. It comes from two sources that describe the same tree: the branch the
// server pre-rendered into the page (parseMenu) and, once loaded, the nav shards (fromNav).

import type { Icon, NavNode } from '../types';
import { isPrefix, stripBase } from './routes';

export interface MenuNode {
  /** The nav id; for a page without children read from the pre-rendered markup, its route. */
  id: string;
  displayName: string;
  /** The href as the server writes it (with the base prefix). */
  href: string;
  /** The route for longest-match activation; null for a menu group, which has no route of its own. */
  route: string | null;
  isPage: boolean;
  /** Has children (some may be hidden by feature flags). */
  isSection: boolean;
  icon?: Icon;
  /** The visible children; null when not known yet (a closed branch the server did not inline). */
  children: MenuNode[] | null;
  /** The children are in a nav shard that is not loaded yet. */
  sharded?: boolean;
}

export interface MenuLinkItem {
  id: string;
  displayName: string;
  href: string;
  icon?: Icon;
}

export interface MenuData {
  /** The level-0 node of the current area, its children being the level-1 items. */
  root: MenuNode | null;
  /** External links listed below the tree. */
  links: MenuLinkItem[];
  /** Loads the nav shard of a section the reader opens, by its id. */
  loadSection?: (id: string) => void;
}

export const emptyMenu: MenuData = { root: null, links: [] };

function routeOrGroup(href: string, base: string, isPage: boolean, parentRoute: string | null): string | null {
  const route = stripBase(href, base);
  return !isPage && parentRoute !== null && route === parentRoute ? null : route;
}

/**
 * The menu for `route` from nav.json or the assembled shards: the subtree of the area with the
 * longest matching url. A section whose shard is not loaded has unknown (null) children.
 */
export function fromNav(nodes: NavNode[], route: string, base: string, features: readonly string[]): MenuData {
  const visible = (n: NavNode) => !n.requireFeature || features.includes(n.requireFeature);
  const convert = (n: NavNode, parentRoute: string | null): MenuNode => {
    const own = routeOrGroup(n.url, base, n.isPage, parentRoute);
    const childParent = own ?? parentRoute;
    return {
      id: n.id,
      displayName: n.displayName,
      href: n.url,
      route: own,
      isPage: n.isPage,
      isSection: n.children.length > 0 || n.sharded === true,
      ...(n.icon ? { icon: n.icon } : {}),
      ...(n.sharded ? { sharded: true } : {}),
      children: n.sharded ? null : n.children.filter(visible).map((c) => convert(c, childParent)),
    };
  };
  let area: NavNode | null = null;
  let areaRoute = '';
  for (const n of nodes) {
    if (n.external) continue;
    const r = stripBase(n.url, base);
    if (isPrefix(r, route) && (area === null || r.length > areaRoute.length)) {
      area = n;
      areaRoute = r;
    }
  }
  const links = nodes
    .filter((n) => n.external && visible(n))
    .map((n) => ({ id: n.id, displayName: n.displayName, href: n.url, ...(n.icon ? { icon: n.icon } : {}) }));
  return { root: area ? convert(area, null) : null, links };
}

function iconOf(el: Element | null): MenuNode['icon'] {
  const img = el?.querySelector(':scope > img.dg-menu-icon');
  return img ? { src: img.getAttribute('src') ?? '', alt: img.getAttribute('alt') ?? '' } : undefined;
}

/** The text of a menu link or button, without its icon. */
function labelOf(el: Element | null): string {
  const label = el?.querySelector(':scope > .dg-menu-label');
  return (label ?? el)?.textContent ?? '';
}

/** The nav id docgen writes on an element (`data-id`): on the root, the sections and the external links. */
function navId(el: Element | null): string | null {
  return el?.getAttribute('data-id') ?? null;
}

function parseList(list: Element | null, base: string, parentRoute: string | null): MenuNode[] {
  if (!list) return [];
  const out: MenuNode[] = [];
  for (const li of Array.from(list.children)) {
    // A "more" item links past the part of a long level the page shows; the app lists it all.
    if (li.tagName !== 'LI' || li.classList.contains('dg-menu-more')) continue;
    const link = li.querySelector(':scope > a');
    const toggle = li.querySelector(':scope > button.dg-menu-toggle');
    const isSection = li.classList.contains('dg-menu-section');
    const main = link ?? toggle;
    const href = link?.getAttribute('href') ?? '';
    const isPage = link !== null;
    const route = href ? routeOrGroup(href, base, isPage, parentRoute) : null;
    // A page without children carries no id in the markup (nothing keeps state by it): its route stands in.
    const id = navId(li) ?? route ?? '';
    const sub = li.querySelector(':scope > ul.dg-menu-list');
    const icon = iconOf(main);
    out.push({
      id,
      displayName: labelOf(main),
      href,
      route,
      isPage,
      isSection,
      ...(icon ? { icon } : {}),
      children: sub ? parseList(sub, base, route ?? parentRoute) : isSection ? null : [],
    });
  }
  return out;
}

/** The menu the server pre-rendered into `<nav id="dg-menu">`. */
export function parseMenu(nav: Element | null, base: string): MenuData {
  if (!nav) return emptyMenu;
  const rootLink = nav.querySelector(':scope > .dg-menu-root');
  const list = nav.querySelector(':scope > .dg-menu-list');
  let root: MenuNode | null = null;
  if (rootLink) {
    const href = rootLink.getAttribute('href') ?? '';
    const route = stripBase(href, base);
    root = {
      id: navId(rootLink) ?? '',
      displayName: rootLink.textContent ?? '',
      href,
      route,
      isPage: true,
      isSection: true,
      children: parseList(list, base, route),
    };
  }
  const links: MenuLinkItem[] = Array.from(nav.querySelectorAll(':scope > .dg-menu-external > li')).map((li) => {
    const a = li.querySelector(':scope > a');
    const icon = iconOf(a);
    return {
      id: navId(li) ?? '',
      displayName: labelOf(a),
      href: a?.getAttribute('href') ?? '',
      ...(icon ? { icon } : {}),
    };
  });
  return { root, links };
}

/**
 * The key of an item that is the same in both sources, so switching from the pre-rendered
 * branch to the shards keeps the elements: a section's nav id, a page's route.
 */
export function menuKey(node: MenuNode): string {
  return node.isSection ? node.id : (node.route ?? node.id);
}

/**
 * The nodes from the root down to the active one: the node whose route is the longest match of
 * `route` (the route itself or its nearest ancestor, on segment boundaries). Empty when not even
 * the root matches.
 */
export function activePath(root: MenuNode | null, route: string): MenuNode[] {
  if (!root) return [];
  let best: MenuNode[] = [];
  let bestLength = -1;
  const walk = (node: MenuNode, trail: MenuNode[]) => {
    const here = [...trail, node];
    if (node.route !== null && isPrefix(node.route, route) && node.route.length > bestLength) {
      best = here;
      bestLength = node.route.length;
    }
    for (const c of node.children ?? []) walk(c, here);
  };
  walk(root, []);
  return best;
}
