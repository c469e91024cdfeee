// The shapes the app reads: the page data embedded in every page and the tables under _docgen/.

export interface Crumb {
  displayName: string;
  url: string;
}

export interface TocEntry {
  displayName: string;
  hashName: string;
  /** 1 to 3; the tables may give it as a string. */
  level: number | string;
}

export interface FooterLink {
  displayName: string;
  id: string;
  isPage: boolean;
  url: string;
  icon?: { iconSrc: string; iconAlt: string };
  children: unknown[];
  action?: 'consent';
}

export interface AreaLink {
  displayName: string;
  url: string;
  notFound?: { title: string; subtitle: string };
}

/** Where a site's search lives: `_docgen/search/index.json` and the engine module, with the base path. */
export interface SiteSearch {
  index: string;
  script: string;
}

export interface SiteData {
  title: string;
  base: string;
  home: string;
  apiBase: string;
  features: string[];
  year: number;
  copyright: string;
  footer: FooterLink[];
  areas: AreaLink[];
  logo: string;
  /** null (or absent, in pages built before search existed) when the site has no search. */
  search?: SiteSearch | null;
}

export interface PageData {
  /** null on the 404 pages. */
  route: string | null;
  canonical?: string;
  title: string;
  area?: string | null;
  breadcrumbs: Crumb[];
  toc: TocEntry[];
  menuPath: string[];
  /** The nav shards (routes of `_docgen/nav/` files) the page's menu needs. */
  navShards: string[];
  notFound?: boolean;
  site: SiteData;
}

/** A node of `_docgen/nav.json`. */
export interface NavNode {
  displayName: string;
  id: string;
  isPage: boolean;
  url: string;
  breadcrumbUrl?: string;
  children: NavNode[];
  icon?: { src: string; alt: string };
  requireFeature?: string;
  external?: boolean;
  /** In an area's shard: this level-1 section's children are in a shard of their own (see NavShardIndex). */
  sharded?: boolean;
}

/** A file of `_docgen/nav/`: an area's (the area root, then the external links) or a level-1 section's subtree. */
export type NavShard = NavNode[] | NavNode;

/** `_docgen/nav/index.json`: which shard holds the menu below each area root and level-1 section. */
export interface NavShardIndex {
  shards: { id: string; route: string; file: string }[];
}
